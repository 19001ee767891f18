package net.commoninternet.ccci.extensions.probe;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.StreamType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.commoninternet.ccci.extensions.children.CappedOutput;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.waits.Waits;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one container a stack's probes run in: started once on the run's attachable network (the
 * run's own, {@code RunNetwork}: what it reaches is what traefik would route to of the run's app and
 * nothing of another run's, on whichever node a task runs: {@code tasks.<service>} resolves to every
 * task's address on the overlay), each probe a line to
 * its shell ({@link AttachedShell}: a few milliseconds with the probe's own process, where an exec
 * costs 35-45 ms and a container per probe about half a second), and removed with the stack by
 * its teardown, which finds it by its {@link StackLabels#PROBE} label.
 *
 * <p>Resource: the probe container of one stack, on the runner's own engine. Invariant: it exists
 * only while its stack does, so a teardown that leaves nothing of the stack leaves no probe either.
 * Scope: this process starts it; the teardown of the stack, this run's or a janitor's, removes it.
 * How: it is started only once the stack is deployed, its start runs on a thread of its own (in
 * parallel with the convergence wait) and {@link HttpProbe#close} awaits every start before the
 * teardown lists what to remove. Linearization point: the engine's create of the labelled
 * container; from then on the stack's teardown sees it.
 */
@API(status = API.Status.INTERNAL)
public final class ProbeContainer {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeContainer.class);

    /** How long a probe container's create and start may take before the probe gives up on it. */
    private static final Duration START_LIMIT = Duration.ofMinutes(1);
    /** Starts tried while the engine says the overlay is not found (it instantiates it again at once). */
    private static final int START_ATTEMPTS = 5;

    /** What one command in the container left: its exit status (null: it did not end in time), stdout and stderr. */
    record Ran(Long exit, String stdout, String stderr) {
        boolean ok() {
            return exit != null && exit == 0;
        }
    }

    private final DockerClient client;
    private final String stack;
    private final String network;
    private final CompletableFuture<String> id;
    /** Attached at the first probe; guarded by this. */
    private AttachedShell shell;
    private int attaches;
    /** Attaches tried before probes go through an exec. */
    private static final int ATTACHES = 3;

    private ProbeContainer(DockerClient client, String stack, String network, CompletableFuture<String> id) {
        this.client = client;
        this.stack = stack;
        this.network = network;
        this.id = id;
    }

    /** Creates and starts the stack's probe container on {@code network}, on a thread of its own; probes wait for it. */
    static ProbeContainer start(DockerClient client, String image, String stack, String network) {
        CompletableFuture<String> id = new CompletableFuture<>();
        Thread starter = new Thread(() -> {
            try {
                id.complete(create(client, image, stack, network));
            } catch (RuntimeException | Error e) {
                id.completeExceptionally(e);
            }
        }, "ccci-probe-container-" + stack);
        starter.setDaemon(true);
        starter.start();
        return new ProbeContainer(client, stack, network, id);
    }

    private static String create(DockerClient client, String image, String stack, String network) {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        for (int attempt = 1; ; attempt++) {
            // PID 1 of its own namespace (the probe shell) ignores TERM; the teardown removes it with force (KILL).
            String created = client.createContainerCmd(image)
                    .withCmd(AttachedShell.COMMAND)
                    .withStdinOpen(true)
                    .withStdInOnce(false)
                    .withLabels(Map.of(StackLabels.PROBE, stack))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode(network))
                    .exec().getId();
            try {
                client.startContainerCmd(created).exec();
                return created;
            } catch (RuntimeException e) {
                // The engine drops its local instance of an overlay when the last container on it
                // leaves the node (another run's teardown on the shared proxy; the app's only task
                // here replaced, on the run's own); a start at that moment fails with "network <id>
                // not found" though the network is there (seen with several runs in parallel). The
                // next start instantiates it again.
                if (!overlayGoneForAMoment(e) || attempt >= START_ATTEMPTS || System.nanoTime() > deadline) {
                    throw e;
                }
                client.removeContainerCmd(created).withForce(true).exec();
                LOG.info("the engine refused to start the probe container of {} ({}): the {} network is being"
                        + " instantiated again; start {} of {} in {} ms", stack, DockerEngine.engineSays(e),
                        network, attempt + 1, START_ATTEMPTS, 100L * attempt);
                try {
                    TimeUnit.MILLISECONDS.sleep(100L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** The engine's "network ... not found" for an overlay it is instantiating again. */
    public static boolean overlayGoneForAMoment(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("network ") && message.contains(" not found");
    }

    /**
     * Runs {@code command} in the probe container, for at most {@code bound}; stdout and stderr
     * apart, each capped: a line to the container's attached shell ({@link AttachedShell}), or an exec
     * when the shell cannot take it.
     */
    Ran run(List<String> command, Duration bound) throws InterruptedException {
        String container = id();
        for (AttachedShell next = shell(container); AttachedShell.fits(command) && next != null; next = reattach(container, next)) {
            Optional<Ran> ran = next.run(command, bound);
            if (ran.isPresent()) {
                return ran.get();
            }
        }
        return exec(container, command, bound);
    }

    /** The container's shell, attached at the first probe. */
    private synchronized AttachedShell shell(String container) {
        if (shell == null) {
            shell = AttachedShell.attach(client, container);
            attaches++;
        }
        return shell;
    }

    /**
     * A new attach when {@code ended}'s stream ended before its first command came back (seen when
     * the attach met the container's start, or the engine's overlay race), at most {@link
     * #ATTACHES} in all; null: probes go through an exec from here on.
     */
    private synchronized AttachedShell reattach(String container, AttachedShell ended) {
        if (shell != ended || attaches >= ATTACHES || !ended.endedUnused()) {
            return null;
        }
        shell = AttachedShell.attach(client, container);
        attaches++;
        return shell;
    }

    /** No probe goes through the shell any more: its attach stream is closed (before the teardown, so none is cut by it). */
    synchronized void closeShell() {
        if (shell != null) {
            shell.close();
        }
    }

    /** {@code command} as an exec of its own: tens of milliseconds. */
    Ran exec(String container, List<String> command, Duration bound) throws InterruptedException {
        CappedOutput out = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        CappedOutput err = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        Long exit = ContainerExec.run(client, container, command,
                net.commoninternet.ccci.extensions.waits.LongWait.begin(LOG, "a probe of " + stack, bound), (Frame frame) ->
                (frame.getStreamType() == StreamType.STDOUT ? out : err).append(frame.getPayload(), frame.getPayload().length));
        return new Ran(exit, out.text(), err.text());
    }

    /** The running container's id, once its start is over; its failure as one sentence. */
    private String id() throws InterruptedException {
        try {
            return id.get(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the probe container of " + stack + " on the " + network
                    + " network could not be started: " + DockerEngine.engineSays(e.getCause() instanceof RuntimeException r
                    ? r : new IllegalStateException(e.getCause())), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the probe container of " + stack + " did not start within "
                    + START_LIMIT.toSeconds() + " s");
        }
    }

    /** Waits (bounded) until the start is over, however it ended: from then on the stack's teardown sees the container. */
    void awaitStart() {
        Waits.awaitEnd(id, START_LIMIT);
    }
}
