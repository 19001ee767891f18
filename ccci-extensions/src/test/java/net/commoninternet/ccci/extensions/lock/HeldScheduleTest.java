package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The lease's own threads under Lincheck's model checker, which runs the real code on threads it
 * schedules itself and explores their interleavings: the heartbeat's fence check, the call thread's
 * renewal and the run's teardown (the fence's check before a removal pass), on a lease whose last
 * confirmed renewal is older than the fence. In-memory store, a clock the test sets.
 *
 * <p>Invariants: the teardown removes the app only once a renewal was confirmed (the store read it
 * back before the teardown asked the fence); once the fence fired, no renewal or release of the lease
 * goes out (the guard that lets a write through never sees the lease lost).
 */
class HeldScheduleTest {

    private static final AppDomainLease.Timing TIMING = new AppDomainLease.Timing(Duration.ofSeconds(6), Duration.ofSeconds(1));
    private static final String DOMAIN = "sch-5c5c5c.ci.commoninternet.net";
    /** Schedules explored where no bug is (a seeded bug is found within far fewer; each costs the model checker tens of ms). */
    private static final int PASSING = 30;
    private static final int INVOCATIONS = 50;

    private static final ch.qos.logback.classic.Logger LEASE_LOG =
            (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AppDomainLease.class);

    /** The fence's error line is the lease's business, not the schedule's: the logging library stays out of it. */
    @BeforeAll
    static void quiet() {
        LEASE_LOG.setLevel(ch.qos.logback.classic.Level.OFF);
    }

    @AfterAll
    static void loud() {
        LEASE_LOG.setLevel(null);
    }

    /** The rules under test, telling the log when their guard let a write of a lost lease through. */
    private static LeaseRules watched(LeaseRules rules, List<String> log) {
        return new LeaseRules() {
            @Override
            boolean mayRenew(boolean released, boolean lost) {
                boolean may = rules.mayRenew(released, lost);
                if (may && lost) {
                    log("a write of the lost lease let through", log);
                }
                return may;
            }

            @Override
            boolean confirmed(boolean lost, boolean released, long confirmedAt, long now, Duration fenceAfter) {
                return rules.confirmed(lost, released, confirmedAt, now, fenceAfter);
            }

            @Override
            boolean fenceDue(long confirmedAt, long now, Duration fenceAfter) {
                return rules.fenceDue(confirmedAt, now, fenceAfter);
            }
        };
    }

    private static void log(String event, List<String> log) {
        synchronized (log) {
            log.add(event);
        }
    }

    /** One schedule of the three threads; throws an AssertionError naming the invariant it broke. */
    private static void race(LeaseRules rules) {
        List<String> log = new ArrayList<>();
        InMemoryRecords store = new InMemoryRecords();
        AtomicLong clock = new AtomicLong();
        AppDomainLease lease = new AppDomainLease(store, new AppDomainLease.Holder("host-a", "machine-a", Path.of("/run/lock"), 7,
                "run-a"), TIMING, why -> log("lost", log), new AppDomainLease.Judge(watched(rules, log), clock::get));
        String app;
        AppDomainLease.Held held;
        try {
            app = store.create("app-of-" + DOMAIN, Map.of()).orElseThrow().id();
            held = lease.takeUnstarted(lease.look(DOMAIN), "run").orElseThrow();
            store.logging(call -> log(call, log));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String record = store.all().get(1).id();
        clock.set(TIMING.fenceAfter().toNanos() + 1); // no renewal confirmed since the take: the fence is due
        Thread heartbeat = new Thread(held::fenceIfDue);
        Thread call = new Thread(() -> {
            try {
                held.renew();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread teardown = new Thread(() -> {
            boolean may = DomainFence.mayAct(AppNaming.stackName(DOMAIN));
            log("the teardown may act: " + may, log);
            if (may) {
                try {
                    store.delete(app);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        List.of(heartbeat, call, teardown).forEach(Thread::start);
        try {
            for (Thread t : List.of(heartbeat, call, teardown)) {
                t.join();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        DomainFence.unguard(AppNaming.stackName(DOMAIN), held::confirmed);
        List<String> events;
        synchronized (log) {
            events = List.copyOf(log);
        }
        int mayAct = events.indexOf("the teardown may act: true");
        int readBack = events.indexOf("read " + record);
        if (mayAct >= 0 && (readBack < 0 || readBack > mayAct)) {
            throw new AssertionError("the teardown acted on a lease whose fence had passed before any renewal was confirmed: "
                    + events);
        }
        if (events.contains("a write of the lost lease let through")) {
            throw new AssertionError("a renewal or release went out after the fence: " + events);
        }
    }

    @Test
    void noScheduleLetsTheTeardownActUnconfirmedOrAFencedLeaseWrite() {
        Lincheck.runConcurrentTest(PASSING, () -> race(LeaseRules.PROTOCOL));
    }

    @Test
    void theFenceOffIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> race(SeededBug.FENCE_OFF.rules())))
                .isInstanceOf(AssertionError.class).hasMessageContaining("the teardown acted on a lease whose fence had passed");
    }

    @Test
    void theHeartbeatThatRenewsAfterTheFenceIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> race(SeededBug.RENEW_AFTER_FENCE.rules())))
                .isInstanceOf(AssertionError.class).hasMessageContaining("a renewal or release went out after the fence");
    }
}
