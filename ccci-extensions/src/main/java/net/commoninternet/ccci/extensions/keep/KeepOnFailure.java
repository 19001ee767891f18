package net.commoninternet.ccci.extensions.keep;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import jnr.constants.platform.OpenFlags;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import jnr.posix.SpawnFileAction;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.lock.RunIdLock;
import org.apache.commons.io.file.PathUtils;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failed run hands its app to a {@link Keeper} instead of tearing it down ({@code ccci.keep-on-failure}).
 *
 * <p>Resource: the app domain's flock (and lease). Invariant: at every moment exactly one live process
 * owns the app, the run or its keeper, and the janitor sees the lock held throughout; a stop of the
 * command before the hand-over commits, or a keeper that never says it holds the app, leaves the run
 * tearing down as always (nothing left). Scope: the host (the flock, the processes) and the swarm (the
 * lease). Linearization point: {@link LifetimeGuards#alsoOnStop}, under the command's monitor: before it
 * a stop wins (the keeper is killed, the run tears down), after it the keep is committed and a stop ends
 * it (the keeper gets SIGTERM and tears down).
 *
 * <p>The flock itself is handed, never re-acquired: the keeper is spawned ({@code posix_spawnp}) with the
 * run's locked descriptor duplicated to its descriptor 3, the same open file description, hence the same
 * lock; the run then only closes its own descriptor (never {@code LOCK_UN}). A re-open of the path would be
 * a new description, whose flock would conflict with the run's. The keeper runs in a session of its own
 * ({@code setsid}), so the step's end, the wrapper's wait for its process group and a group SIGKILL do not
 * take it, from a copy of the class path in the keep's folder (the checkout may be deleted), with every
 * other descriptor closed before it starts. The run's own lock ({@link RunIdLock}, its folder's) goes to
 * the keeper the same way, at descriptor 4: the keep's folder, its report and its logs are in the run's
 * folder, and a run given the same id refuses until the keep ends, instead of rewriting them under it.
 */
@API(status = API.Status.INTERNAL)
public final class KeepOnFailure {

    private static final Logger LOG = LoggerFactory.getLogger(KeepOnFailure.class);
    private static final POSIX POSIX = POSIXFactory.getNativePOSIX();

    /** The keeper's descriptor for the inherited lock. */
    static final int LOCK_FD = 3;
    /** The keeper's descriptor for the run's own lock ({@link RunIdLock}): held, never looked at, until it exits. */
    static final int RUN_LOCK_FD = 4;
    private static final int SIGTERM = 15;
    private static final int SIGKILL = 9;
    private static final Duration HOLDING_WITHIN = Duration.ofSeconds(60);

    /**
     * A test seam of the host's test instrumentation ({@code CCCI_TEST_*}, never a recipe's): with it naming
     * a path, the hand-over parks after the keeper said {@code holding} and before it commits, until that
     * path exists.
     */
    static final String TEST_GATE = "CCCI_TEST_KEEP_GATE";

    /** Closes every descriptor above 4, goes to the keep's folder (never the checkout), then a session of its own. */
    private static final String START = "cd \"$1\" || exit 1; shift; for f in /proc/$$/fd/*; do n=${f##*/};"
            + " case $n in 0|1|2|3|4) ;; *) eval \"exec $n>&-\" 2>/dev/null ;; esac; done; exec /usr/bin/setsid \"$@\"";

    /** What a hand-over needs: whose app, how long, its claim, the app itself, the run's guards. */
    public record Request(Place place, Times times, DomainClaim claim, App app, LifetimeGuards guards) {
        String domain() {
            return place.domain();
        }
    }

    /** The run's domain, id, lock folder and run folder (the keep's folder is {@code keep/} in it). */
    public record Place(String domain, String runId, Path lockDir, Path runDir) {
    }

    /** How long the app is kept; the lease's times (the keeper renews it as the run did). */
    public record Times(Duration keep, Duration leaseTtl, Duration leaseHeartbeat) {
    }

    /**
     * The kept app: its engine, the canonical {@code servers/} of its env file, and the run's secret values,
     * handed to the keeper in memory to mask its shell's output.
     */
    public record App(String dockerHost, Path servers, Collection<String> secrets) {
    }

