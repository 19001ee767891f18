package net.commoninternet.ccci.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.LockFile;
import org.apache.commons.io.FileUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of ccci's flock operations on a real file system (tmpfs /run/lock, as in
 * production). Targets (issue 4): one probe under 20 microseconds; the tidy sweep of 1,000
 * stale lockfiles under 100 ms.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LockBenchmark {

    private static final String DOMAIN = "bnch-0a0a0a.ci.commoninternet.net";

    private Path dir;
    private Janitor janitor;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of("/run/lock"), "ccci-bench-");
        janitor = new Janitor(dir, Duration.ofHours(2), domain -> { });
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        FileUtils.deleteDirectory(dir.toFile());
    }

    /** open + flock(LOCK_EX|LOCK_NB) + fstat/lstat identity + close: one janitor probe, or one acquire and release. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public boolean probeOneLockfile() throws IOException {
        try (LockFile file = LockFile.open(AppDomainLock.path(dir, DOMAIN))) {
            return file.tryLock() && file.isStillAtPath();
        }
    }

    /** 1,000 unheld lockfiles with no app behind them, tidied (probed and unlinked) in one sweep. */
    @State(Scope.Thread)
    public static class StaleLockfiles {
        Path dir;
        Janitor janitor;

        @Setup(Level.Invocation)
        public void plant() throws IOException {
            dir = Files.createTempDirectory(Path.of("/run/lock"), "ccci-bench-tidy-");
            for (int i = 0; i < 1000; i++) {
                Files.createFile(AppDomainLock.path(dir, String.format("bnch-%06x.ci.commoninternet.net", i)));
            }
            janitor = new Janitor(dir, Duration.ofHours(2), domain -> { });
        }

        @TearDown(Level.Invocation)
        public void remove() throws IOException {
            FileUtils.deleteDirectory(dir.toFile());
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Measurement(iterations = 20)
    @Warmup(iterations = 5)
    public Map<String, Janitor.Outcome> tidySweepOf1000StaleLockfiles(StaleLockfiles state) {
        Map<String, Janitor.Outcome> outcomes = state.janitor.sweep(Set.of());
        if (outcomes.size() != 1000) {
            throw new IllegalStateException("expected 1000 tidied, got " + outcomes.size());
        }
        return outcomes;
    }
}
