package net.commoninternet.ccci.extensions.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Service;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceUpdateState;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.waits.LongWait;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a stack has converged (spec section 8). A service has converged when:
 * <ul>
 *   <li>it is not mid-update: {@code updating} and {@code rollback_started} block;
 *       {@code paused} and {@code rollback_paused} are settled states (swarm keeps them until
 *       the next update) and end the wait as a failed update instead of hanging it;
 *   <li>its desired number of tasks OF THE CURRENT SPEC are running. Right after a spec update
 *       swarm resets {@code UpdateStatus} to null and the old tasks still read N/N running, so
 *       only tasks passing the engine's {@code _up-to-date} filter count (what the docker CLI
 *       uses; docker-java's typed task list cannot send it, so this goes through the raw HTTP
 *       client). A task with a healthcheck reads {@code running} only once healthy (checked on
 *       engine 20.10: it stays {@code starting} until then);
 *   <li>no task of an older spec still runs or is on its way to: a start-first update stops the
 *       old task only once the new one runs, and the old one runs on for as long as it takes to
 *       stop (its stop grace period), past swarm's {@code completed} (seen on engine 20.10), where a
 *       probe by {@code tasks.<service>} or an exec could still meet it. Looked at only for a
 *       service swarm ever updated (one never updated has no older task);
 *   <li>its running tasks have stayed up for a stability window: {@link #STABLE_WITHOUT_HEALTHCHECK}
 *       for a service without a healthcheck (a process that exits at once never gets there;
 *       with a healthcheck, "running" already means healthy), and the service's update monitor
 *       window (default 5 s) once any current-spec task has failed: a crash loop shows a task
 *       "running" between restarts, and that moment is not convergence.
 * </ul>
 * The window is the price of not mistaking a task that crashes right after starting for a
 * healthy one; a process that crashes later than it is caught by the INSTALL checks, which
 * inspect again, and by the HTTP probe.
 * A stack is <em>rolled out</em> ({@link #awaitRollout}) when every service of it is converged, or
 * is {@code updating} with the rest already true: its desired tasks of the current spec running past
 * their windows, and no task of an older spec still running or about to. What is left of such an
 * update is swarm's own update monitor window ({@code UpdateConfig.Monitor}, 5 s by default), in
 * which a task that fails rolls the update back or pauses it: the app serves its new spec
 * throughout it, and it is never called converged before swarm reports the update {@code completed}.
 * Swarm events wake the wait (inspection stays the truth), so a converged stack is seen within
 * tens of milliseconds: it looks at once on an event and every 40 ms for 400 ms after it (a
 * task's state reaches the store after its container's event); without events it re-inspects at
 * most every half second, and right after the end of a stability window it is waiting out (no
 * event marks that moment). A wait past {@link LongWait#EVERY} says every 10 s what it still sees.
 */
@API(status = API.Status.INTERNAL)
public final class SwarmConvergence {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmConvergence.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEFAULT_MONITOR = Duration.ofSeconds(5);
    static final Duration STABLE_WITHOUT_HEALTHCHECK = Duration.ofMillis(300);
    private static final Duration IDLE_RECHECK = Duration.ofMillis(500);
    /**
     * A task's state reaches the managers' store some time after the container event that caused
     * it (the dispatcher batches the agents' status reports, up to about 100 ms; more on a loaded
     * machine), and no event marks that moment: after an event the wait looks at once, then again
     * this often while the last event is less than {@link #SETTLING} old, instead of sleeping until
     * the next event or idle recheck (a missed state cost up to 500 ms).
     */
    private static final Duration SETTLING_RECHECK = Duration.ofMillis(40);
    private static final Duration SETTLING = Duration.ofMillis(400);
    /** How long after a stability window's end the wait looks again (the window is inclusive of its end). */
    private static final Duration WINDOW_END_SLACK = Duration.ofMillis(5);

    /**
     * One look at a stack: converged, still moving, or settled in a failure; {@code settling} names
     * each service that a rollout's look let pass while swarm still holds its update open (always
     * empty for a converged stack); {@code rolledBack} each service whose last update swarm rolled
     * back ({@code rollback_completed}, with swarm's message): settled, so it may be converged (spec
     * section 8), but on the update it was asked for, a failure ({@code Deployment.of}).
     */
    public record Report(boolean converged, boolean failed, List<String> problems, List<String> settling,
            List<String> rolledBack) {
        public Report(boolean converged, boolean failed, List<String> problems) {
            this(converged, failed, problems, List.of(), List.of());
        }

        /** Every service serves its current spec: converged, or only swarm's update monitor window is left. */
        public boolean rolledOut() {
            return converged || (!failed && problems.isEmpty());
        }

        public String describe() {
            return converged ? "converged" : !problems.isEmpty() ? String.join("; ", problems)
                    : "rolled out; " + String.join("; ", settling);
        }
    }

    private final DockerEngine docker;
    private final Clock clock;

    public SwarmConvergence(DockerEngine docker) {
        this(docker, Clock.systemUTC());
    }

    public SwarmConvergence(DockerEngine docker, Clock clock) {
        this.docker = docker;
        this.clock = clock;
    }

    /** Waits until the stack converges, fails for good, or {@code timeout} passes. */
    public Report await(String stack, Duration timeout) throws InterruptedException {
        return await(stack, timeout, false, null, null);
    }

    /**
     * {@link #await(String, Duration)}, and {@code onceStarted} is run once, on this thread, at the
     * first look that finds every service of the stack with its desired number of current-spec
     * tasks started (each task starting, its container's start begun, which it stays until its
     * healthcheck passes, or running), before their healthchecks pass and their stability windows
     * end; never if no look finds that. A first deploy's: a service swarm has ever updated (it keeps
     * an update status from then on) never counts as started.
     */
    public Report await(String stack, Duration timeout, Runnable onceStarted) throws InterruptedException {
        return await(stack, timeout, false, onceStarted, null);
    }

    /**
     * {@link #await(String, Duration, Runnable)}, and {@code onceOnlyWindows} is run once, on this
     * thread, at the first look that finds every service's tasks running and nothing left of the
     * convergence but their stability windows (no task failed before, nothing updating); never if
     * no look finds that (a stack converged at the first look, a healthcheck's wait). What it starts
     * overlaps the windows; the verdict is still this wait's, at their end.
     */
    public Report await(String stack, Duration timeout, Runnable onceStarted, Runnable onceOnlyWindows)
            throws InterruptedException {
        return await(stack, timeout, false, onceStarted, onceOnlyWindows);
    }

    /**
     * Waits until the stack is rolled out (see the class comment: converged, or only swarm's update
     * monitor window left of an update), fails for good, or {@code timeout} passes: what an
     * operation's checks may look at while {@link #await} waits out the window for the verdict.
     */
    public Report awaitRollout(String stack, Duration timeout) throws InterruptedException {
        return await(stack, timeout, true, null, null);
    }

    private Report await(String stack, Duration timeout, boolean rollout, Runnable onceStarted, Runnable onceOnlyWindows)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        LongWait waiting = LongWait.begin(LOG, "stack " + stack + (rollout ? " to roll out" : " to converge"), timeout);
        try (SwarmEvents events = SwarmEvents.subscribe(docker.client())) {
            StableAt stableAt = new StableAt();
            Report report = inspect(stack, stableAt, rollout);
            Runnable toRun = ranIf(stableAt.started, onceStarted);
            Runnable windowsToRun = ranIf(stableAt.onlyWindows, onceOnlyWindows);
            long lastEvent = System.nanoTime() - SETTLING.toNanos();
            while (!(rollout ? report.rolledOut() : report.converged()) && !report.failed() && System.nanoTime() < deadline) {
                // No event marks the end of a stability window, nor a task state reaching the store
                // after its container's event: the wait wakes at the window's end, and shortly after events.
                Duration idle = System.nanoTime() - lastEvent < SETTLING.toNanos() ? SETTLING_RECHECK : IDLE_RECHECK;
                if (events.await(stableAt.wait(clock.instant(), idle))) {
                    lastEvent = System.nanoTime();
                }
                stableAt = new StableAt();
                report = inspect(stack, stableAt, rollout);
                toRun = ranIf(stableAt.started, toRun);
                windowsToRun = ranIf(stableAt.onlyWindows, windowsToRun);
                waiting.tick(report::describe);
            }
            if (!(rollout ? report.rolledOut() : report.converged()) && !report.failed()) {
                List<String> problems = new ArrayList<>(report.problems());
                problems.add(0, "not converged within " + timeout.toSeconds() + " s");
                report = new Report(false, true, problems);
            }
            LOG.info("stack {}: {}", stack, report.describe());
            return report;
        }
    }

    /** Runs {@code once} if the look found what it waits for: what is left to run (nothing once it ran). */
    private static Runnable ranIf(boolean found, Runnable once) {
        if (once != null && found) {
            once.run();
            return null;
        }
        return once;
    }

    /** One inspection of every service of the stack. */
    public Report inspect(String stack) {
        return inspect(stack, new StableAt(), false);
    }

    /**
     * The earliest moment a service that only waits out its stability window gets past it (no
     * event marks it), null when none does; whether every service had its desired tasks started;
     * and whether nothing was left but plain stability windows (running tasks of services none of
     * whose tasks failed). One inspection's, on the waiting thread.
     */
    private static final class StableAt {
        private Instant earliest;
        private boolean started;
        private int plainWindows;
        private boolean onlyWindows;

        void windowEndsAt(Instant end) {
            if (earliest == null || end.isBefore(earliest)) {
                earliest = end;
            }
        }

        /** How long to wait for the next event: {@code idle}, or less if a window ends before (just after it ends). */
        Duration wait(Instant now, Duration idle) {
            if (earliest == null) {
                return idle;
            }
            Duration untilEnd = Duration.between(now, earliest).plus(WINDOW_END_SLACK);
            return untilEnd.isNegative() || untilEnd.isZero() ? WINDOW_END_SLACK : untilEnd.compareTo(idle) < 0 ? untilEnd : idle;
        }
    }

    /** One look; with {@code rollout}, a service updating whose current spec is all there and alone passes as settling. */
    private Report inspect(String stack, StableAt stableAt, boolean rollout) {
        List<Service> services = docker.client().listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec();
        if (services.isEmpty()) {
            return new Report(false, false, List.of("stack " + stack + " has no services yet"));
        }
        // one task list for the whole stack, not one per service
        Map<String, List<JsonNode>> tasks = currentSpecTasks(services.stream().map(Service::getId).toList());
        List<String> problems = new ArrayList<>();
        List<String> settling = new ArrayList<>();
        List<String> rolledBack = new ArrayList<>();
        boolean failed = false;
        boolean started = true;
        for (Service service : services) {
            String name = service.getSpec().getName();
            ServiceUpdateState update = service.getUpdateStatus() == null ? null : service.getUpdateStatus().getState();
            if (update == ServiceUpdateState.ROLLBACK_COMPLETED) {
                rolledBack.add(name + ": swarm rolled its update back (" + service.getUpdateStatus().getMessage() + ")");
            }
            List<JsonNode> current = tasks.getOrDefault(service.getId(), List.of());
            started &= update == null && current.stream().filter(t -> "running".equals(t.path("DesiredState").asText())
                    && STARTED.contains(state(t))).count() >= desired(service.getSpec().getMode());
            if (update == ServiceUpdateState.PAUSED || update == ServiceUpdateState.ROLLBACK_PAUSED) {
                failed = true;
                problems.add(name + ": update " + update.name().toLowerCase() + ": " + service.getUpdateStatus().getMessage());
                continue;
            }
            if (update == ServiceUpdateState.ROLLBACK_STARTED || (update == ServiceUpdateState.UPDATING && !rollout)) {
                problems.add(name + ": " + update.name().toLowerCase());
                continue;
            }
            // only a service that was ever updated (swarm keeps an update status from then on) has older tasks
            Optional<String> problem = serviceProblem(service, current, stableAt)
                    .or(() -> update == null ? Optional.empty() : olderTaskActive(service, current));
            if (update == ServiceUpdateState.UPDATING) {
                problem.ifPresentOrElse(p -> problems.add(name + ": updating: " + p.substring(name.length() + 2)),
                        () -> settling.add(name + ": updating, its new tasks serving (swarm's update monitor window)"));
            } else {
                problem.ifPresent(problems::add);
            }
        }
        stableAt.started = started;
        stableAt.onlyWindows = started && !failed && settling.isEmpty() && !problems.isEmpty()
                && problems.size() == stableAt.plainWindows;
        return new Report(problems.isEmpty() && settling.isEmpty(), failed, problems, settling, rolledBack);
    }

    /** Task states whose container has started: a task with a healthcheck is starting until it passes. */
    private static final List<String> STARTED = List.of("starting", "running");

    /** Task states from which a task runs no more (swarm's terminal states). */
    private static final List<String> ENDED = List.of("complete", "shutdown", "failed", "rejected", "remove", "orphaned");

    /**
     * A task of the service's older specs that still runs, or is on its way to run, if any: a
     * start-first update keeps the old task running until the new one runs, and a probe or an exec
     * could meet either. {@code current}: the current-spec tasks, which are left out.
     */
    private Optional<String> olderTaskActive(Service service, List<JsonNode> current) {
        List<String> currentIds = current.stream().map(t -> t.path("ID").asText()).toList();
        return allTasks(service.getId()).stream()
                .filter(t -> !currentIds.contains(t.path("ID").asText()) && !ENDED.contains(state(t)))
                .findFirst()
                .map(t -> service.getSpec().getName() + ": a task of its older spec is still " + state(t));
    }

    private Optional<String> serviceProblem(Service service, List<JsonNode> tasks, StableAt stableAt) {
        String name = service.getSpec().getName();
        List<JsonNode> running = tasks.stream()
                .filter(t -> "running".equals(t.path("DesiredState").asText()) && "running".equals(state(t)))
                .toList();
        long desired = desired(service.getSpec().getMode());
        Optional<String> lastError = tasks.stream()
                .filter(t -> !t.path("Status").path("Err").asText().isBlank())
                .max(Comparator.comparing(SwarmConvergence::timestamp))
                .map(t -> t.path("Status").path("Err").asText());
        if (running.size() < desired) {
            return Optional.of(name + ": " + running.size() + "/" + desired + " running"
                    + lastError.map(e -> " (last task error: " + e + ")").orElseGet(() -> onTheirWay(tasks)));
        }
        boolean hasFailed = tasks.stream().anyMatch(t -> List.of("failed", "rejected").contains(state(t)));
        Duration window = hasFailed ? monitor(service)
                : hasHealthcheck(service) ? Duration.ZERO : STABLE_WITHOUT_HEALTHCHECK;
        Instant now = clock.instant();
        if (!running.stream().allMatch(t -> !timestamp(t).plus(window).isAfter(now))) {
            running.stream().map(t -> timestamp(t).plus(window)).max(Comparator.naturalOrder()).ifPresent(stableAt::windowEndsAt);
            if (!hasFailed) {
                stableAt.plainWindows++;
            }
            return Optional.of(name + ": running for less than the " + window.toMillis() + " ms stability window"
                    + (hasFailed ? " (tasks failed before)" : "") + lastError.map(e -> " (last task error: " + e + ")").orElse(""));
        }
        return Optional.empty();
    }

    /** Tasks of the service's current spec only (what the CLI's {@code _up-to-date} filter selects). */
    List<JsonNode> currentSpecTasks(String serviceId) {
        return currentSpecTasks(List.of(serviceId)).getOrDefault(serviceId, List.of());
    }

    /**
     * The current-spec tasks of {@code serviceIds}, by service id, in one request (the engine's
     * {@code service} filter takes several values, any of which a task may match).
     */
    private Map<String, List<JsonNode>> currentSpecTasks(List<String> serviceIds) {
        return tasks(serviceIds, true);
    }

    /** Every task of the service swarm still keeps, of any spec. */
    private List<JsonNode> allTasks(String serviceId) {
        return tasks(List.of(serviceId), false).getOrDefault(serviceId, List.of());
    }

    private Map<String, List<JsonNode>> tasks(List<String> serviceIds, boolean currentSpecOnly) {
        com.fasterxml.jackson.databind.node.ObjectNode filters = JSON.createObjectNode();
        serviceIds.forEach(filters.putArray("service")::add);
        if (currentSpecOnly) {
            filters.putArray("_up-to-date").add("true");
        }
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/tasks?filters=" + URLEncoder.encode(filters.toString(), StandardCharsets.UTF_8))
                .build();
        try (DockerHttpClient.Response response = docker.http().execute(request)) {
            JsonNode tasks = JSON.readTree(response.getBody());
            if (response.getStatusCode() != 200 || !tasks.isArray()) {
                throw new IOException("listing tasks of services " + serviceIds + " failed: HTTP " + response.getStatusCode());
            }
            return StreamSupport.stream(tasks.spliterator(), false)
                    .filter(t -> serviceIds.contains(t.path("ServiceID").asText()))
                    .collect(Collectors.groupingBy(t -> t.path("ServiceID").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long desired(ServiceModeConfig mode) {
        if (mode != null && mode.getReplicated() != null) {
            return mode.getReplicated().getReplicas();
        }
        return docker.client().listSwarmNodesCmd().exec().size();
    }

    private static Duration monitor(Service service) {
        if (service.getSpec().getUpdateConfig() != null && service.getSpec().getUpdateConfig().getMonitor() != null
                && service.getSpec().getUpdateConfig().getMonitor() > 0) {
            return Duration.ofNanos(service.getSpec().getUpdateConfig().getMonitor());
        }
        return DEFAULT_MONITOR;
    }

    private static boolean hasHealthcheck(Service service) {
        var container = service.getSpec().getTaskTemplate() == null ? null
                : service.getSpec().getTaskTemplate().getContainerSpec();
        var test = container == null || container.getHealthCheck() == null ? null : container.getHealthCheck().getTest();
        return test != null && !test.isEmpty() && !test.get(0).equals("NONE");
    }

    /**
     * Without a task error, where the tasks meant to run are ({@code  (1 task starting)}, {@code  (no task
     * yet)}): a deploy that timed out with its task still starting is slow on this host, not crashing.
     */
    private static String onTheirWay(List<JsonNode> tasks) {
        Map<String, Long> states = tasks.stream()
                .filter(t -> "running".equals(t.path("DesiredState").asText()) && !"running".equals(state(t)))
                .collect(Collectors.groupingBy(SwarmConvergence::state, TreeMap::new, Collectors.counting()));
        if (states.isEmpty()) {
            return tasks.isEmpty() ? " (no task yet)" : "";
        }
        return states.entrySet().stream().map(e -> e.getValue() + (e.getValue() == 1 ? " task " : " tasks ") + e.getKey())
                .collect(Collectors.joining(", ", " (", ")"));
    }

    private static String state(JsonNode task) {
        return task.path("Status").path("State").asText();
    }

    private static Instant timestamp(JsonNode task) {
        String ts = task.path("Status").path("Timestamp").asText();
        return ts.isEmpty() ? Instant.EPOCH : Instant.parse(ts);
    }
}