    /** A keep under way: its keeper, its deadline and its two commands. */
    public record Kept(long pid, Instant until, Path folder) {
        /** Through {@code sh}: the run's folder is made private at its end, its files' modes included. */
        public String shellCommand() {
            return "sh " + folder.resolve(KeeperFiles.SHELL) + " app";
        }

        public String endCommand() {
            return "sh " + folder.resolve(KeeperFiles.END);
        }

        /** What the RUN SUMMARY and summary.md say of it. */
        public List<String> lines() {
            return List.of("kept until " + until + " (keeper pid " + pid + "), then torn down;",
                    "a shell in it: " + shellCommand(), "end the keep now: " + endCommand());
        }
    }

    private KeepOnFailure() {
    }

    /**
     * Hands the app over; empty if it was not (the caller tears it down itself, as always, and nothing of
     * a keeper is left). Never throws.
     */
    public static Optional<Kept> handOver(Request r) {
        Path folder = r.place().runDir().resolve("keep");
        Optional<Kept> kept = Optional.empty();
        try {
            kept = attempt(r, folder);
        } catch (Exception | Error e) {
            LOG.warn("!! keep of {}: the hand-over failed ({}) — the run tears the app down itself !!", r.domain(), e.toString());
        }
        if (kept.isEmpty()) {
            try {
                PathUtils.deleteDirectory(folder);
            } catch (IOException e) {
                // what a failed hand-over wrote in the run's own folder: nothing of the app
            }
        }
        return kept;
    }

