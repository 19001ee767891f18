package net.commoninternet.ccci.extensions;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceUpdateState;
import com.github.dockerjava.api.model.Task;
import com.github.dockerjava.api.model.TaskState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a stack has converged (spec section 8): every service runs its desired number of
 * tasks and no service is mid-update. N/N running alone is not convergence: during a
 * stop-first rolling update the count reads full while {@code UpdateStatus} is
 * {@code updating}. {@code paused} and {@code rollback_paused} are settled states (swarm keeps
 * them until the next update) and are reported as a failed update, never waited on.
 */
final class SwarmConvergence {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmConvergence.class);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** One look at a stack: converged, still moving, or settled in a failure. */
    record Report(boolean converged, boolean failed, List<String> problems) {
        String describe() {
            return String.join("; ", problems);
        }
    }

    private final DockerClient client;

    SwarmConvergence(DockerClient client) {
        this.client = client;
    }

    /** Waits until the stack converges, fails for good, or {@code timeout} passes. */
    Report await(String stack, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Report report = inspect(stack);
        while (!report.converged() && !report.failed() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for " + stack + " to converge");
            }
            report = inspect(stack);
        }
        if (!report.converged() && !report.failed()) {
            List<String> problems = new ArrayList<>(report.problems());
            problems.add(0, "not converged within " + timeout.toSeconds() + " s");
            report = new Report(false, true, problems);
        }
        LOG.info("stack {}: {}", stack, report.converged() ? "converged" : report.describe());
        return report;
    }

    Report inspect(String stack) {
        List<Service> services = client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec();
        if (services.isEmpty()) {
            return new Report(false, false, List.of("stack " + stack + " has no services yet"));
        }
        List<String> problems = new ArrayList<>();
        boolean failed = false;
        for (Service service : services) {
            String name = service.getSpec().getName();
            ServiceUpdateState update = service.getUpdateStatus() == null ? null : service.getUpdateStatus().getState();
            if (update == ServiceUpdateState.PAUSED || update == ServiceUpdateState.ROLLBACK_PAUSED) {
                failed = true;
                problems.add(name + ": update " + update.name().toLowerCase() + " (" + service.getUpdateStatus().getMessage() + ")");
                continue;
            }
            if (update == ServiceUpdateState.UPDATING || update == ServiceUpdateState.ROLLBACK_STARTED) {
                problems.add(name + ": " + update.name().toLowerCase());
                continue;
            }
            List<Task> tasks = client.listTasksCmd().withServiceFilter(name).exec();
            long running = tasks.stream().filter(t -> t.getDesiredState() == TaskState.RUNNING
                    && t.getStatus() != null && t.getStatus().getState() == TaskState.RUNNING).count();
            long desired = desired(service.getSpec().getMode());
            if (running < desired) {
                problems.add(name + ": " + running + "/" + desired + " running" + lastError(tasks).map(e -> " (last task error: " + e + ")").orElse(""));
            }
        }
        return new Report(problems.isEmpty(), failed, problems);
    }

    private long desired(ServiceModeConfig mode) {
        if (mode != null && mode.getReplicated() != null) {
            return mode.getReplicated().getReplicas();
        }
        return client.listSwarmNodesCmd().exec().size();
    }

    private static Optional<String> lastError(List<Task> tasks) {
        return tasks.stream()
                .filter(t -> t.getStatus() != null && t.getStatus().getErr() != null && !t.getStatus().getErr().isBlank())
                .max(Comparator.comparing(t -> t.getStatus().getTimestamp() == null ? "" : t.getStatus().getTimestamp()))
                .map(t -> t.getStatus().getErr());
    }
}
