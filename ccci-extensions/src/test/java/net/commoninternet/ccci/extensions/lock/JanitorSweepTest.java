package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import net.commoninternet.ccci.extensions.lock.Janitor.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The janitor's decision table in one process, engine-free: real kernel flocks (a lock this JVM
 * holds is held to the janitor's probe, which opens a description of its own) and, for the lease
 * rows, the in-memory stand-in for the swarm's store. The reap is recorded. The same table across
 * real processes and a real swarm: concurrency-suite's JanitorTest, JanitorSwarmTest, MultiHostLeaseTest.
 */
class JanitorSweepTest {

    private static final String A = "jana-aaaaaa.ci.commoninternet.net";
    private static final String B = "janb-bbbbbb.ci.commoninternet.net";
    private static final AppDomainLease.Timing SHORT = new AppDomainLease.Timing(Duration.ofMillis(600), Duration.ofMillis(150));

    @TempDir
    Path locks;
    private final List<String> reaped = new CopyOnWriteArrayList<>();
    private final List<AppDomainLock.Held> heldLocks = new CopyOnWriteArrayList<>();
    private final InMemoryRecords store = new InMemoryRecords();
    private final AtomicLong swarmClock = new AtomicLong(1000);

    @AfterEach
    void release() {
        heldLocks.forEach(AppDomainLock.Held::release);
    }

    private Janitor janitor(Duration longHeld) {
        return new Janitor(locks, longHeld, reaped::add);
    }

    private Janitor leased(AppDomainLease leases) {
        return new Janitor(locks, Duration.ofHours(2), reaped::add, leases);
    }

    private AppDomainLease host(String name, Path lockDir) {
        store.stampedBy(swarmClock::get);
        return new AppDomainLease(store, new AppDomainLease.Holder("host-" + name, "machine-" + name, lockDir, 7, "run-" + name),
                SHORT, why -> { });
    }

    private void hold(String domain) throws Exception {
        heldLocks.add(AppDomainLock.acquire(locks, domain));
    }

