package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.commoninternet.ccci.extensions.lock.Janitor.Outcome;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.LockHolder;
import net.commoninternet.ccci.testing.helpers.SweepUnderGuards;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flock-probe janitor's decision table (spec section 6) on real kernel locks held by real
 * helper processes. Candidates are injected and the reap is recorded: the swarm is not the point
 * here (JanitorSwarmTest reaps real stacks).
 */
@RealProcesses
class JanitorTest {

    private static final String A = "cust-aaaaaa.ci.commoninternet.net";
    private static final String B = "cust-bbbbbb.ci.commoninternet.net";
    private static final Duration LONG_HELD = Duration.ofMinutes(120);
    private static final int SIGTERM = 15;

    @TempDir
    Path locks;

    private final List<String> reaped = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private Janitor janitor(Janitor.Reaper reaper) {
        return new Janitor(locks, LONG_HELD, reaper);
    }

    private Janitor recordingJanitor() {
        return janitor(reaped::add);
    }

    private Path lockfile(String domain) {
        return AppDomainLock.path(locks, domain);
    }

    /** A run that held the lock and died: its lockfile is there, unheld. */
    private void deadRun(String domain) throws Exception {
        try (Helper run = Helper.jvm(LockHolder.class, locks.toString(), domain)) {
            run.awaitLine("held");
            run.kill();
        }
        assertThat(lockfile(domain)).exists();
    }

    @Test
    void anOrphanIsReapedExactlyOnceAndItsLockfileUnlinked() throws Exception {
        deadRun(A);
        Set<String> apps = ConcurrentHashMap.newKeySet();
        apps.add(A);
        Janitor janitor = janitor(domain -> {
            reaped.add(domain);
            apps.remove(domain);
        });

        assertThat(janitor.sweep(Set.copyOf(apps))).containsExactly(Map.entry(A, Outcome.REAPED));
        assertThat(janitor.sweep(Set.copyOf(apps))).isEmpty();

        assertThat(reaped).containsExactly(A);
        assertThat(lockfile(A)).doesNotExist();
    }

