package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.HealthCheck;
import com.github.dockerjava.api.model.Service;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceRestartCondition;
import com.github.dockerjava.api.model.ServiceRestartPolicy;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.ServiceUpdateState;
import com.github.dockerjava.api.model.Task;
import com.github.dockerjava.api.model.TaskSpec;
import com.github.dockerjava.api.model.TaskState;
import com.github.dockerjava.api.model.UpdateConfig;
import com.github.dockerjava.api.model.UpdateFailureAction;
import com.github.dockerjava.api.model.UpdateOrder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.RealEngine;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spec section 8 on the real local swarm. The stack name is outside RUN_APP_RE, so no janitor
 * ever probes it; every test removes it afterwards.
 */
@RealEngine
class SwarmConvergenceTest {

    private static final String STACK = "ccci-convergence-test";
    private static final String SERVICE = STACK + "_app";
    private static final Duration WAIT = Duration.ofSeconds(120);
    /**
     * The monitor window of an update whose new task crashes ({@code exit 3}): swarm counts the crash
     * as the update's failure only if it reports the exit within the window after the task ran, and a
     * loaded gVisor sandbox can take longer than 2 s between the two (the update then ends COMPLETED
     * and the test waits for a failure that never comes: seen in CI). A failure is acted on when it
     * is seen, so a long window costs these tests nothing.
     */
    private static final Duration CRASH_MONITOR = Duration.ofSeconds(60);

    private DockerEngine docker;
    private DockerClient client;
    private SwarmConvergence convergence;

