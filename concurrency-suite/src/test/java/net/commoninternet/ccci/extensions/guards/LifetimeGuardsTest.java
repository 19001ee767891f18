package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.GuardedRun;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifetime guards (spec section 2) in helper JVMs that install the real guards and hold a
 * real flock, stopped by real signals: parent death, orphaned start, hard deadline, SIGTERM
 * (twice), and SIGTERM ignored from the start. Every step waits for what a helper says or for
 * observed kernel state; the lock is probed with a real flock from outside.
 */
@RealProcesses
class LifetimeGuardsTest {

    private static final String DOMAIN = "guar-000001.ci.commoninternet.net";
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private Path locks() {
        return sandbox.resolve("locks");
    }

    private Path lockfile() {
        return AppDomainLock.path(locks(), DOMAIN);
    }

    /** A guarded run whose parent is a bash the test can kill, all inside an {@link Orphanage}. */
    private Helper startUnderKillableParent(String... guardedArgs) throws Exception {
        List<String> command = new ArrayList<>(Helper.java(Orphanage.class, "bash", "-c", "\"$0\" \"$@\" 0<&0 & wait"));
        command.addAll(Helper.java(GuardedRun.class, guardedArgs));
        return helpers.start(command);
    }

    @Test
    void whenTheParentDiesTheRunGetsSigtermTearsDownAndReleasesItsLock() throws Exception {
        Helper tree = startUnderKillableParent(locks().toString(), DOMAIN, "3600");
        String ready = tree.awaitLine("guarded: ready");
        long run = field(ready, "pid");
        assertThat(LockProbe.held(lockfile())).isTrue();

        Helper.kill(field(ready, "parent"), SIGKILL);

        assertThat(tree.awaitLine(Orphanage.reaped(run))).endsWith("exit " + GuardedCommand.EXIT_SIGTERM);
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(tree.output()).containsSubsequence("SIGTERM: stopping the run — tearing down",
                "guarded: teardown begin", "guarded: teardown end");
        assertThat(LockProbe.held(lockfile())).isFalse();
    }

    @Test
    void aRunWhoseParentDiedBeforeTheGuardsWereArmedRefusesToRunAndCreatesNothing() throws Exception {
        Helper tree = startUnderKillableParent(locks().toString(), DOMAIN, "3600", "--gate");
        String started = tree.awaitLine("guarded: started");
        long run = field(started, "pid");
        long parent = field(started, "parent");

        Helper.kill(parent, SIGKILL);
        awaitReparented(run, parent);
        tree.send("go");

        assertThat(tree.awaitLine("guarded: refused:")).contains("refusing to run orphaned",
                "(pid " + parent + ") is gone");
        assertThat(tree.awaitLine(Orphanage.reaped(run))).endsWith("exit " + GuardedRun.REFUSED);
        assertThat(tree.awaitExit()).isZero();
        assertThat(locks()).doesNotExist();
    }

    @Test
    void theHardDeadlineTearsDownExits142AndDoesNotBoundTheTeardown() throws Exception {
        Helper run = helpers.start(Helper.java(GuardedRun.class, locks().toString(), DOMAIN, "2", "--hold-teardown"));
        run.awaitLine("guarded: ready");
        assertThat(LockProbe.held(lockfile())).isTrue();

        run.awaitLine("== run exceeded 2-second hard deadline — tearing down ==");
        run.awaitLine("guarded: teardown begin");
        // The property is about time: the teardown may outlast the deadline. Hold it for
        // another full deadline, then it must still be running and holding its lock.
        long holdUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < holdUntil) {
            LockSupport.parkNanos(holdUntil - System.nanoTime());
        }
        assertThat(run.isAlive()).as(run.describe()).isTrue();
        assertThat(LockProbe.held(lockfile())).isTrue();
        run.send("finish");