    @Test
    void aFreeLockIsReapedAndUnlinkedAHeldOneLeftAndNoRunAppTouched() throws Exception {
        hold(A);
        heldLocks.remove(0).release(); // a run that ended: its lockfile stays, unheld
        hold(B);
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of(A, B, "warm.example.org"))).containsExactlyInAnyOrderEntriesOf(
                Map.of(A, Outcome.REAPED, B, Outcome.LIVE));
        assertThat(reaped).containsExactly(A);
        assertThat(AppDomainLock.path(locks, A)).doesNotExist();
        assertThat(AppDomainLock.path(locks, B)).exists();
        assertThat(janitor(Duration.ofSeconds(-1)).sweep(Set.of(B))).containsEntry(B, Outcome.LIVE_LONG_HELD);
    }

    @Test
    void anAppWithNoLockfileIsReapedAFailedReapKeepsItsLockfileAndAnUnheldLockfileIsTidied() throws Exception {
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of(A))).containsEntry(A, Outcome.REAPED);
        Janitor failing = new Janitor(locks, Duration.ofHours(2), domain -> {
            throw new IllegalStateException("the engine hiccuped");
        });
        assertThat(failing.sweep(Set.of(A))).containsEntry(A, Outcome.REAP_FAILED);
        assertThat(AppDomainLock.path(locks, A)).exists();
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of())).containsEntry(A, Outcome.TIDIED);
        assertThat(AppDomainLock.path(locks, A)).doesNotExist();
        Files.writeString(locks.resolve("cc-ci-app-not-a-run-app.lock"), "");
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of())).isEmpty();
    }

    /**
     * A teardown that returns what it left (a network still in use, or nothing removed at all because
     * this process's lease was no longer confirmed) has not reaped: the sweep says REAP_FAILED and
     * keeps the lockfile for the next sweep, never REAPED with the app still there.
     */
    @Test
    void aReapWhoseTeardownLeftSomethingFailsAndKeepsItsLockfile() throws Exception {
        Janitor leaving = new Janitor(locks, Duration.ofHours(2),
                Janitor.Reaper.leavingNothing(domain -> List.of("network " + domain + "_default")));
        assertThat(leaving.sweep(Set.of(A))).containsEntry(A, Outcome.REAP_FAILED);
        assertThat(AppDomainLock.path(locks, A)).exists();

        Janitor clean = new Janitor(locks, Duration.ofHours(2), Janitor.Reaper.leavingNothing(domain -> List.of()));
        assertThat(clean.sweep(Set.of(A))).containsEntry(A, Outcome.REAPED);
        assertThat(AppDomainLock.path(locks, A)).doesNotExist();
    }

    @Test
    void anUnopenableLockfileIsSkippedAndAStoppingRunProbesNothing() throws Exception {
        Files.createDirectory(AppDomainLock.path(locks, A));
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of(A))).containsEntry(A, Outcome.UNOPENABLE);
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of(B), () -> true)).isEmpty();
        assertThat(reaped).isEmpty();
        assertThat(new Janitor(locks.resolve("missing"), Duration.ofHours(2), reaped::add).sweep(Set.of(B)))
                .as("no lock directory: nothing probed there, nothing reaped").containsEntry(B, Outcome.UNOPENABLE);
    }

    @Test
    void underLeasesAFreeDomainIsReapedUnderALeaseOfItsOwnAndItsRecordRemoved() throws Exception {
        AppDomainLease leases = host("a", locks);
        assertThat(leased(leases).sweep(Set.of(A))).containsEntry(A, Outcome.REAPED);
        assertThat(reaped).containsExactly(A);
        assertThat(store.all()).isEmpty();
    }

    @Test
    void aLeaseHeldElsewhereIsLeftWhileFreshAndReapedAfterTheWatchOnceExpired() throws Exception {
        AppDomainLease other = host("b", locks.resolve("b"));
        AppDomainLease.Held elsewhere = other.takeUnstarted(other.look(A), "run").orElseThrow();
        AppDomainLease mine = host("a", locks);
        assertThat(leased(mine).sweep(Set.of(A))).containsEntry(A, Outcome.LIVE_ELSEWHERE);
        swarmClock.addAndGet(1);
        long before = System.nanoTime();
        assertThat(leased(mine).sweep(Set.of(A))).containsEntry(A, Outcome.REAPED);
        assertThat(System.nanoTime() - before).as("watched for the TTL").isGreaterThanOrEqualTo(SHORT.ttl().toNanos());
        assertThat(reaped).containsExactly(A);
        assertThat(elsewhere.reconfirm()).isFalse();
    }

    @Test
    void aLeaseRenewedWhileWatchedIsLiveElsewhere() throws Exception {
        AppDomainLease other = host("b", locks.resolve("b"));
        AppDomainLease.Held elsewhere = other.acquire(A, "run"); // its heartbeat renews every 150 ms
        try {
            swarmClock.addAndGet(1);
            assertThat(leased(host("a", locks)).sweep(Set.of(A))).containsEntry(A, Outcome.LIVE_ELSEWHERE);
            assertThat(reaped).isEmpty();
        } finally {
            elsewhere.release();
        }
    }

    @Test
    void aLeaseOfThisFlockScopeIsTakenAtOnceAndAnUnreadableOneNeverReaped() throws Exception {
        AppDomainLease dead = host("a", locks);
        dead.takeUnstarted(dead.look(B), "run").orElseThrow();
        assertThat(leased(host("a", locks)).sweep(Set.of())).as("a lease with no app is a candidate")
                .containsEntry(B, Outcome.REAPED);
        assertThat(store.all()).isEmpty();
        store.unreachable(true);
        try {
            assertThat(leased(host("a", locks)).sweep(Set.of(A))).containsEntry(A, Outcome.LEASE_UNKNOWN);
        } finally {
            store.unreachable(false);
        }
        assertThat(reaped).containsExactly(B);
    }

    @Test
    void theLockWinnerReapsWhatADeadRunLeftAndAFailedReapStopsIt() throws Exception {
        assertThat(Janitor.reapLeftByDeadRun(A, () -> false, reaped::add)).isFalse();
        assertThat(reaped).isEmpty();
        assertThat(Janitor.reapLeftByDeadRun(A, () -> true, reaped::add)).isTrue();
        assertThat(reaped).containsExactly(A);
        assertThatThrownBy(() -> Janitor.reapLeftByDeadRun(A, () -> true, domain -> {
            throw new IllegalStateException("left: a volume");
        })).hasMessage("left: a volume");
    }

    @Test
    void aReapIsNotCutShortByAnInterruptWhichIsKeptForAfter() throws Exception {
        Thread sweeper = Thread.currentThread();
        Janitor janitor = new Janitor(locks, Duration.ofHours(2), domain -> {
            sweeper.interrupt();
            reaped.add(domain);
        });
        try {
            assertThat(janitor.sweep(Set.of(A))).containsEntry(A, Outcome.REAPED);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theLongHeldFlagNeedsAnAgePastItsBoundAndALockHeldDuringTheWatchIsLive() throws Exception {
        hold(A);
        // a lock's age is whole seconds (its file's mtime, set when it was taken): one taken just before
        // a second turned would read 1 s old at once, past a zero bound; dated a minute ahead it is
        // 0 s old for the whole sweep, so the sweep sees an age equal to its bound, never past it
        Files.setLastModifiedTime(AppDomainLock.path(locks, A), FileTime.from(Instant.now().plusSeconds(60)));
        assertThat(janitor(Duration.ZERO).sweep(Set.of(A))).containsEntry(A, Outcome.LIVE);
        heldLocks.remove(0).release();
        AppDomainLease other = host("b", locks.resolve("b"));
        other.takeUnstarted(other.look(A), "run").orElseThrow();
        swarmClock.addAndGet(1);
        int[] reads = {0};
        store.logging(call -> {
            if (call.equals("read " + AppDomainLease.name(A)) && ++reads[0] == 2) {
                try {
                    hold(A); // a new run of the domain took the flock while the janitor watched
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        assertThat(leased(host("a", locks)).sweep(Set.of(A))).containsEntry(A, Outcome.LIVE);
        assertThat(reaped).isEmpty();
    }

    @Test
    void aTakeThatLosesOrFailsLeavesTheDomainAndAStopAfterTheFirstCandidateKeepsItsOutcome() throws Exception {
        AppDomainLease other = host("b", locks.resolve("b"));
        store.logging(call -> {
            if (call.equals("read " + AppDomainLease.name(A))) {
                store.logging(c -> { });
                try {
                    other.takeUnstarted(other.look(A), "run"); // another host's run wins between the janitor's look and take
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        assertThat(leased(host("a", locks)).sweep(Set.of(A))).containsEntry(A, Outcome.LIVE_ELSEWHERE);
        store.logging(call -> {
            if (call.equals("read " + AppDomainLease.name(B))) {
                store.unreachable(true);
            }
        });
        try {
            assertThat(leased(host("a", locks)).sweep(Set.of(B))).containsEntry(B, Outcome.LEASE_UNKNOWN);
        } finally {
            store.unreachable(false);
            store.logging(c -> { });
        }
        assertThat(reaped).isEmpty();
        int[] asked = {0};
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of(A, B), () -> ++asked[0] > 1)).containsOnlyKeys(A);
    }

    @Test
    void aStopDuringTheWatchEndsItWithNothingTakenAndKeepsTheInterrupt() throws Exception {
        AppDomainLease other = host("b", locks.resolve("b"));
        other.takeUnstarted(other.look(A), "run").orElseThrow();
        swarmClock.addAndGet(1);
        Thread sweeper = Thread.currentThread();
        store.logging(call -> {
            if (call.equals("read " + AppDomainLease.name(A))) {
                sweeper.interrupt();
            }
        });
        try {
            assertThat(leased(host("a", locks)).sweep(Set.of(A, B))).as("the orphan before the watch is reaped; A is left")
                    .containsExactlyEntriesOf(Map.of(B, Outcome.REAPED));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
            store.logging(c -> { });
        }
        assertThat(reaped).containsExactly(B);
    }

    @Test
    void onlyLockfilesOfRunAppsAreTidiedAndAnUnopenableOneIsSaid() throws Exception {
        Files.writeString(locks.resolve("x"), "");
        Files.createDirectory(AppDomainLock.path(locks, B));
        assertThat(janitor(Duration.ofHours(2)).sweep(Set.of())).containsExactlyEntriesOf(Map.of(B, Outcome.UNOPENABLE));
        assertThat(locks.resolve("x")).exists();
    }
}
