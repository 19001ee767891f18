package net.commoninternet.ccci.extensions.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.RealProcesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Children that cannot wedge a run, with real processes: a grandchild that outlives its parent
 * (reparented, so no longer a descendant), that ignores SIGTERM and that holds the output pipe;
 * a child that overruns its timeout; a stop from another thread (the lifetime guards' kill); a
 * child that prints far more than a run may keep. Each call runs on a thread of the test and is
 * given a bound: a call that does not return within it is the wedge this class exists to prevent.
 */
@RealProcesses
class ChildProcessesTest {

    /** Far beyond what each call needs (milliseconds), far below the grandchildren's 600 s. */
    private static final long BOUND_SECONDS = 60;

    @TempDir
    Path sandbox;

    private final ChildProcesses children = new ChildProcesses(Map.of());
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Long> pidsToReap = new ArrayList<>();

    @AfterEach
    void leaveNoProcess() {
        threads.shutdownNow();
        pidsToReap.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private Future<ChildProcesses.Result> start(Duration timeout, String script) {
        return threads.submit(() -> children.run(List.of("sh", "-c", script), sandbox, Map.of(), timeout));
    }

    private static boolean gone(long pid) {
        return Helper.Stat.of(pid).filter(s -> s.state() != 'Z').isEmpty();
    }

    /** Observes a process die; SIGKILL takes effect asynchronously, so its end is awaited, bounded. */
    private static boolean dies(long pid) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!gone(pid) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return gone(pid);
    }

    private long pidIn(Path file) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!Files.exists(file) || Files.readString(file, StandardCharsets.UTF_8).isBlank()) {
            assertThat(System.nanoTime()).as("the child wrote " + file).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        long pid = Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
        pidsToReap.add(pid);
        return pid;
    }

    /**
     * A stop that lands just before a child starts (the run's thread already interrupted): the
     * child's process group does not exist yet when the run kills it (its setsid comes a few
     * milliseconds and two execs after the start), so the child itself is killed too. Before, the
     * child outlived {@code run} and wrote its marker in 10 rounds of 10.
     */
    @Test
    void aChildStartedByAnInterruptedThreadDoesNotOutliveRun() throws Exception {
        for (int round = 0; round < 3; round++) {
            Path marker = sandbox.resolve("acted-" + round);
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> children.run(List.of("sh", "-c", "sleep 1; echo acted > " + marker), sandbox, Map.of(),
                    Duration.ofSeconds(30))).isInstanceOf(InterruptedException.class);
            // the child would have written its marker at 1 s: look until 3 s
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < until && !Files.exists(marker)) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            assertThat(marker).as("round %d: the child lived on after run threw", round).doesNotExist();
        }
    }

    @Test
    void eachChildLeadsAProcessGroupAndSessionOfItsOwn() throws Exception {
        ChildProcesses.Result result = start(Duration.ofMinutes(1), "read -r stat < /proc/$$/stat; echo \"$$ $stat\"")
                .get(BOUND_SECONDS, TimeUnit.SECONDS);

        String[] words = result.output().strip().split(" ");
        String[] fields = result.output().substring(result.output().lastIndexOf(')') + 2).strip().split(" ");
        long pid = Long.parseLong(words[0]);
        assertThat(Long.parseLong(fields[2])).as("process group").isEqualTo(pid);
        assertThat(Long.parseLong(fields[3])).as("session").isEqualTo(pid);
        assertThat(Helper.Stat.of(ProcessHandle.current().pid()).orElseThrow().group()).isNotEqualTo(pid);
    }

    @Test
    void aGrandchildThatOutlivesItsParentIgnoresTermAndHoldsTheOutputNeitherWedgesTheRunNorSurvivesIt()
            throws Exception {
        Future<ChildProcesses.Result> call = start(Duration.ofMinutes(1),
                "(trap '' TERM; exec sleep 600) & echo \"grandchild $!\"; exit 0");

        ChildProcesses.Result result = call.get(BOUND_SECONDS, TimeUnit.SECONDS);

        assertThat(result.exitCode()).isZero();
        long grandchild = Long.parseLong(result.output().strip().split(" ")[1]);
        pidsToReap.add(grandchild);
        assertThat(result.output()).doesNotContain("still open");
        // The output ended, so every holder of the pipe, the grandchild too, had already exited.
        assertThat(gone(grandchild)).as("grandchild %d gone", grandchild).isTrue();
    }

    @Test
    void aChildThatOverrunsItsTimeoutIsKilledWithItsReparentedTermIgnoringGrandchild() throws Exception {
        Path pid = sandbox.resolve("grandchild.pid");
        Future<ChildProcesses.Result> call = start(Duration.ofSeconds(2),
                "(trap '' TERM; sleep 600 & echo $! > " + pid + "); exec sleep 600");

        assertThatThrownBy(() -> call.get(BOUND_SECONDS, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IOException.class)
                .hasMessageContaining("did not finish within 2 s: it was killed with everything it started");
        assertThat(dies(pidIn(pid))).as("the reparented grandchild is killed with its group").isTrue();
    }

    @Test
    void aStopFromAnotherThreadKillsTheChildsWholeGroupAndTheRunGoesOn() throws Exception {
        Path pid = sandbox.resolve("grandchild.pid");
        Future<ChildProcesses.Result> call = start(Duration.ofMinutes(10),
                "(trap '' TERM; sleep 600 & echo $! > " + pid + "); exec sleep 600");
        long grandchild = pidIn(pid);

        children.killAll();

        ChildProcesses.Result result = call.get(BOUND_SECONDS, TimeUnit.SECONDS);
        assertThat(result.exitCode()).as("killed by SIGKILL").isEqualTo(128 + 9);
        assertThat(result.output()).doesNotContain("still open");
        assertThat(gone(grandchild)).isTrue();
    }

    @Test
    void aChattyChildCostsTheRunAtMostTheCapAndKeepsItsFirstAndLastWords() throws Exception {
        ChildProcesses.Result result = start(Duration.ofMinutes(1),
                "echo FIRST; head -c 50000000 /dev/zero | tr '\\0' x; echo; echo LAST").get(BOUND_SECONDS, TimeUnit.SECONDS);

        assertThat(result.exitCode()).isZero();
        assertThat(result.output().length()).isLessThan(ChildProcesses.HEAD_BYTES + ChildProcesses.TAIL_BYTES + 200);
        assertThat(result.output()).startsWith("FIRST\n").endsWith("\nLAST\n")
                .contains("bytes of output left out here: the first 1048576 and the last 1048576 are kept");
    }

    /**
     * The one thing a process group cannot catch, a grandchild that made a session of its own,
     * still cannot make the run wait for its output longer than the drain's grace (the call's
     * bound is far below the grandchild's 600 s).
     */
    @Test
    void aGrandchildThatLeftTheGroupHoldingTheOutputDelaysTheRunOnlyByTheDrainGrace() throws Exception {
        Path pid = sandbox.resolve("escaped.pid");
        Future<ChildProcesses.Result> call = start(Duration.ofMinutes(1),
                "setsid sh -c 'echo $$ > " + pid + ".new && mv " + pid + ".new " + pid + "; exec sleep 600' &"
                        + " while [ ! -s " + pid + " ]; do :; done; echo done");

        ChildProcesses.Result result = call.get(BOUND_SECONDS, TimeUnit.SECONDS);

        assertThat(Helper.Stat.of(pidIn(pid))).as("the escaped grandchild still runs: a group cannot catch it")
                .hasValueSatisfying(s -> assertThat(s.state()).isNotEqualTo('Z'));
        assertThat(result.exitCode()).isZero();
        // Either the JDK closed the pipe when the child exited, or the drain's grace ran out and the
        // output says so; both end the wait, and nothing was lost of what the child said.
        assertThat(result.output()).startsWith("done\n");
        if (result.output().length() > "done\n".length()) {
            assertThat(result.output()).contains("the output was still open " + ChildProcesses.DRAIN_GRACE.toSeconds()
                    + " s after the child exited");
        }
    }
}
