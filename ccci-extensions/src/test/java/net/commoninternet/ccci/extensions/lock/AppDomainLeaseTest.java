package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real {@link AppDomainLease} and its {@link AppDomainLease.Held}, engine-free: an in-memory
 * stand-in for the managers' store ({@link InMemoryRecords}) and a clock the test moves. Times are
 * in hundreds of seconds so the lease's own heartbeat thread (which waits in real time) never wakes
 * during a test: every renewal here is the one the test makes.
 */
class AppDomainLeaseTest {

    private static final long S = 1_000_000_000L;
    /** TTL 800 s, heartbeat 200 s: the fence falls 533 s after the last confirmed renewal was sent. */
    private static final AppDomainLease.Timing TIMING = new AppDomainLease.Timing(Duration.ofSeconds(800), Duration.ofSeconds(200));
    private static final String DOMAIN = "lse-1e1e1e.ci.commoninternet.net";

    private final InMemoryRecords store = new InMemoryRecords();
    private final AtomicLong clock = new AtomicLong();
    private final List<String> lost = new CopyOnWriteArrayList<>();
    private final List<AppDomainLease.Held> held = new CopyOnWriteArrayList<>();

    @AfterEach
    void release() {
        store.unreachable(false);
        held.forEach(AppDomainLease.Held::release);
    }

    private AppDomainLease host(String name) {
        return new AppDomainLease(store, new AppDomainLease.Holder("host-" + name, "machine-" + name, Path.of("/run/lock"), 7,
                "run-" + name), TIMING, lost::add, new AppDomainLease.Judge(LeaseRules.PROTOCOL, clock::get));
    }

    private AppDomainLease.Held take(AppDomainLease lease, AppDomainLease.Seen seen) throws Exception {
        Optional<AppDomainLease.Held> taken = lease.take(seen, "run");
        taken.ifPresent(held::add);
        awaitHeartbeatParked();
        return taken.orElseThrow();
    }