    @BeforeEach
    void connect() {
        docker = DockerEngine.connect();
        client = docker.client();
        convergence = new SwarmConvergence(docker);
        new StackTeardown(client).teardown(STACK);
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(client).teardown(STACK)).isEmpty();
        docker.close();
    }

    private static final String TERMINATES_ON_TERM = "trap 'exit 0' TERM; sleep 600 & wait";

    private ServiceSpec spec(int replicas, String script, String env) {
        return new ServiceSpec().withName(SERVICE).withLabels(StackLabels.of(STACK))
                .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(replicas)))
                .withTaskTemplate(new TaskSpec()
                        .withRestartPolicy(new ServiceRestartPolicy().withCondition(ServiceRestartCondition.ON_FAILURE)
                                .withDelay(0L))
                        .withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX).withLabels(StackLabels.of(STACK))
                                .withCommand(List.of("sh", "-c", script)).withEnv(List.of("GEN=" + env))));
    }

    private static UpdateConfig update(UpdateOrder order, UpdateFailureAction onFailure, Duration monitor) {
        return update(order, onFailure, monitor, Duration.ofSeconds(1));
    }

    private static UpdateConfig update(UpdateOrder order, UpdateFailureAction onFailure, Duration monitor, Duration delay) {
        return new UpdateConfig().withParallelism(1L).withDelay(delay.toNanos()).withOrder(order)
                .withFailureAction(onFailure).withMonitor(monitor.toNanos());
    }

    private void updateTo(ServiceSpec next) {
        Service current = client.inspectServiceCmd(SERVICE).exec();
        client.updateServiceCmd(SERVICE, next).withVersion(current.getVersion().getIndex()).exec();
    }

    private ServiceUpdateState updateState() {
        Service s = client.inspectServiceCmd(SERVICE).exec();
        return s.getUpdateStatus() == null ? null : s.getUpdateStatus().getState();
    }

    /** What `docker service ls` shows as REPLICAS: running tasks of any spec version. */
    private String cliReplicas() throws Exception {
        Process ls = new ProcessBuilder("docker", "service", "ls", "--filter", "name=" + SERVICE, "--format", "{{.Replicas}}")
                .start();
        String out = new String(ls.getInputStream().readAllBytes()).strip();
        ls.waitFor();
        return out;
    }

    @Test
    void aStopFirstRollingUpdateIsNeverConvergedWhileUpdatingThoughTheCliShowsFullReplicas() throws Exception {
        // the trap shows between the two tasks' updates (one old, one new task running): a 5 s delay there lets
        // a loop that forks the CLI each time see it on a loaded machine
        UpdateConfig rolling = update(UpdateOrder.STOP_FIRST, UpdateFailureAction.PAUSE, Duration.ofSeconds(1),
                Duration.ofSeconds(5));
        client.createServiceCmd(spec(2, TERMINATES_ON_TERM, "1").withUpdateConfig(rolling)).exec();
        assertThat(convergence.await(STACK, WAIT).converged()).isTrue();

        updateTo(spec(2, TERMINATES_ON_TERM, "2").withUpdateConfig(rolling));

        assertThat(convergence.inspect(STACK).converged())
                .as("right after the update the old tasks run, UpdateStatus may still be null").isFalse();
        boolean sawTheTrap = false;
        List<String> observed = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (updateState() != ServiceUpdateState.COMPLETED && System.nanoTime() < deadline) {
            ServiceUpdateState before = updateState();
            String replicas = cliReplicas();
            boolean converged = convergence.inspect(STACK).converged();
            ServiceUpdateState after = updateState();
            observed.add(before + "/" + replicas + "/" + converged);
            if (before == ServiceUpdateState.UPDATING && after == ServiceUpdateState.UPDATING) {
                assertThat(converged).as("converged while updating; observed %s", observed).isFalse();
                sawTheTrap |= replicas.equals("2/2");
            }
        }
        assertThat(sawTheTrap).as("the CLI showed 2/2 during the update at least once: %s", observed).isTrue();
        assertThat(convergence.await(STACK, WAIT).converged()).isTrue();
    }

    @Test
    void tasksOfTheOldSpecAreNotCountedOnceTheSpecChanged() throws Exception {
        UpdateConfig startFirst = update(UpdateOrder.START_FIRST, UpdateFailureAction.PAUSE, Duration.ofSeconds(1));
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1").withUpdateConfig(startFirst)).exec();
        assertThat(awaitConverged()).isTrue();
        String id = client.inspectServiceCmd(SERVICE).exec().getId();

        // The new spec can never be placed: its task stays pending while the old one keeps running.
        ServiceSpec unplaceable = spec(1, TERMINATES_ON_TERM, "2").withUpdateConfig(startFirst);
        unplaceable.getTaskTemplate().withPlacement(new com.github.dockerjava.api.model.ServicePlacement()
                .withConstraints(List.of("node.labels.ccci-never==true")));
        updateTo(unplaceable);

        List<Task> all = client.listTasksCmd().withServiceFilter(SERVICE).exec();
        assertThat(all).as("the old task still runs").anyMatch(t -> t.getStatus().getState() == TaskState.RUNNING);
        assertThat(convergence.currentSpecTasks(id)).as("no task of the current spec runs")
                .noneMatch(t -> t.path("Status").path("State").asText().equals("running"));
        assertThat(convergence.inspect(STACK).converged()).isFalse();
    }

    @Test
    void aFailingUpdateThatPausesIsReportedAsFailedPromptlyNotWaitedOn() throws Exception {
        UpdateConfig pauseOnFailure = update(UpdateOrder.STOP_FIRST, UpdateFailureAction.PAUSE, CRASH_MONITOR);
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1").withUpdateConfig(pauseOnFailure)).exec();
        assertThat(convergence.inspect(STACK).converged()).isFalse();
        assertThat(awaitConverged()).isTrue();

        updateTo(spec(1, "exit 3", "2").withUpdateConfig(pauseOnFailure));
        long start = System.nanoTime();
        SwarmConvergence.Report report = convergence.await(STACK, Duration.ofSeconds(600));

        assertThat(report.converged()).isFalse();
        assertThat(report.failed()).isTrue();
        assertThat(report.describe()).contains(SERVICE, "update paused");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("reported promptly, not at the 600 s timeout")
                .isLessThan(Duration.ofSeconds(90));
    }

    @Test
    void aRollbackBlocksWhileStartedAndSettlesWhenCompleted() throws Exception {
        UpdateConfig rollbackOnFailure = update(UpdateOrder.STOP_FIRST, UpdateFailureAction.ROLLBACK, CRASH_MONITOR);
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1").withUpdateConfig(rollbackOnFailure)).exec();
        assertThat(awaitConverged()).isTrue();

        updateTo(spec(1, "exit 3", "2").withUpdateConfig(rollbackOnFailure));
        List<String> observed = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        // until the update ends one way or another: COMPLETED would be swarm not counting the crash (an EnumSet:
        // right after the update swarm may not have an update state yet, and null is then "not ended")
        Set<ServiceUpdateState> ended = EnumSet.of(ServiceUpdateState.ROLLBACK_COMPLETED, ServiceUpdateState.ROLLBACK_PAUSED,
                ServiceUpdateState.COMPLETED, ServiceUpdateState.PAUSED);
        while (!ended.contains(updateState()) && System.nanoTime() < deadline) {
            ServiceUpdateState before = updateState();
            boolean converged = convergence.inspect(STACK).converged();
            ServiceUpdateState after = updateState();
            observed.add(before + "/" + converged);
            if (before == ServiceUpdateState.ROLLBACK_STARTED && after == ServiceUpdateState.ROLLBACK_STARTED) {
                assertThat(converged).as("converged during rollback_started: %s", observed).isFalse();
            }
        }
        assertThat(observed).as("the rollback was observed").anyMatch(o -> o.startsWith("ROLLBACK_STARTED"));
        SwarmConvergence.Report settled = convergence.await(STACK, WAIT);
        assertThat(updateState()).isEqualTo(ServiceUpdateState.ROLLBACK_COMPLETED);
        assertThat(settled.converged()).as(settled.describe()).isTrue();
        // settled, and said: a tier reads a rolled-back update as a failure (Deployment.of)
        assertThat(settled.rolledBack()).singleElement().asString().startsWith(SERVICE + ": swarm rolled its update back (");
    }

    /**
     * ... and while it waits, it says every 10 s what it still sees (a person watching the console is
     * not left guessing). Once a task of the loop has failed: before that, its first task is judged by
     * the 300 ms window alone, which a start slowed by a loaded machine can outlast (its {@code sh}
     * still starting under gVisor), the window's documented price; from the first failure on, every
     * task is judged by the service's monitor window, and a loop never gets past it.
     */
    @Test
    void aCrashLoopingTaskNeverConvergesAndTheTimeoutNamesItAndItsError() throws Exception {
        client.createServiceCmd(spec(1, "exit 3", "1")).exec();
        awaitAFailedTask("1");

        SwarmConvergence.Report report;
        List<String> said;
        try (LogCapture log = new LogCapture(SwarmConvergence.class)) {
            // one line is due at 10 s; a bound of 19 s lets a loaded machine's slow look land it late, and never twice
            report = convergence.await(STACK, Duration.ofSeconds(19));
            said = log.lines();
        }

        assertThat(report.converged()).isFalse();
        assertThat(report.describe()).contains("not converged within 19 s", SERVICE, "exit");
        assertThat(said).filteredOn(l -> l.startsWith(".. still waiting for stack " + STACK + " to converge: "))
                .as(String.join("\n", said)).hasSize(1)
                .first().asString().containsPattern(": 1\\d s of at most 19 s \\(").contains(SERVICE);
    }

    /**
     * The stability windows' clock, held still from its making until {@link #release}: a task's window
     * stays open while it is held, whatever the machine's load (a loaded gVisor sandbox can take
     * longer than a 300 ms window to be seen running at all).
     */
    private static final class HeldClock extends Clock {
        private final AtomicReference<Instant> held = new AtomicReference<>(Instant.now());

        void release() {
            held.set(null);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            Instant still = held.get();
            return still != null ? still : Instant.now();
        }
    }

    @Test
    void onlyTheStabilityWindowsLeftAreToldOnceAndTheVerdictStillWaitsForTheirEnd() throws Exception {
        HeldClock windows = new HeldClock();
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1")).exec();
        List<String> whenTold = new ArrayList<>();

        SwarmConvergence.Report report = new SwarmConvergence(docker, windows).await(STACK, WAIT, null, () -> {
            whenTold.add(new SwarmConvergence(docker, windows).inspect(STACK).describe());
            windows.release();
        });

        assertThat(report.converged()).as(report.describe()).isTrue();
        assertThat(whenTold).singleElement().asString().contains("running for less than the 300 ms stability window");
    }

    @Test
    void aTaskThatCrashesInsideItsWindowIsNotConvergedThoughTheWindowWasToldOf() throws Exception {
        HeldClock windows = new HeldClock();
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1")).exec();
        // the 4 s wait below must start from a running task: a loaded machine can take longer to start it
        awaitATask(TaskState.RUNNING, "1");
        AtomicInteger told = new AtomicInteger();

        SwarmConvergence.Report report = new SwarmConvergence(docker, windows).await(STACK, Duration.ofSeconds(4), null, () -> {
            told.incrementAndGet();
            try {
                client.killContainerCmd(awaitContainer()).withSignal("KILL").exec();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            awaitAFailedTask("1");
            windows.release();
        });

        assertThat(told).hasValue(1);
        // the restarted task must prove itself for the update monitor window (5 s), longer than the wait
        assertThat(report.converged()).as(report.describe()).isFalse();
        assertThat(report.describe()).contains(SERVICE);
    }

    @Test
    void aServiceWithAHealthcheckConvergesOnlyOnceHealthy() throws Exception {
        client.createServiceCmd(spec(1, "trap 'exit 0' TERM; sleep 600 & wait", "1").withTaskTemplate(
                spec(1, "trap 'exit 0' TERM; sleep 600 & wait", "1").getTaskTemplate().withContainerSpec(
                        new ContainerSpec().withImage(LocalImages.BUSYBOX).withLabels(StackLabels.of(STACK))
                                .withCommand(List.of("sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"))
                                .withHealthCheck(new HealthCheck().withTest(List.of("CMD", "test", "-f", "/tmp/healthy"))
                                        .withInterval(Duration.ofMillis(500).toNanos()).withRetries(1000))))).exec();
        String container = awaitContainer();
        // what is told once the task started (a run starts its browser there): once, while still unhealthy
        List<String> healthWhenStarted = new ArrayList<>();
        AtomicInteger windows = new AtomicInteger();
        SwarmConvergence.Report whileStarting = convergence.await(STACK, Duration.ofSeconds(3),
                () -> healthWhenStarted.add(health(container)), windows::incrementAndGet);
        assertThat(whileStarting.converged()).as("converged before the healthcheck passed").isFalse();
        // no task error to quote: where the task is, so a timeout on a slow host does not read as a crash
        assertThat(whileStarting.describe()).contains(SERVICE + ": 0/1 running (1 task starting)");
        assertThat(windows).as("a healthcheck's wait is no stability window: nothing may start beside it").hasValue(0);
        assertThat(health(container)).isEqualTo("starting");
        assertThat(healthWhenStarted).as("told once, with the task started and its healthcheck not yet passed")
                .containsExactly("starting");

        exec(container, "touch", "/tmp/healthy");

        assertThat(awaitConverged()).isTrue();
        assertThat(health(container)).isEqualTo("healthy");
    }

    @Test
    void aTaskThatCrashesAfterTheStabilityWindowIsCaughtByTheNextInspectionOnceItHasFailed() throws Exception {
        client.createServiceCmd(spec(1, "sleep 2; exit 3", "1")).exec();
        awaitConverged(); // may pass: a process that crashes after the window looks healthy until then
        String firstTask = client.listTasksCmd().withServiceFilter(SERVICE).exec().get(0).getId();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (client.listTasksCmd().withServiceFilter(SERVICE).exec().size() < 2 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
        assertThat(firstTask).isNotNull();

        SwarmConvergence.Report afterTheCrash = convergence.inspect(STACK);

        assertThat(afterTheCrash.converged()).as("a restarted task must prove itself for the monitor window").isFalse();
        assertThat(afterTheCrash.describe()).contains(SERVICE, "exit");
    }

    @Test
    void teardownAfterAHalfFailedDeployLeavesNothingAndASecondTeardownIsANoOp() throws Exception {
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1")).exec();
        client.createServiceCmd(spec(1, "exit 1", "1").withName(STACK + "_broken")
                .withTaskTemplate(spec(1, "exit 1", "1").getTaskTemplate().withContainerSpec(
                        new ContainerSpec().withImage("ccci.local/does-not-exist:1").withLabels(StackLabels.of(STACK))))).exec();
        client.createSecretCmd(new com.github.dockerjava.api.model.SecretSpec().withName(STACK + "_pw_v1")
                .withData("cHc=").withLabels(StackLabels.of(STACK))).exec();
        client.createNetworkCmd().withName(STACK + "_default").withDriver("overlay").withLabels(StackLabels.of(STACK)).exec();
        AtomicInteger told = new AtomicInteger();
        assertThat(convergence.await(STACK, Duration.ofSeconds(5), told::incrementAndGet).converged()).isFalse();
        assertThat(told).as("never told that every task started: one service's image does not exist").hasValue(0);
        StackTeardown teardown = new StackTeardown(client);

        assertThat(teardown.teardown(STACK)).isEmpty();
        assertThat(teardown.leftovers(STACK)).isEmpty();
        assertThat(teardown.teardown(STACK)).isEmpty();
    }

    @Test
    void anUpdateRollsOutWhileSwarmHoldsItsMonitorWindowAndConvergesOnlyOnceItEndsTheUpdate() throws Exception {
        // long enough for the looks below to happen inside it on a loaded machine
        UpdateConfig longMonitor = update(UpdateOrder.STOP_FIRST, UpdateFailureAction.PAUSE, Duration.ofSeconds(15));
        client.createServiceCmd(spec(2, TERMINATES_ON_TERM, "1").withUpdateConfig(longMonitor)).exec();
        assertThat(awaitConverged()).isTrue();

        updateTo(spec(2, TERMINATES_ON_TERM, "2").withUpdateConfig(longMonitor));
        SwarmConvergence.Report rollout = convergence.awaitRollout(STACK, WAIT);

        // swarm still holds the update (its 15 s window), and every task that runs is of the new spec
        assertThat(updateState()).as("swarm's update state when the rollout was seen").isEqualTo(ServiceUpdateState.UPDATING);
        assertThat(rollout.rolledOut()).as(rollout.describe()).isTrue();
        assertThat(rollout.converged()).isFalse();
        assertThat(rollout.describe()).startsWith("rolled out; " + SERVICE + ": updating");
        assertThat(convergence.currentSpecTasks(client.inspectServiceCmd(SERVICE).exec().getId()))
                .filteredOn(t -> "running".equals(t.path("Status").path("State").asText())).hasSize(2);
        assertThat(convergence.inspect(STACK).converged()).as("a look while the window is open").isFalse();
        SwarmConvergence.Report settled = convergence.await(STACK, WAIT);
        assertThat(settled.converged()).as(settled.describe()).isTrue();
        assertThat(updateState()).isEqualTo(ServiceUpdateState.COMPLETED);
    }

    @Test
    void aStartFirstUpdateIsNeitherRolledOutNorConvergedWhileAnOldTaskStillRuns() throws Exception {
        // Each old task ignores TERM for its 4 s grace: it runs on beside the new one that long, past
        // swarm's "completed" (the monitor window is 1 s).
        UpdateConfig startFirst = update(UpdateOrder.START_FIRST, UpdateFailureAction.PAUSE, Duration.ofSeconds(1));
        client.createServiceCmd(lingering("1", startFirst)).exec();
        assertThat(awaitConverged()).isTrue();

        String oldTask = runningTask();
        updateTo(lingering("2", startFirst));
        SwarmConvergence.Report rollout = convergence.awaitRollout(STACK, WAIT);
        assertThat(rollout.rolledOut()).as(rollout.describe()).isTrue();
        assertThat(taskState(oldTask)).as("the old task when the rollout was seen")
                .isIn(TaskState.SHUTDOWN, TaskState.COMPLETE, TaskState.FAILED);

        oldTask = runningTask();
        updateTo(lingering("3", startFirst));
        SwarmConvergence.Report converged = convergence.await(STACK, WAIT);
        assertThat(converged.converged()).as(converged.describe()).isTrue();
        assertThat(taskState(oldTask)).as("the old task when convergence was seen")
                .isIn(TaskState.SHUTDOWN, TaskState.COMPLETE, TaskState.FAILED);
    }

    /** A service whose task ignores TERM and is given 4 s to stop. */
    private ServiceSpec lingering(String generation, UpdateConfig update) {
        ServiceSpec spec = spec(1, "trap '' TERM; sleep 600 & wait", generation).withUpdateConfig(update);
        spec.getTaskTemplate().getContainerSpec().withStopGracePeriod(Duration.ofSeconds(4).toNanos());
        return spec;
    }

    private String runningTask() {
        return client.listTasksCmd().withServiceFilter(SERVICE).exec().stream()
                .filter(t -> t.getStatus().getState() == TaskState.RUNNING).findFirst().orElseThrow().getId();
    }

    private TaskState taskState(String task) {
        return client.listTasksCmd().withIdFilter(task).exec().get(0).getStatus().getState();
    }

    @Test
    void anUpdateWhoseNewTaskCrashesNeverRollsOutAndEndsAsAFailure() throws Exception {
        UpdateConfig pause = update(UpdateOrder.STOP_FIRST, UpdateFailureAction.PAUSE, CRASH_MONITOR);
        client.createServiceCmd(spec(1, TERMINATES_ON_TERM, "1").withUpdateConfig(pause)).exec();
        assertThat(awaitConverged()).isTrue();

        updateTo(spec(1, "exit 3", "2").withUpdateConfig(pause));
        // as above: a new task is judged by the monitor window once one of its spec failed
        awaitAFailedTask("2");
        SwarmConvergence.Report rollout = convergence.awaitRollout(STACK, WAIT);

        assertThat(rollout.rolledOut()).as(rollout.describe()).isFalse();
        assertThat(rollout.failed()).isTrue();
        assertThat(rollout.describe()).contains(SERVICE + ": update paused");
    }

    /** Waits until swarm recorded a failed task of the service's spec {@code GEN=generation}. */
    private void awaitAFailedTask(String generation) {
        awaitATask(TaskState.FAILED, generation);
    }

    private void awaitATask(TaskState state, String generation) {
        Awaitility.await("a task of generation " + generation + " in state " + state).atMost(WAIT)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> client.listTasksCmd().withServiceFilter(SERVICE).exec().stream()
                        .anyMatch(t -> t.getStatus().getState() == state
                                && t.getSpec().getContainerSpec().getEnv().contains("GEN=" + generation)));
    }

    private boolean awaitConverged() {
        try {
            return convergence.await(STACK, WAIT).converged();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private String awaitContainer() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            var containers = client.listContainersCmd()
                    .withLabelFilter(Map.of("com.docker.swarm.service.name", SERVICE)).exec();
            if (!containers.isEmpty()) {
                return containers.get(0).getId();
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("no container of " + SERVICE + " started");
    }

    private String health(String container) {
        return client.inspectContainerCmd(container).exec().getState().getHealth().getStatus();
    }

    private void exec(String container, String... command) throws InterruptedException {
        String exec = client.execCreateCmd(container).withCmd(command).exec().getId();
        client.execStartCmd(exec).exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<>()).awaitCompletion();
    }
}
