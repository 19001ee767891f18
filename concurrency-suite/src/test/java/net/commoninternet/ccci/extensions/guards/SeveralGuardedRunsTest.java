package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.GuardedRuns;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifetime guards of a command of several runs, in a helper JVM ({@link GuardedRuns}) that
 * runs three real guarded runs on three threads, each holding a real flock: one SIGTERM (or the
 * deadline) tears down every live run, each in its own {@code finally}, a second SIGTERM is
 * ignored, a run that would start after the stop refuses, and the process exits 143 (142) only
 * after every teardown. Every step waits for what the helper says or for observed lock state.
 */
@RealProcesses
class SeveralGuardedRunsTest {

    private static final String PREFIX = "mult-00000";
    private static final int SIGTERM = 15;
    private static final int SIGKILL = 9;
    private static final int RUNS = 3;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private Path lockfile(int i) {
        return AppDomainLock.path(sandbox.resolve("locks"), PREFIX + i + ".ci.commoninternet.net");
    }

    private Helper startRuns(String deadlineSeconds) throws Exception {
        Helper runs = helpers.start(Helper.java(GuardedRuns.class, sandbox.resolve("locks").toString(), PREFIX,
                deadlineSeconds, Integer.toString(RUNS)));
        for (int i = 1; i <= RUNS; i++) {
            runs.awaitLine("guarded: ready " + i);
            assertThat(LockProbe.held(lockfile(i))).as("run %d holds its lock", i).isTrue();
        }
        return runs;
    }

    @Test
    void oneSigtermTearsDownEveryLiveRunInItsOwnFinallyRefusesLaterRunsAndExits143() throws Exception {
        Helper runs = startRuns("3600");

        runs.signal(SIGTERM);
        for (int i = 1; i <= RUNS; i++) {
            runs.awaitLine("guarded: teardown begin " + i);
        }
        runs.signal(SIGTERM);
        runs.awaitLine("== SIGTERM during teardown — ignored");
        runs.send("late");
        assertThat(runs.awaitLine("guarded: refused " + (RUNS + 1) + ":"))
                .contains("not started: the command was stopped by SIGTERM");
        assertThat(LockProbe.held(lockfile(RUNS + 1))).as("the refused run created nothing").isFalse();
        for (int i = 1; i <= RUNS; i++) {
            assertThat(LockProbe.held(lockfile(i))).as("run %d still tearing down, still holding its lock", i).isTrue();
        }
        assertThat(runs.isAlive()).isTrue();
        runs.send("finish");

        assertThat(runs.awaitExit()).as(runs.describe()).isEqualTo(GuardedCommand.EXIT_SIGTERM);
        assertThat(runs.output()).contains("== SIGTERM: stopping 3 runs (run-1, run-2, run-3) — tearing down ==");
        for (int i = 1; i <= RUNS; i++) {
            assertThat(runs.output()).containsSubsequence("guarded: teardown begin " + i, "guarded: teardown end " + i);
            assertThat(runs.output()).contains("guarded: run ended " + i + ": " + RunStopped.class.getName()
                    + ": the run was stopped by SIGTERM and torn down");
            assertThat(LockProbe.held(lockfile(i))).isFalse();
        }
    }

    @Test
    void theDeadlineOfTheCommandTearsDownEveryRunAndExits142() throws Exception {
        Helper runs = startRuns("3");

        runs.awaitLine("== command exceeded 3-second hard deadline — tearing down run-1, run-2, run-3 ==");
        for (int i = 1; i <= RUNS; i++) {
            runs.awaitLine("guarded: teardown begin " + i);
        }
        runs.send("finish");

        assertThat(runs.awaitExit()).as(runs.describe()).isEqualTo(GuardedCommand.EXIT_DEADLINE);
        for (int i = 1; i <= RUNS; i++) {
            assertThat(runs.output()).containsSubsequence("guarded: teardown begin " + i, "guarded: teardown end " + i);
            assertThat(LockProbe.held(lockfile(i))).isFalse();
        }
    }

    /**
     * The parent-death signal is armed on each run's own thread (the helper's main thread arms
     * none): when the parent dies, the kernel signals the process through any of them, and every
     * run is torn down as for SIGTERM.
     */
    @Test
    void whenTheParentDiesEveryRunIsTornDownThroughTheSignalItsOwnThreadArmed() throws Exception {
        List<String> command = new ArrayList<>(Helper.java(Orphanage.class, "bash", "-c", "\"$0\" \"$@\" 0<&0 & wait"));
        command.addAll(Helper.java(GuardedRuns.class, sandbox.resolve("locks").toString(), PREFIX, "3600",
                Integer.toString(RUNS)));
        Helper tree = helpers.start(command);
        long jvm = Long.parseLong(tree.awaitLine("guarded: started pid=").replaceAll(".*pid=(\\d+).*", "$1"));
        for (int i = 1; i <= RUNS; i++) {
            tree.awaitLine("guarded: ready " + i);
        }
        String armed = tree.awaitLine("lifetime guards armed on thread 'run-1'");
        long parent = Long.parseLong(armed.replaceAll(".*death of parent pid (\\d+).*", "$1"));

        Helper.kill(parent, SIGKILL);
        for (int i = 1; i <= RUNS; i++) {
            tree.awaitLine("guarded: teardown begin " + i);
        }
        tree.send("finish");

        assertThat(tree.awaitLine(Orphanage.reaped(jvm))).endsWith("exit " + GuardedCommand.EXIT_SIGTERM);
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(tree.output()).contains("== SIGTERM: stopping 3 runs (run-1, run-2, run-3) — tearing down ==");
        for (int i = 1; i <= RUNS; i++) {
            assertThat(tree.output()).containsSubsequence("guarded: teardown begin " + i, "guarded: teardown end " + i);
            assertThat(LockProbe.held(lockfile(i))).isFalse();
        }
    }
}