    /**
     * Waits until the lease's heartbeat thread is parked in its timed wait (the heartbeat, 200 s of
     * real time away), having read the clock as the test left it: from here only the test renews.
     */
    static void awaitHeartbeatParked() throws InterruptedException {
        long deadline = System.nanoTime() + 10 * S;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("ccci-lease-heartbeat-")
                && t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.TERMINATED)) {
            assertThat(System.nanoTime()).as("the heartbeat thread parks").isLessThan(deadline);
            Thread.onSpinWait(); // polling a thread's state, not a proof
        }
    }

    /**
     * Found by the model checker (ProtocolModelTest): a renewal applied whose answer was lost, then a
     * retry whose compare-and-swap loses to that very write. The retry reads the record back, finds its
     * own token and renewal number there (both attempts carry the same one), and took the credit: the
     * holder counted itself confirmed from the retry's sending, later than the write a contender watched.
     * The contender then takes the lease over while the holder still thinks it may act.
     */
    @Test
    void aRenewalWhoseAnswerWasLostIsCreditedFromItsOwnSendingNotFromTheRetryThatFoundIt() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease b = host("b");
        AppDomainLease.Held lease = take(a, a.look(DOMAIN));

        clock.set(200 * S); // the first renewal is applied; the manager dies before its answer
        store.failReads(1);
        assertThat(lease.reconfirm()).isTrue();
        AppDomainLease.Seen watched = b.look(DOMAIN); // B first reads the version that renewal wrote
        assertThat(watched.record().orElseThrow().label(AppDomainLease.RENEWAL)).isEqualTo("1");

        clock.set(500 * S); // the retry: its CAS loses to the write above, and its read finds that write
        assertThat(lease.reconfirm()).isTrue();
        assertThat(store.all()).as("the retry wrote nothing: the record is the one B watches").extracting(r -> r.version())
                .containsExactly(watched.version());

        clock.set(1000 * S); // B has watched that version for the TTL on its clock: expired
        assertThat(a.rules().watch(watched, b.look(DOMAIN), clock.get(), TIMING.ttl())).isEqualTo(LeaseRules.Watch.EXPIRED);
        AppDomainLease.Held taken = take(b, watched);
        assertThat(taken.confirmed()).isTrue();
        assertThat(lease.confirmed())
                .as("the holder's only write was sent at 200 s, 800 s ago: its fence (533 s) has passed")
                .isFalse();
    }

    private static final String OTHER = "lse-2f2f2f.ci.commoninternet.net";
    /** Real-clock times for the threaded paths: the fence 400 ms after the last confirmed renewal, polls every 37 ms. */
    private static final AppDomainLease.Timing SHORT = new AppDomainLease.Timing(Duration.ofMillis(600), Duration.ofMillis(150));

    private AppDomainLease realClock(String name, AppDomainLease.Timing timing) {
        return new AppDomainLease(store, new AppDomainLease.Holder("host-" + name, "machine-" + name, Path.of("/run/lock"), 7,
                "run-" + name), timing, lost::add);
    }

    private String label(String key) throws IOException {
        return store.read(AppDomainLease.name(DOMAIN)).orElseThrow().label(key);
    }

    @Test
    void theTimesDeriveFromTheTtlAndTheHeartbeat() {
        assertThat(TIMING.fenceAfter()).isEqualTo(Duration.ofNanos(533_333_333_333L));
        assertThat(TIMING.suspectAfter()).isEqualTo(Duration.ofSeconds(400));
        assertThat(TIMING.retry()).isEqualTo(Duration.ofSeconds(1));
        assertThat(TIMING.poll()).isEqualTo(Duration.ofMillis(250));
        assertThat(SHORT.retry()).isEqualTo(Duration.ofMillis(150));
        assertThat(SHORT.poll()).isEqualTo(Duration.ofMillis(150).dividedBy(4));
        assertThat(AppDomainLease.Timing.DEFAULT.fenceAfter()).isEqualTo(Duration.ofSeconds(60));
        AppDomainLease.Holder me = AppDomainLease.Holder.of(Path.of("/run/lock/../lock"), "r1");
        assertThat(me.lockDir()).isEqualTo(Path.of("/run/lock"));
        assertThat(me.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(me.flockScope()).startsWith(me.machine() + " /run/lock ");
        assertThat(me.host()).isNotBlank();
    }

    @Test
    void aTakeCreatesTheRecordWithItsHolderAndLosesToAnotherCreate() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease.Seen free = a.look(DOMAIN);
        assertThat(free.absent()).isTrue();
        assertThat(free.released()).isFalse();
        assertThat(free.holder()).isEqualTo("nobody");
        take(a, free);
        AppDomainLease.Seen held = a.look(DOMAIN);
        assertThat(held.holder()).isEqualTo("run run-a (pid 7) on host host-a");
        assertThat(label(AppDomainLease.STATE)).isEqualTo(AppDomainLease.HELD);
        assertThat(label(AppDomainLease.PURPOSE)).isEqualTo("run");
        assertThat(label(AppDomainLease.RENEWAL)).isEqualTo("0");
        assertThat(label(AppDomainLease.SCOPE)).isEqualTo(a.holder().flockScope()).startsWith("machine-a /run/lock ");
        assertThat(label(AppDomainLease.LEASE)).isEqualTo(DOMAIN);
        assertThat(label(AppDomainLease.MACHINE_LABEL)).isEqualTo("machine-a");
        assertThat(label(AppDomainLease.STARTED)).isNotEmpty();
        assertThat(host("b").take(free, "run")).as("the create of a name that exists is refused").isEmpty();
        assertThat(host("b").heldFromHere(held)).isFalse();
        assertThat(a.heldFromHere(held)).isTrue();
        assertThat(a.leasedDomains(AppNaming.DEFAULT_SUFFIX)).containsExactly(DOMAIN);
    }

    @Test
    void aReleasedRecordIsReplacedAndAHeldOneTakenOnlyFromTheVersionSeen() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease b = host("b");
        AppDomainLease.Held first = take(a, a.look(DOMAIN));
        AppDomainLease.Seen stale = b.look(DOMAIN);
        clock.set(1);
        first.reconfirm();
        assertThat(b.take(stale, "run")).as("a renewal since the read makes the take lose").isEmpty();
        AppDomainLease.Held second = take(b, b.look(DOMAIN));
        assertThat(label(AppDomainLease.TOKEN)).isNotEmpty();
        assertThat(first.reconfirm()).as("the old holder finds the record taken").isFalse();
        assertThat(first.lostBecause()).get().asString().contains("was taken over").contains("run run-b");
        assertThat(lost).hasSize(1);
        second.release();
        assertThat(store.all()).isEmpty();
        AppDomainLease.Held third = take(a, a.look(DOMAIN));
        third.release();
        third.release();
        assertThat(store.all()).isEmpty();
    }

    @Test
    void aReleasedRecordLeftBehindIsDeletedAndCreatedAnew() throws Exception {
        AppDomainLease a = host("a");
        Map<String, String> released = a.labels(DOMAIN, "old", "run", 4, AppDomainLease.RELEASED);
        SwarmRecords.Stored old = store.create(AppDomainLease.name(DOMAIN), released).orElseThrow();
        AppDomainLease.Seen seen = a.look(DOMAIN);
        assertThat(seen.released()).isTrue();
        assertThat(seen.absent()).isFalse();
        assertThat(a.provenGone(seen)).isFalse();
        take(a, seen);
        assertThat(store.read(old.id())).isEmpty();
        assertThat(label(AppDomainLease.STATE)).isEqualTo(AppDomainLease.HELD);
    }

    @Test
    void aHolderIsProvenGoneOnlyByItsFlockScopeOrItsDeadProcessOnThisMachine() throws Exception {
        AppDomainLease me = new AppDomainLease(store, AppDomainLease.Holder.of(Path.of("/tmp/other-locks"), "r"), TIMING,
                lost::add, new AppDomainLease.Judge(LeaseRules.PROTOCOL, clock::get));
        AppDomainLease sameMachine = new AppDomainLease(store, AppDomainLease.Holder.of(Path.of("/tmp/locks"), "r"), TIMING,
                lost::add, new AppDomainLease.Judge(LeaseRules.PROTOCOL, clock::get));
        Map<String, String> alive = sameMachine.labels(DOMAIN, "t", "run", 0, AppDomainLease.HELD);
        store.create(AppDomainLease.name(DOMAIN), alive);
        AppDomainLease.Seen held = me.look(DOMAIN);
        assertThat(me.provenGone(held)).as("this very process, alive").isFalse();
        assertThat(sameMachine.provenGone(held)).as("held from the caller's own flock scope").isTrue();
        assertThat(host("z").provenGone(held)).as("another machine's").isFalse();
        assertThat(me.provenGone(me.look(OTHER))).isFalse();
        for (Map.Entry<String, String> pid : Map.of("dead", "999999999", "unreadable", "x").entrySet()) {
            Map<String, String> labels = new HashMap<>(alive);
            labels.put(AppDomainLease.PID, pid.getValue());
            SwarmRecords.Stored r = new SwarmRecords.Stored("id", "n", 1, Instant.EPOCH, labels);
            assertThat(me.provenGone(new AppDomainLease.Seen(DOMAIN, Optional.of(r), 0)))
                    .as(pid.getKey()).isEqualTo(pid.getKey().equals("dead"));
        }
        Map<String, String> restarted = new HashMap<>(alive);
        restarted.put(AppDomainLease.STARTED, "1");
        SwarmRecords.Stored r = new SwarmRecords.Stored("id", "n", 1, Instant.EPOCH, restarted);
        assertThat(me.provenGone(new AppDomainLease.Seen(DOMAIN, Optional.of(r), 0))).as("the pid now names another process")
                .isTrue();
    }

    @Test
    void aLeaseLooksStaleOnceTheSwarmsClockIsTwoHeartbeatsPastItsLastWrite() throws Exception {
        AppDomainLease a = host("a");
        AtomicLong swarm = new AtomicLong(1000);
        store.stampedBy(swarm::get);
        take(a, a.look(DOMAIN));
        AppDomainLease.Seen seen = a.look(DOMAIN);
        swarm.set(1399);
        assertThat(a.looksStale(seen, a.swarmNow())).isFalse();
        swarm.set(1400);
        assertThat(a.looksStale(seen, a.swarmNow())).isTrue();
        assertThat(a.looksStale(a.look(OTHER), a.swarmNow())).isFalse();
    }

    @Test
    void aWatchEndsWithTheExpiredOnesTheRenewedOnesLeftAndAStopEndsIt() throws Exception {
        AppDomainLease a = realClock("a", SHORT);
        AppDomainLease b = realClock("b", SHORT);
        AppDomainLease.Held idle = a.takeUnstarted(a.look(DOMAIN), "run").orElseThrow();
        held.add(idle);
        AppDomainLease.Held renewing = a.takeUnstarted(a.look(OTHER), "run").orElseThrow();
        held.add(renewing);
        List<AppDomainLease.Seen> watched = List.of(b.look(DOMAIN), b.look(OTHER));
        renewing.renew();
        assertThat(b.expired(watched, () -> false)).extracting(AppDomainLease.Seen::domain).containsExactly(DOMAIN);
        assertThat(b.expired(watched, () -> true)).isEmpty();
        store.unreachable(true);
        assertThat(b.expired(watched, () -> false)).as("unreadable: left for the next sweep").isEmpty();
    }

    @Test
    void aWaitingRunTakesTheLeaseOnItsReleaseOrItsExpiryAndAStopEndsTheWait() throws Exception {
        AppDomainLease a = realClock("a", SHORT);
        AppDomainLease b = realClock("b", SHORT);
        AppDomainLease.Held first = a.acquire(DOMAIN, "run");
        held.add(first);
        CompletableFuture<AppDomainLease.Held> waiting = acquiring(b, DOMAIN);
        awaitCondition(() -> store.all().size() == 1 && !waiting.isDone());
        first.release();
        AppDomainLease.Held second = waiting.get(10, TimeUnit.SECONDS);
        held.add(second);
        assertThat(second.confirmed()).isTrue();
        assertThat(label(AppDomainLease.HOST)).isEqualTo("host-b");

        // a holder that stops renewing (no heartbeat here) is taken over once unchanged for the TTL
        AppDomainLease.Held silent = a.takeUnstarted(a.look(OTHER), "run").orElseThrow();
        held.add(silent);
        long before = System.nanoTime();
        AppDomainLease.Held taken = b.acquire(OTHER, "run");
        held.add(taken);
        assertThat(System.nanoTime() - before).isGreaterThanOrEqualTo(SHORT.ttl().toNanos());

        Thread self = Thread.currentThread();
        CompletableFuture.runAsync(() -> {
            awaitCondition(() -> self.getState() == Thread.State.TIMED_WAITING);
            self.interrupt();
        });
        assertThatThrownBy(() -> a.acquire(OTHER, "run")).isInstanceOf(InterruptedException.class)
                .hasMessageContaining("waiting for the app lease of " + OTHER);
    }

    @Test
    void aWaitRidesOutManagersThatDoNotAnswer() throws Exception {
        AppDomainLease a = realClock("a", SHORT);
        store.unreachable(true);
        CompletableFuture<AppDomainLease.Held> waiting = acquiring(a, DOMAIN);
        assertThatThrownBy(() -> waiting.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        store.unreachable(false);
        held.add(waiting.get(10, TimeUnit.SECONDS));
        assertThat(store.all()).hasSize(1);
    }

    @Test
    void theHeartbeatRenewsAndTheFenceStopsAHolderCutOffFromTheManagers() throws Exception {
        AppDomainLease a = realClock("a", SHORT);
        AppDomainLease.Held lease = a.acquire(DOMAIN, "run");
        held.add(lease);
        String stack = AppNaming.stackName(DOMAIN);
        assertThat(DomainFence.mayAct(stack)).isTrue();
        awaitCondition(() -> {
            try {
                return Long.parseLong(label(AppDomainLease.RENEWAL)) >= 2;
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(lease.confirmed()).isTrue();
        assertThat(lost).isEmpty();
        store.unreachable(true);
        awaitCondition(() -> !lost.isEmpty());
        assertThat(lost).hasSize(1);
        assertThat(lost.get(0)).contains("no renewal of the app lease of " + DOMAIN + " was confirmed for 0 s");
        assertThat(lease.confirmed()).isFalse();
        assertThat(DomainFence.mayAct(stack)).as("the teardown removes nothing once fenced").isFalse();
        assertThat(lease.reconfirm()).isFalse();
        lease.release();
        assertThat(DomainFence.mayAct(stack)).as("the guard goes with its lease").isTrue();
        store.unreachable(false);
        assertThat(label(AppDomainLease.STATE)).as("a lost lease is not released").isEqualTo(AppDomainLease.HELD);
    }

    @Test
    void aReleaseTheManagersDoNotAnswerLeavesTheRecordToExpire() throws Exception {
        AppDomainLease a = realClock("a", SHORT);
        AppDomainLease.Held lease = a.takeUnstarted(a.look(DOMAIN), "run").orElseThrow();
        store.unreachable(true);
        lease.release();
        store.unreachable(false);
        assertThat(label(AppDomainLease.STATE)).isEqualTo(AppDomainLease.HELD);
        assertThat(lease.confirmed()).isFalse();
        assertThat(lease.domain()).isEqualTo(DOMAIN);
        assertThat(a.timing()).isEqualTo(SHORT);
        assertThat(a.holder().runId()).isEqualTo("run-a");
    }

    /** {@code lease.acquire(domain)} on a thread of its own. */
    private static CompletableFuture<AppDomainLease.Held> acquiring(AppDomainLease lease, String domain) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lease.acquire(domain, "run");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void awaitCondition(BooleanSupplier condition) {
        long deadline = System.nanoTime() + 10 * S;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("the condition comes").isLessThan(deadline);
            try {
                Thread.sleep(5); // polling for a state, not a proof
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    void theFenceFiresOnlyWhenDueAndALeaseWhoseRecordIsGoneIsLost() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease.Held lease = take(a, a.look(DOMAIN));
        assertThat(lease.fenceIfDue()).isFalse();
        clock.set(200 * S);
        assertThat(lease.reconfirm()).isTrue();
        assertThat(label(AppDomainLease.RENEWAL)).isEqualTo("1");
        assertThat(lease.reconfirm()).isTrue();
        assertThat(label(AppDomainLease.RENEWAL)).as("each confirmed renewal numbers the next").isEqualTo("2");
        clock.set(734 * S);
        assertThat(lease.fenceIfDue()).isTrue();
        assertThat(lease.lostBecause()).get().asString().startsWith("no renewal of the app lease of " + DOMAIN);
        assertThat(lost).hasSize(1);

        AppDomainLease.Held other = take(a, a.look(OTHER));
        store.delete(store.read(AppDomainLease.name(OTHER)).orElseThrow().id());
        assertThat(other.reconfirm()).isFalse();
        assertThat(other.lostBecause()).get().asString().endsWith("(it is gone)");
    }

    @Test
    void anInterruptDuringAReconfirmOrAReleaseIsKeptAndTheCallThreadEnds() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease.Held lease = take(a, a.look(DOMAIN));
        Thread.currentThread().interrupt();
        lease.reconfirm();
        assertThat(Thread.interrupted()).isTrue();
        Thread.currentThread().interrupt();
        lease.release();
        assertThat(Thread.interrupted()).isTrue();
        awaitCondition(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("ccci-lease-call-" + DOMAIN) && t.isAlive()));
    }

    @Test
    void acquireTakesAFreeDomainWithOneCreateAndAnExpiredOneWithOneSwap() throws Exception {
        AppDomainLease a = host("a");
        AppDomainLease.Held first = a.acquire(DOMAIN, "run");
        held.add(first);
        awaitHeartbeatParked();
        assertThat(store.read(AppDomainLease.name(DOMAIN)).orElseThrow().version()).as("one create, nothing more").isEqualTo(1);

        AppDomainLease.Held silent = a.takeUnstarted(a.look(OTHER), "run").orElseThrow();
        held.add(silent);
        long created = store.read(AppDomainLease.name(OTHER)).orElseThrow().version();
        AtomicLong ticking = new AtomicLong();
        AppDomainLease b = new AppDomainLease(store, new AppDomainLease.Holder("host-b", "machine-b", Path.of("/run/lock"), 8,
                "run-b"), TIMING, lost::add, new AppDomainLease.Judge(LeaseRules.PROTOCOL, () -> ticking.addAndGet(100 * S)));
        AppDomainLease.Held taken = b.acquire(OTHER, "run");
        held.add(taken);
        awaitHeartbeatParked();
        SwarmRecords.Stored now = store.read(AppDomainLease.name(OTHER)).orElseThrow();
        assertThat(now.label(AppDomainLease.HOST)).isEqualTo("host-b");
        assertThat(now.version()).as("one compare-and-swap from the version watched").isEqualTo(created + 1);
        assertThat(lost).isEmpty();
    }
}