    private static Optional<Kept> attempt(Request r, Path folder) throws Exception {
        if (Files.exists(folder)) {
            PathUtils.deleteDirectory(folder);
        }
        Files.createDirectories(folder);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
        KeeperFiles.write(folder, r.domain());
        Path socket = folder.resolve(Keeper.HANDOVER_SOCKET);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            server.configureBlocking(false);
            long pid = spawn(r, folder);
            boolean committed = false;
            // the pid is signalled only while it is this keeper's: before it is reaped (a zombie keeps its pid)
            AtomicBoolean unreaped = new AtomicBoolean(true);
            try {
                SocketChannel channel = accept(server, pid, r.guards());
                if (channel == null) {
                    return Optional.empty();
                }
                channel.configureBlocking(true);
                BlockingQueue<String> lines = reader(channel);
                OutputStream toKeeper = new SocketOut(channel);
                String holding = lines.poll(HOLDING_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
                if (holding == null || !holding.startsWith("holding ")) {
                    LOG.warn("!! keep of {}: its keeper did not say it holds the lock ({}) — the run tears the app down"
                            + " itself; the keeper's log: {} !!", r.domain(), holding == null ? "no answer" : holding,
                            folder.resolve("keeper.log"));
                    return Optional.empty();
                }
                parkAtTestGate();
                // The commit: of a stop of the command and this, exactly one comes first.
                if (!r.guards().alsoOnStop(() -> endKeep(pid, unreaped))) {
                    LOG.warn("== keep of {}: the command was stopped during the hand-over — the run tears the app down"
                            + " itself ==", r.domain());
                    return Optional.empty();
                }
                committed = true;
                // The keeper takes the lease over at once (it holds the flock); this process writes no more of it.
                r.claim().handOverLease();
                StringBuilder keep = new StringBuilder("keep\n");
                for (String secret : r.app().secrets()) {
                    keep.append(Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8))).append('\n');
                }
                toKeeper.write(keep.append('\n').toString().getBytes(StandardCharsets.UTF_8));
                toKeeper.flush();
                String answer = lines.poll(r.times().leaseTtl().multipliedBy(2).plus(HOLDING_WITHIN).toMillis(), TimeUnit.MILLISECONDS);
                if (answer == null || !answer.startsWith("kept ")) {
                    LOG.warn("!! keep of {}: its keeper did not take the app over ({}) — the run tears it down itself;"
                            + " the keeper's log: {} !!", r.domain(), answer == null ? "no answer" : answer,
                            folder.resolve("keeper.log"));
                    committed = false;
                    return Optional.empty();
                }
                channel.close();
                Instant until = Instant.ofEpochMilli(Long.parseLong(answer.substring("kept ".length()).trim()));
                LOG.info("== keep of {}: the failed run's app is kept by its keeper (pid {}) until {}: the app lock and"
                        + " the lease are the keeper's now ==", r.domain(), pid, until);
                return Optional.of(new Kept(pid, until, folder));
            } finally {
                Files.deleteIfExists(socket);
                if (!committed) {
                    // the keeper never got the app: killed and reaped before the run's own teardown
                    synchronized (unreaped) {
                        unreaped.set(false);
                        POSIX.kill(pid, SIGKILL);
                    }
                    POSIX.waitpid(pid, new int[1], 0);
                }
            }
        }
    }

    /** A stop of the command after the hand-over: the keep ends too (nothing is left after a cancel). */
    private static void endKeep(long pid, AtomicBoolean unreaped) {
        synchronized (unreaped) {
            if (unreaped.get()) {
                LOG.warn("== the command was stopped: the keep ends too — its keeper (pid {}) tears the app down ==", pid);
                POSIX.kill(pid, SIGTERM);
            }
        }
    }

    /** The keeper, spawned with the run's locked descriptor at {@link #LOCK_FD}; its pid. */
    private static long spawn(Request r, Path folder) throws IOException {
        Path log = folder.resolve("keeper.log");
        List<SpawnFileAction> actions = new ArrayList<>(List.of(
                SpawnFileAction.open("/dev/null", 0, OpenFlags.O_RDONLY.intValue(), 0),
                SpawnFileAction.open(log.toString(), 1, OpenFlags.O_WRONLY.intValue() | OpenFlags.O_CREAT.intValue()
                        | OpenFlags.O_APPEND.intValue(), 0600),
                SpawnFileAction.dup(1, 2),
                SpawnFileAction.dup(r.claim().flockDescriptor(), LOCK_FD)));
        // the run's folder stays the failed run's while its app is kept: a run given its id refuses
        RunIdLock.descriptor(r.place().runDir()).ifPresent(fd -> actions.add(SpawnFileAction.dup(fd, RUN_LOCK_FD)));
        List<String> argv = new ArrayList<>(List.of("bash", "-c", START, "ccci-keeper", folder.toString(),
                KeeperFiles.java(), "@" + folder.resolve(KeeperFiles.ARGS), Keeper.class.getName(),
                "domain=" + r.domain(), "lock=" + r.claim().lockPath(), "fd=" + LOCK_FD, "lock-dir=" + r.place().lockDir(),
                "servers=" + r.app().servers(), "folder=" + folder, "seconds=" + r.times().keep().toSeconds(),
                "run=" + r.place().runId(), "docker-host=" + r.app().dockerHost(), "ttl=" + r.times().leaseTtl().toSeconds(),
                "heartbeat=" + r.times().leaseHeartbeat().toSeconds()));
        List<String> env = new ArrayList<>();
        for (Map.Entry<String, String> e : ChildEnvironment.inherited().entrySet()) {
            env.add(e.getKey() + "=" + e.getValue());
        }
        long pid = POSIX.posix_spawnp("/bin/bash", actions, argv, env);
        if (pid <= 0) {
            throw new IOException("the keeper could not be started: errno " + POSIX.errno());
        }
        return pid;
    }

    /** The keeper's connection, or null: it exited, it did not connect in time, or the command was stopped. */
    private static SocketChannel accept(ServerSocketChannel server, long pid, LifetimeGuards guards) throws IOException {
        long until = System.nanoTime() + HOLDING_WITHIN.toNanos();
        while (System.nanoTime() - until < 0 && !guards.stopRequested()) {
            SocketChannel channel = server.accept();
            if (channel != null) {
                return channel;
            }
            if (POSIX.waitpid(pid, new int[1], 1 /* WNOHANG */) == pid) {
                LOG.warn("!! keep: the keeper exited before it held the lock — the run tears the app down itself !!");
                return null;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return null;
    }

    /** The keeper's lines as they come; an end of stream is an empty line. */
    private static BlockingQueue<String> reader(SocketChannel channel) {
        BlockingQueue<String> lines = new ArrayBlockingQueue<>(16);
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.offer(line);
                }
            } catch (IOException closed) {
                // the end of the hand-over
            }
            lines.offer("");
        }, "ccci-keep-handover");
        t.setDaemon(true);
        t.start();
        return lines;
    }

    private static void parkAtTestGate() {
        String gate = ChildEnvironment.inherited().get(TEST_GATE);
        if (gate == null || gate.isBlank()) {
            return;
        }
        LOG.info("== keep: the hand-over is parked at the test gate {} ==", gate);
        while (!Files.exists(Path.of(gate))) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
