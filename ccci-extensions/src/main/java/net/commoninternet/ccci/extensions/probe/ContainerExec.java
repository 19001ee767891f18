package net.commoninternet.ccci.extensions.probe;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import net.commoninternet.ccci.extensions.children.CappedOutput;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.docker.EngineStream;
import net.commoninternet.ccci.extensions.docker.SwarmNodes;
import net.commoninternet.ccci.extensions.waits.LongWait;
import org.apiguardian.api.API;

/**
 * {@code sh -c} inside a service's running container: hooks, markers, probes of app state. Bounded
 * like a child process of the run: its output is capped ({@link CappedOutput}, the same bound as
 * {@link ChildProcesses}) and the wait for its end lasts at most {@link #TIMEOUT}. The engine has
 * no call to kill an exec: one that overruns goes on inside the container until the container
 * goes (the teardown), while the run goes on without it.
 *
 * <p>The first command in a container execs a shell of ccci's there ({@link AttachedShell#exec}),
 * which must answer a first line of its own ({@code true}) before any command goes to it: a
 * container that has no {@code sh}, or refuses the exec, never gets a command half-run by a shell
 * that died under it. Then each command is a line to it, 13-18 ms under gVisor where an exec of its
 * own costs 80-90 ms. A script of several lines, a command in a container whose shell did not
 * answer, or one after the shell broke (a command that outlived its bound, the container gone), is
 * an exec of its own, as before.
 */
@API(status = API.Status.INTERNAL)
public final class ContainerExec implements AutoCloseable {

    /** What the command left: its exit status and merged output. */
    public record Result(long exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ContainerExec.class);
    static final Duration TIMEOUT = Duration.ofMinutes(15);
    private static final Duration EXIT_RECORDED = Duration.ofSeconds(2);

    private final DockerClient client;
    /** The engine of the node each container {@link #runningContainer} found runs on. */
    private final Map<String, DockerClient> placed = new ConcurrentHashMap<>();
    /** The shell of ccci's exec'd in each container a command ran in, while it serves; empty: it did not answer. */
    private final Map<String, Optional<AttachedShell>> shells = new ConcurrentHashMap<>();
    /** How long a new shell has to answer its first line. */
    private static final Duration SHELL_ANSWERS = Duration.ofSeconds(10);

    /** {@code text} as one single-quoted word of {@code sh}: nothing in it is expanded (a quote inside as {@code '\''}). */
    public static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** @param client the run's engine (a manager): it lists the tasks; execs go to the engine of the task's node */
    public ContainerExec(DockerClient client) {
        this.client = client;
    }

    /**
     * A running container of the service, on whichever node of the swarm its task runs (the
     * manager's task list says which; {@link SwarmNodes} reaches that node's engine), or an error
     * naming the service, or the node ccci cannot reach.
     */
    public String runningContainer(String service) {
        // as a JSON tree (docker-java's typed task model costs a cold JVM tens of ms at a run's first exec)
        com.fasterxml.jackson.databind.JsonNode tasks = EngineLists.get(EngineLists.http(client), "/tasks",
                Map.of("service", List.of(service), "desired-state", List.of("running")));
        String unreachable = null;
        for (com.fasterxml.jackson.databind.JsonNode task : tasks) {
            String container = task.path("Status").path("ContainerStatus").path("ContainerID").asText("");
            String nodeId = task.path("NodeID").asText("");
            if (container.isEmpty() || !"running".equals(task.path("Status").path("State").asText()) || nodeId.isEmpty()) {
                continue;
            }
            SwarmNodes.Node node = SwarmNodes.node(client, nodeId);
            if (node.engine().isPresent()) {
                placed.put(container, node.engine().get());
                return container;
            }
            unreachable = "the running task of " + service + " is on node " + node.name() + ", which ccci cannot reach: "
                    + node.unreachable();
        }
        if (unreachable != null) {
            throw new IllegalStateException(unreachable);
        }
        // Not a swarm task as far as the manager knows yet (its status lags the container): this engine's own.
        List<Container> containers = client.listContainersCmd()
                .withLabelFilter(Map.of("com.docker.swarm.service.name", service))
                .withStatusFilter(List.of("running")).exec();
        if (containers.isEmpty()) {
            throw new IllegalStateException("no running container of " + service);
        }
        return containers.get(0).getId();
    }

    /** The container's shell, exec'd at its first command; empty if it did not answer its first line (then never again). */
    private synchronized Optional<AttachedShell> shell(DockerClient engine, String container) throws InterruptedException {
        Optional<AttachedShell> known = shells.get(container);
        if (known != null) {
            return known;
        }
        Optional<AttachedShell> opened;
        try {
            AttachedShell shell = AttachedShell.exec(engine, container);
            Optional<ProbeContainer.Ran> first = shell.run(List.of("true"), LongWait.begin(LOG, "a shell in container "
                    + container.substring(0, Math.min(12, container.length())), SHELL_ANSWERS), false);
            opened = first.isPresent() && first.get().ok() ? Optional.of(shell) : Optional.empty();
            if (opened.isEmpty()) {
                shell.close();
            }
        } catch (RuntimeException e) {
            opened = Optional.empty(); // the engine refused the exec: the command's own exec says why
        }
        shells.put(container, opened);
        return opened;
    }

