package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
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
                "run-" + name), TIMING, lost::add, LeaseRules.PROTOCOL, clock::get);
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
}
