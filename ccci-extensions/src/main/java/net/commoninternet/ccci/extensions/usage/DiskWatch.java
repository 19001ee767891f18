package net.commoninternet.ccci.extensions.usage;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.waits.Waits;
import net.commoninternet.ccci.lifecycle.RunBudget;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's disk, watched while it runs: the engine's local volumes have no quota and a container
 * writes as fast as the disk takes it (a busybox {@code dd} into a volume: about 300 MB/s under gVisor
 * here), and {@code /var/lib/docker} is the root file system every run, warm app and the engine
 * itself need. So a thread of the run's measures, on this host's file system, the bytes its stack's
 * volumes, writable layers and logs hold ({@link RunFiles}, {@link DiskUsage}), and the first time
 * they are more than the run's share ({@code ccci.budget.disk}) it pauses every container of the stack
 * (their writes end at once, and swarm starts none in their place) and stops the run with one
 * sentence naming the share and what holds the bytes: the run's teardown removes them, and the run
 * fails.
 *
 * <p>How close it stops: it looks again sooner as the bytes near the share (half the time the last
 * rate leaves until the share is reached, at least every {@link #FASTEST}, at most every
 * {@link #SLOWEST}), and never spends more than a tenth of a core measuring (its thread's CPU time,
 * not the engine's answers, which a container's start can hold for a second). What a writer adds
 * between the last look and the pause is the overshoot (measured: docs/security.md).
 *
 * <p>Resource: the run's bytes on the host; invariant: a run never holds more than its share for
 * longer than one look and a pause; scope: this host's file system (a node on another machine is
 * said, not counted). The watch acts once: after it stopped the run it ends.
 */
@API(status = API.Status.INTERNAL)
public final class DiskWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DiskWatch.class);
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    static final Duration FASTEST = Duration.ofMillis(50);
    static final Duration SLOWEST = Duration.ofSeconds(1);
    /** The most of a holder list the sentence names. */
    private static final int NAMED = 5;

    private final RunFiles files;
    private final String stack;
    private final long budget;
    private final Consumer<String> stop;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile long peak;

    /**
     * @param manager the run's engine (a manager: it finds the other nodes)
     * @param budget the bytes the run may hold ({@code ccci.budget.disk})
     * @param stop stops the run with the sentence (its guards' stop of this run alone)
     */
    public DiskWatch(DockerClient manager, String stack, long budget, Consumer<String> stop) {
        this.files = new RunFiles(manager, stack);
        this.stack = stack;
        this.budget = budget;
        this.stop = stop;
    }

    /** The watch itself, on a thread of the run's: until {@link #close}, or until the run crossed its share. */
    public void watch() {
        LOG.info("the disk of {} is watched: its volumes, writable layers and logs may hold {} (ccci.budget.disk)", stack,
                RunBudget.shown(budget));
        try {
            long lastUsed = 0;
            long lastAt = System.nanoTime();
            long wait = 0;
            boolean failing = false;
            while (!closed.await(wait, TimeUnit.NANOSECONDS)) {
                long cpu = CPU.getCurrentThreadCpuTime();
                Map<Path, Long> held;
                try {
                    held = measure();
                    failing = false;
                } catch (IOException | RuntimeException e) {
                    if (!failing) {
                        LOG.warn("the disk of {} could not be measured this time ({}); measuring again", stack, e.toString());
                    }
                    failing = true;
                    wait = SLOWEST.toNanos();
                    continue;
                }
                long used = held.values().stream().mapToLong(Long::longValue).sum();
                peak = Math.max(peak, used);
                if (used > budget) {
                    crossed(used, held);
                    return;
                }
                long now = System.nanoTime();
                // the CPU the look took, not its wall time: an engine slow to answer (a container starting)
                // costs the host nothing, and a second's wait there must not stretch the next look tenfold
                wait = next(budget - used, used - lastUsed, now - lastAt, CPU.getCurrentThreadCpuTime() - cpu);
                lastUsed = used;
                lastAt = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended.complete(null);
        }
    }

    /**
     * Nanoseconds until the next look: half the time the last rate ({@code grew} bytes in
     * {@code over} ns) leaves until the {@code headroom} is gone, from {@link #FASTEST} to
     * {@link #SLOWEST}, and at least ten times the CPU the look cost.
     */
    static long next(long headroom, long grew, long over, long cost) {
        long wait = SLOWEST.toNanos();
        if (grew > 0 && over > 0) {
            wait = Math.min(wait, (long) (headroom / (grew / (double) over) / 2));
        }
        return Math.max(Math.max(wait, FASTEST.toNanos()), 10 * cost);
    }

    /** Bytes each place of the stack holds now. */
    private Map<Path, Long> measure() throws IOException {
        Map<Path, Long> held = new LinkedHashMap<>();
        for (Path path : files.places().keySet()) {
            held.put(path, DiskUsage.allocated(path));
        }
        return held;
    }

    private void crossed(long used, Map<Path, Long> held) {
        files.pause();
        Map<Path, RunFiles.Place> places = files.places();
        String holders = held.entrySet().stream().sorted(Map.Entry.<Path, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(NAMED).map(e -> (places.containsKey(e.getKey()) ? places.get(e.getKey()).what() : e.getKey().toString())
                        + " " + RunBudget.shown(e.getValue())).collect(Collectors.joining(", "));
        stop.accept("the volumes and containers of " + stack + " hold " + RunBudget.shown(used) + " of this host's disk,"
                + " more than one run's share (" + RunBudget.shown(budget) + ", ccci.budget.disk): " + holders
                + (held.size() > NAMED ? " and " + (held.size() - NAMED) + " more" : "") + "; its containers were paused and"
                + " the run is torn down: keep the app's data within the share, or ask this host's operator for a larger one"
                + " (-Dccci.budget.disk)");
    }

    /** The most the run's places held at one look. */
    public long peak() {
        return peak;
    }

    /** Ends the watch and awaits its last look (a few seconds at most); an interrupt is kept for afterwards. */
    @Override
    public void close() {
        closed.countDown();
        if (!Waits.awaitEnd(ended, Duration.ofSeconds(10))) {
            LOG.warn("the disk watch of {} is still measuring; left to end on its own", stack);
        }
        LOG.info("the disk of {}: at most {} of its share of {} at one look", stack, RunBudget.shown(peak),
                RunBudget.shown(budget));
    }
}