    /** No command after this goes through a shell: each shell's stdin is closed, and it ends. */
    @Override
    public void close() {
        shells.values().forEach(s -> s.ifPresent(AttachedShell::close));
        shells.clear();
    }

    /** The engine of the node {@code container} runs on, as {@link #runningContainer} found it (else the run's own). */
    public DockerClient engineOf(String container) {
        return placed.getOrDefault(container, client);
    }

    public Result sh(String container, String script) throws InterruptedException {
        return sh(container, script, TIMEOUT).orElseThrow(() -> new IllegalStateException("sh -c in container " + container
                + " did not finish within " + TIMEOUT.toMinutes() + " min; the run goes on without it (it ends with the container)"));
    }

    /** {@code sh -c script} in the container, awaited for {@code bound} at most: empty if it had not ended by then. */
    public Optional<Result> sh(String container, String script, Duration bound) throws InterruptedException {
        return sh(container, script, LongWait.begin(LOG, "sh -c in container " + container.substring(0, Math.min(12,
                container.length())), bound));
    }

    /**
     * {@code sh -c script} in the container for at most {@code wait}'s bound, saying every
     * {@link LongWait#EVERY} that it still waits (a recipe's backup hook says whose it is): empty if
     * it had not ended by then.
     */
    public Optional<Result> sh(String container, String script, LongWait wait) throws InterruptedException {
        DockerClient client = placed.getOrDefault(container, this.client);
        List<String> command = List.of("sh", "-c", script);
        Optional<AttachedShell> shell = AttachedShell.fits(command) ? shell(client, container) : Optional.empty();
        if (shell.isPresent()) {
            Optional<ProbeContainer.Ran> ran = shell.get().run(command, wait, true);
            if (ran.isPresent()) {
                if (ran.get().exit() == null) {
                    shells.remove(container); // it outlived its bound there: a later command gets a shell of its own
                    return Optional.empty();
                }
                return Optional.of(new Result(ran.get().exit(), ran.get().stdout().strip()));
            }
            shells.remove(container); // broken before the command went: an exec of its own, and a new shell next time
        }
        CappedOutput output = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        Long exit = run(client, container, command, wait,
                frame -> output.append(frame.getPayload(), frame.getPayload().length));
        return exit == null ? Optional.empty() : Optional.of(new Result(exit, output.text().strip()));
    }

    /**
     * Runs {@code command} in {@code container}, handing each frame of its output (stdout and
     * stderr apart: no terminal) to {@code frames}; its exit status, or null if it did not end
     * within {@code wait}'s bound (it goes on in the container; the stream is closed either way).
     * A long one says every {@link LongWait#EVERY} that it is still waited for.
     */
    static Long run(DockerClient client, String container, List<String> command, LongWait wait,
            Consumer<Frame> frames) throws InterruptedException {
        String exec = client.execCreateCmd(container).withCmd(command.toArray(String[]::new))
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        EngineStream<Frame> stream = client.execStartCmd(exec).exec(new EngineStream<Frame>() {
            @Override
            public void onNext(Frame frame) {
                frames.accept(frame);
            }
        });
        try {
            if (!stream.awaitEnd(wait)) {
                return null;
            }
        } finally {
            stream.closeQuietly();
        }
        return exitOf(client, exec);
    }

    /**
     * The exit status of {@code container} on {@code engine} (a container ccci started, restic's
     * say), or null if it was still running at the end of {@code wait}'s bound; a long wait says
     * every {@link LongWait#EVERY} that it goes on.
     */
    public static Long awaitExit(DockerClient engine, String container, LongWait wait) throws InterruptedException {
        AtomicReference<Long> status = new AtomicReference<>();
        EngineStream<com.github.dockerjava.api.model.WaitResponse> stream = engine.waitContainerCmd(container)
                .exec(new EngineStream<com.github.dockerjava.api.model.WaitResponse>() {
                    @Override
                    public void onNext(com.github.dockerjava.api.model.WaitResponse response) {
                        if (response.getStatusCode() != null) {
                            status.set(response.getStatusCode().longValue());
                        }
                    }
                });
        try {
            return stream.awaitEnd(wait) ? status.get() : null;
        } finally {
            stream.closeQuietly();
        }
    }

    /**
     * The exec's exit status once the engine recorded it: its output stream can end (the process
     * closed its stdout and stderr) a moment before its exit is recorded; -1 if that takes longer
     * than {@link #EXIT_RECORDED}.
     */
    private static long exitOf(DockerClient client, String exec) throws InterruptedException {
        long deadline = System.nanoTime() + EXIT_RECORDED.toNanos();
        while (true) {
            com.github.dockerjava.api.command.InspectExecResponse inspected = client.inspectExecCmd(exec).exec();
            Long exit = inspected.getExitCodeLong();
            if (exit != null && !Boolean.TRUE.equals(inspected.isRunning())) {
                return exit;
            }
            if (System.nanoTime() >= deadline) {
                return -1L;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }
}