    @Test
    void aLiveHolderIsNeverReapedAndTheJanitorSaysSo() throws Exception {
        try (Helper live = Helper.jvm(LockHolder.class, locks.toString(), A);
             LogCapture log = new LogCapture(Janitor.class)) {
            live.awaitLine("held");

            assertThat(recordingJanitor().sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.LIVE));

            assertThat(reaped).isEmpty();
            assertThat(lockfile(A)).exists();
            assertThat(log.lines()).contains("janitor: " + A + " is live (its lock is held): left alone",
                    "== janitor: 1 run app(s) found; 1 live ==");
            assertThat(live.process().isAlive()).isTrue();
        }
    }

    @Test
    void aNewRunOfTheDomainWaitsInAcquireUntilASlowReapHasFinished() throws Exception {
        deadRun(A);
        CountDownLatch reapStarted = new CountDownLatch(1);
        CountDownLatch finishReap = new CountDownLatch(1);
        AtomicBoolean reapFinished = new AtomicBoolean();
        Future<Map<String, Outcome>> sweep = threads.submit(() -> janitor(domain -> {
            reapStarted.countDown();
            finishReap.await();
            reapFinished.set(true);
        }).sweep(Set.of(A)));
        assertThat(reapStarted.await(60, TimeUnit.SECONDS)).isTrue();
        try (Helper newRun = Helper.jvm(LockHolder.class, locks.toString(), A)) {

            assertThat(newRun.awaitAnyOf("waiting", "held")).as("the new run must not get the lock mid-reap")
                    .contains("waiting");

            finishReap.countDown();
            newRun.awaitLine("held");
            assertThat(reapFinished).as("the new run got the lock only after the reap").isTrue();
            assertThat(sweep.get(60, TimeUnit.SECONDS)).containsExactly(Map.entry(A, Outcome.REAPED));
        } finally {
            finishReap.countDown();
        }
    }

    @Test
    void twoRacingJanitorsReapOnlyOnce() throws Exception {
        deadRun(A);
        CountDownLatch firstReaping = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        Future<Map<String, Outcome>> first = threads.submit(() -> janitor(domain -> {
            reaped.add(domain);
            firstReaping.countDown();
            secondDone.await();
        }).sweep(Set.of(A)));
        try {
            assertThat(firstReaping.await(60, TimeUnit.SECONDS)).isTrue();

            // Its own open file description: the two janitors arbitrate on the flock like two processes.
            Map<String, Outcome> second = recordingJanitor().sweep(Set.of(A));
            secondDone.countDown();

            assertThat(second).containsExactly(Map.entry(A, Outcome.LIVE));
            assertThat(first.get(60, TimeUnit.SECONDS)).containsExactly(Map.entry(A, Outcome.REAPED));
            assertThat(reaped).containsExactly(A);
        } finally {
            secondDone.countDown();
        }
    }

    /**
     * SIGTERM to a run while its janitor reaps an orphan: that reap finishes (no half-reaped
     * app), its lockfile is unlinked, no further orphan is taken, the run ends 143, and the next
     * sweep reaps what was left.
     */
    @Test
    void aSigtermDuringAReapLetsItFinishTakesNoFurtherOrphanAndTheNextSweepReapsTheRest(@TempDir Path gates)
            throws Exception {
        deadRun(A);
        deadRun(B);
        Path release = gates.resolve("release");
        try (Helper run = Helper.jvm(SweepUnderGuards.class, locks.toString(), release.toString(), A, B)) {
            run.awaitLine("sweep: reaping " + A);

            run.signal(SIGTERM);
            run.awaitLine("SIGTERM: stopping the run");
            Files.createFile(release);

            assertThat(run.awaitExit()).as(run.describe()).isEqualTo(143);
            assertThat(run.output()).containsSubsequence("sweep: reaping " + A, "sweep: reaped " + A,
                    "janitor: " + A + " reaped", "== janitor: the run is stopping — 1 candidate(s) left unprobed",
                    "sweep: outcomes {" + A + "=REAPED}").doesNotContain("reaping " + B, "reaping " + A + " failed");
        }
        assertThat(lockfile(A)).doesNotExist();
        assertThat(lockfile(B)).exists();

        assertThat(recordingJanitor().sweep(Set.of(B))).containsExactly(Map.entry(B, Outcome.REAPED));
        assertThat(reaped).containsExactly(B);
    }

    @Test
    void afterARebootAnAppWithoutLockfileIsReapedImmediately() {
        assertThat(lockfile(A)).doesNotExist();

        assertThat(recordingJanitor().sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.REAPED));

        assertThat(reaped).containsExactly(A);
        assertThat(lockfile(A)).doesNotExist();
    }

    @Test
    void aLockHeldLongerThanTwiceTheDeadlineIsFlaggedNeverStolen() throws Exception {
        try (Helper leaked = Helper.jvm(LockHolder.class, locks.toString(), A);
             LogCapture log = new LogCapture(Janitor.class)) {
            leaked.awaitLine("held");
            Files.setLastModifiedTime(lockfile(A), FileTime.from(Instant.now().minus(Duration.ofMinutes(121))));

            assertThat(recordingJanitor().sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.LIVE_LONG_HELD));

            assertThat(reaped).isEmpty();
            assertThat(log.lines()).contains("!! lock for " + A + " held >120min — possible leaked run; inspect with lslocks",
                    "== janitor: 1 run app(s) found; 1 live, held long ==");
            assertThat(LockFile.open(lockfile(A)).tryLock()).as("still held by the helper").isFalse();
        }
    }

    @Test
    void warmAndCanonicalAppsAreNeverProbed() {
        Set<String> notRunApps = Set.of("warm-keycloak.ci.commoninternet.net", "custom-html.example.com",
                "cust-abcdeg.ci.commoninternet.net", "toolong-abcdef.ci.commoninternet.net", "cust-abcdef.ci.example.net");

        assertThat(recordingJanitor().sweep(notRunApps)).isEmpty();

        assertThat(reaped).isEmpty();
        assertThat(locks).isEmptyDirectory();
    }

    @Test
    void aDirectoryWhereALockfileShouldBeIsSkippedAndTheOthersStillSwept() throws Exception {
        Files.createDirectories(lockfile(A));

        Map<String, Outcome> outcomes = recordingJanitor().sweep(Set.of(A, B));

        assertThat(outcomes).containsEntry(A, Outcome.UNOPENABLE).containsEntry(B, Outcome.REAPED);
        assertThat(reaped).containsExactly(B);
        assertThat(lockfile(A)).isDirectory();
    }

    @Test
    void aMissingLockDirectoryIsSkippedAndNotCreated() {
        Path missing = locks.resolve("gone");
        Janitor janitor = new Janitor(missing, LONG_HELD, reaped::add);

        assertThat(janitor.sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.UNOPENABLE));

        assertThat(reaped).isEmpty();
        assertThat(missing).doesNotExist();
    }

    @Test
    void aPlantedSymbolicLinkIsSkippedAndItsTargetUntouched() throws Exception {
        Path target = locks.resolve("precious");
        Files.writeString(target, "keep", StandardCharsets.UTF_8);
        Files.createSymbolicLink(lockfile(A), target);

        assertThat(recordingJanitor().sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.UNOPENABLE));

        assertThat(reaped).isEmpty();
        assertThat(lockfile(A)).isSymbolicLink();
        assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("keep");
    }

    @Test
    void aFailedReapLeavesTheLockfileForTheNextSweep() throws Exception {
        deadRun(A);

        assertThat(janitor(domain -> {
            throw new IllegalStateException("engine hiccup");
        }).sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.REAP_FAILED));

        assertThat(lockfile(A)).exists();
        assertThat(recordingJanitor().sweep(Set.of(A))).containsExactly(Map.entry(A, Outcome.REAPED));
    }

    @Test
    void theTidySweepUnlinksUnheldLockfilesWithNoAppAndLeavesHeldOnes() throws Exception {
        deadRun(A);
        Files.writeString(locks.resolve("cc-ci-app-warm-x.ci.commoninternet.net.lock"), "");
        Files.writeString(locks.resolve("unrelated.lock"), "");
        try (Helper live = Helper.jvm(LockHolder.class, locks.toString(), B)) {
            live.awaitLine("held");

            assertThat(recordingJanitor().sweep(Set.of())).containsExactly(Map.entry(A, Outcome.TIDIED));

            assertThat(reaped).isEmpty();
            assertThat(lockfile(A)).doesNotExist();
            assertThat(lockfile(B)).exists();
            assertThat(locks.resolve("cc-ci-app-warm-x.ci.commoninternet.net.lock")).exists();
            assertThat(locks.resolve("unrelated.lock")).exists();
        }
    }
}