        assertThat(run.awaitExit()).as(run.describe()).isEqualTo(GuardedCommand.EXIT_DEADLINE);
        assertThat(run.output()).containsSubsequence("hard deadline", "guarded: teardown begin", "guarded: teardown end");
        assertThat(LockProbe.held(lockfile())).isFalse();
    }

    @Test
    void sigtermTearsDownExits143AndASecondSigtermDuringTeardownIsIgnored() throws Exception {
        Helper run = helpers.start(Helper.java(GuardedRun.class, locks().toString(), DOMAIN, "3600", "--hold-teardown"));
        run.awaitLine("guarded: ready");

        run.signal(SIGTERM);
        run.awaitLine("guarded: teardown begin");
        run.signal(SIGTERM);
        run.awaitLine("== SIGTERM during teardown — ignored");
        assertThat(run.isAlive()).isTrue();
        assertThat(LockProbe.held(lockfile())).isTrue();
        run.send("finish");

        assertThat(run.awaitExit()).as(run.describe()).isEqualTo(GuardedCommand.EXIT_SIGTERM);
        // the last line, the evidence scripts/soak reads, is written before the shutdown hook lets the JVM halt
        assertThat(run.output()).containsSubsequence("SIGTERM: stopping the run — tearing down",
                "guarded: teardown begin", "SIGTERM during teardown — ignored", "guarded: teardown end",
                "== every run is torn down after SIGTERM: the process exits 143 ==");
        assertThat(LockProbe.held(lockfile())).isFalse();
    }

    @Test
    void sigtermDuringTheTeardownAfterANormalEndLetsItFinishThenExits143() throws Exception {
        Helper run = helpers.start(Helper.java(GuardedRun.class, locks().toString(), DOMAIN, "3600", "--end-on-line",
                "--hold-teardown"));
        run.awaitLine("guarded: ready");
        run.send("end-run");
        run.awaitLine("guarded: teardown begin");

        run.signal(SIGTERM);
        run.awaitLine("== SIGTERM during teardown — the teardown goes on, then the process exits 143 ==");
        assertThat(run.isAlive()).isTrue();
        assertThat(LockProbe.held(lockfile())).isTrue();
        run.send("finish");

        assertThat(run.awaitExit()).as(run.describe()).isEqualTo(GuardedCommand.EXIT_SIGTERM);
        assertThat(run.output()).doesNotContain("stopping the run").containsSubsequence("guarded: teardown begin",
                "the teardown goes on", "guarded: teardown end");
        assertThat(LockProbe.held(lockfile())).isFalse();
    }

    @Test
    void sigtermIgnoredFromTheStartIsReportedLoudlyAndOnlyTheDeadlineEndsTheRun() throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "trap '' TERM; exec \"$0\" \"$@\""));
        command.addAll(Helper.java(GuardedRun.class, locks().toString(), DOMAIN, "2"));
        Helper run = helpers.start(command);
        run.awaitLine("!! SIGTERM is ignored in this process");
        run.awaitLine("guarded: ready");

        run.signal(SIGTERM);

        assertThat(run.awaitExit()).as(run.describe()).isEqualTo(GuardedCommand.EXIT_DEADLINE);
        assertThat(run.output()).doesNotContain("SIGTERM: stopping the run")
                .containsSubsequence("hard deadline", "guarded: teardown end");
    }

    private static long field(String line, String name) {
        for (String word : line.split(" ")) {
            if (word.startsWith(name + "=")) {
                return Long.parseLong(word.substring(name.length() + 1));
            }
        }
        throw new AssertionError("no " + name + "= in: " + line);
    }

    /** Waits until the kernel has re-parented {@code pid} away from its dead parent. */
    private static void awaitReparented(long pid, long deadParent) {
        long deadline = System.nanoTime() + Helper.PATIENCE.toNanos();
        while (Helper.Stat.of(pid).orElseThrow().parent() == deadParent) {
            assertThat(System.nanoTime()).as("pid %d still has parent %d", pid, deadParent).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
