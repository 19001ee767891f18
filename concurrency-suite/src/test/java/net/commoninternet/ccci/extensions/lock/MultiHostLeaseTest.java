package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.ForkShares.OnTheTestBed;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.MultiNodeSwarm;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.LeaseHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two simulated runner hosts on a real three-manager swarm ({@code scripts/multinode-swarm}):
 * host A and host B have their own lock folders, their own host ids and their own manager
 * sockets, so only the swarm's lease can make them agree. Every test forces its interleaving: a
 * holder process that says it holds, a SIGKILL, a SIGSTOP/SIGCONT, a latch inside a reaper, a
 * killed dockerd. Times are the lease's own (TTL {@value #TTL} s, heartbeat {@value #HEARTBEAT} s):
 * an expiry is waited for because the protocol demands it, and asserted as a lower bound.
 * Nothing here touches the main engine.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@OnTheTestBed
@RealEngine
class MultiHostLeaseTest {

    private static final long TTL = 6;
    private static final long HEARTBEAT = 1;
    private static final AppDomainLease.Timing TIMING =
            new AppDomainLease.Timing(Duration.ofSeconds(TTL), Duration.ofSeconds(HEARTBEAT));
    private static final String SERIAL = "i15s-5e5e5e.ci.commoninternet.net";
    private static final String KILLED = "i15k-dead00.ci.commoninternet.net";
    private static final String LIVE = "i15l-11ee11.ci.commoninternet.net";
    private static final String ORPHAN = "i15o-0f0f0f.ci.commoninternet.net";
    private static final String NODE_DIES = "i15n-d1ed1e.ci.commoninternet.net";

    @TempDir
    Path sandbox;
    private Path locksA;
    private Path locksB;
    private final List<DockerEngine> engines = new ArrayList<>();

    @BeforeAll
    static void testBedUp() throws Exception {
        MultiNodeSwarm.up();
    }

    @AfterAll
    static void testBedDown() throws Exception {
        MultiNodeSwarm.down();
    }

    @BeforeEach
    void lockFolders() throws Exception {
        locksA = Files.createDirectories(sandbox.resolve("host-a-locks"));
        locksB = Files.createDirectories(sandbox.resolve("host-b-locks"));
    }

    @AfterEach
    void closeEngines() throws Exception {
        for (DockerEngine engine : engines) {
            engine.close();
        }
    }

    private DockerEngine engine(int node) {
        DockerEngine engine = DockerEngine.connect(MultiNodeSwarm.socket(node));
        engines.add(engine);
        return engine;
    }

    private AppDomainLease leases(DockerEngine engine, String host, Path lockDir, List<String> lost) {
        return new AppDomainLease(new SwarmRecords(engine.http()),
                new AppDomainLease.Holder(host, host, lockDir, ProcessHandle.current().pid(), "run-" + host), TIMING, lost::add);
    }

    private Helper holder(int node, Path lockDir, String host, String domain) throws Exception {
        return Helper.jvm(LeaseHolder.class, MultiNodeSwarm.socket(node), lockDir.toString(), host, domain,
                Long.toString(TTL), Long.toString(HEARTBEAT));
    }

    /** A one-task stack on node {@code on} (a task that runs until removed), deployed through node {@code via}. */
    private void app(String domain, int via, int on) throws Exception {
        Path compose = sandbox.resolve(domain + ".yml");
        Files.writeString(compose, """
                services:
                  app:
                    image: %s
                    command: ["sleep", "100000"]
                    stop_grace_period: 1s
                    deploy:
                      replicas: 1
                      placement: {constraints: ["node.labels.ccci.msw.node == %s"]}
                """.formatted(LocalImages.BUSYBOX, MultiNodeSwarm.name(on)));
        MultiNodeSwarm.deploy(via, compose, AppNaming.stackName(domain));
    }

    private static Janitor.Reaper tearingDown(DockerEngine engine, List<Long> reapedAt) {
        StackTeardown teardown = new StackTeardown(engine.client());
        return domain -> {
            reapedAt.add(System.nanoTime());
            List<String> left = teardown.teardown(AppNaming.stackName(domain));
            if (!left.isEmpty()) {
                throw new IllegalStateException("left: " + left);
            }
        };
    }

    private static boolean services(DockerEngine engine, String domain) {
        return !engine.client().listServicesCmd().withNameFilter(List.of(AppNaming.stackName(domain) + "_app")).exec().isEmpty();
    }

    @Test
    @Order(1)
    void theSameDomainFromTwoHostsStrictlySerialises() throws Exception {
        DockerEngine b = engine(2);
        List<String> lostB = new CopyOnWriteArrayList<>();
        try (Helper hostA = holder(1, locksA, "sim-a", SERIAL); LogCapture log = new LogCapture(AppDomainLease.class)) {
            hostA.awaitLine("held ");
            CompletableFuture<DomainClaim> hostB = CompletableFuture.supplyAsync(() -> {
                try {
                    return DomainClaim.take(locksB, SERIAL, leases(b, "sim-b", locksB, lostB));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // B waits, visibly, while A holds: across several of A's heartbeats, never taking it
            awaitLog(log, SERIAL + " is held by run run-sim-a");
            SwarmRecords.Stored before = new SwarmRecords(b.http()).read(AppDomainLease.name(SERIAL)).orElseThrow();
            awaitRenewal(b, SERIAL, before.version());
            assertThat(hostB).isNotDone();

            assertThat(hostA.finish()).isZero();
            assertThat(hostA.output()).contains("released confirmed=true").doesNotContain("lost:");
            DomainClaim claimB = hostB.get(30, TimeUnit.SECONDS);
            SwarmRecords.Stored now = new SwarmRecords(b.http()).read(AppDomainLease.name(SERIAL)).orElseThrow();
            assertThat(now.label(AppDomainLease.HOST)).isEqualTo("sim-b");
            assertThat(claimB.mayAct()).isTrue();
            claimB.release();
            assertThat(new SwarmRecords(b.http()).read(AppDomainLease.name(SERIAL))).isEmpty();
            assertThat(lostB).isEmpty();
        }
    }

    @Test
    @Order(2)
    void aSigkilledHoldersAppIsReapedByTheOtherHostOnlyAfterItsLeaseExpired() throws Exception {
        DockerEngine b = engine(2);
        List<Long> reapedAt = new CopyOnWriteArrayList<>();
        long killedAt;
        try (Helper hostA = holder(1, locksA, "sim-a", KILLED)) {
            hostA.awaitLine("held ");
            app(KILLED, 1, 3);
            hostA.kill();
            killedAt = System.nanoTime();
        }
        Janitor janitorB = new Janitor(locksB, Duration.ofHours(2), tearingDown(b, reapedAt),
                leases(b, "sim-b", locksB, new ArrayList<>()));
        // right after the kill the lease is fresh by the swarm's clock: host A may be alive, so hands off
        assertThat(janitorB.sweep(Set.of(KILLED))).containsEntry(KILLED, Janitor.Outcome.LIVE_ELSEWHERE);
        assertThat(services(b, KILLED)).isTrue();
        assertThat(reapedAt).isEmpty();

        // once it looks stale, the janitor watches it for the TTL and only then reaps
        Map<String, Janitor.Outcome> outcome = sweepUntilDecided(janitorB, KILLED);
        assertThat(outcome).containsEntry(KILLED, Janitor.Outcome.REAPED);
        assertThat(reapedAt).hasSize(1);
        assertThat(reapedAt.get(0) - killedAt).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(TTL));
        assertThat(services(b, KILLED)).isFalse();
        assertThat(new StackTeardown(b.client()).leftovers(AppNaming.stackName(KILLED))).isEmpty();
        assertThat(new SwarmRecords(b.http()).read(AppDomainLease.name(KILLED))).isEmpty();
    }

    @Test
    @Order(3)
    void hostAsJanitorLeavesHostBsLiveAppEvenWhenBWasPausedLongEnoughToLookStale() throws Exception {
        DockerEngine a = engine(1);
        List<Long> reapedAt = new CopyOnWriteArrayList<>();
        try (Helper hostB = holder(2, locksB, "sim-b", LIVE); LogCapture log = new LogCapture(Janitor.class)) {
            hostB.awaitLine("held ");
            app(LIVE, 2, 2);
            AppDomainLease leasesA = leases(a, "sim-a", locksA, new ArrayList<>());
            Janitor janitorA = new Janitor(locksA, Duration.ofHours(2), tearingDown(a, reapedAt), leasesA);
            assertThat(janitorA.sweep(Set.of(LIVE))).containsEntry(LIVE, Janitor.Outcome.LIVE_ELSEWHERE);

            // B paused (SIGSTOP) until its lease looks stale, A's janitor starts watching it, then B resumes
            hostB.signal(19);
            try {
                while (!leasesA.looksStale(leasesA.look(LIVE), leasesA.swarmNow())) {
                    Thread.sleep(100); // polling until the state the test needs, not a proof
                }
                CompletableFuture<Map<String, Janitor.Outcome>> sweep = CompletableFuture.supplyAsync(() -> janitorA.sweep(Set.of(LIVE)));
                awaitLog(log, LIVE + "'s lease, held by run run-sim-b");
                assertThat(sweep).isNotDone();
                hostB.signal(18);
                assertThat(sweep.get(30, TimeUnit.SECONDS)).containsEntry(LIVE, Janitor.Outcome.LIVE_ELSEWHERE);
            } finally {
                hostB.signal(18);
            }
            assertThat(reapedAt).isEmpty();
            assertThat(services(a, LIVE)).isTrue();
            assertThat(hostB.finish()).isZero();
            assertThat(hostB.output()).contains("released confirmed=true").doesNotContain("lost:");
        } finally {
            new StackTeardown(a.client()).teardown(AppNaming.stackName(LIVE));
        }
    }

    @Test
    @Order(4)
    void twoJanitorsOnTwoHostsRacingOnOneOrphanOneReapsTheOtherLeaves() throws Exception {
        DockerEngine a = engine(1);
        DockerEngine b = engine(2);
        app(ORPHAN, 1, 3);
        CyclicBarrier start = new CyclicBarrier(2);
        CountDownLatch loserDone = new CountDownLatch(1);
        AtomicInteger reaps = new AtomicInteger();
        Map<String, Janitor.Outcome> outcomes = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> janitors = new ArrayList<>();
        for (String host : List.of("sim-a", "sim-b")) {
            DockerEngine engine = host.equals("sim-a") ? a : b;
            Path locks = host.equals("sim-a") ? locksA : locksB;
            StackTeardown teardown = new StackTeardown(engine.client());
            Janitor janitor = new Janitor(locks, Duration.ofHours(2), domain -> {
                reaps.incrementAndGet();
                // the winner reaps only once the loser has decided: the loser decided while the winner held the lease
                assertThat(loserDone.await(60, TimeUnit.SECONDS)).isTrue();
                teardown.teardown(AppNaming.stackName(domain));
            }, leases(engine, host, locks, new ArrayList<>()));
            janitors.add(CompletableFuture.runAsync(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                Janitor.Outcome outcome = janitor.sweep(Set.of(ORPHAN)).get(ORPHAN);
                outcomes.put(host, outcome);
                if (outcome != Janitor.Outcome.REAPED) {
                    loserDone.countDown();
                }
            }));
        }
        CompletableFuture.allOf(janitors.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        assertThat(reaps).hasValue(1);
        assertThat(outcomes.values()).containsExactlyInAnyOrder(Janitor.Outcome.REAPED, Janitor.Outcome.LIVE_ELSEWHERE);
        assertThat(services(a, ORPHAN)).isFalse();
        assertThat(new SwarmRecords(a.http()).read(AppDomainLease.name(ORPHAN))).isEmpty();
    }

    @Test
    @Order(5)
    void aHolderWhoseNodeIsKilledStopsItselfBeforeTheWaitingRunTakesOverAndReapsItsApp() throws Exception {
        int leader = MultiNodeSwarm.leader(1);
        int doomed = leader == 3 ? 2 : 3;
        int survivor = leader;
        DockerEngine a = engine(doomed);
        DockerEngine b = engine(survivor);
        List<String> lostA = new CopyOnWriteArrayList<>();
        AtomicLong lostAt = new AtomicLong();
        AppDomainLease leasesA = new AppDomainLease(new SwarmRecords(a.http()),
                new AppDomainLease.Holder("sim-a", "sim-a", locksA, ProcessHandle.current().pid(), "run-sim-a"), TIMING,
                why -> {
                    lostAt.compareAndSet(0, System.nanoTime());
                    lostA.add(why);
                });
        DomainClaim claimA = DomainClaim.take(locksA, NODE_DIES, leasesA);
        app(NODE_DIES, doomed, doomed);
        try (LogCapture log = new LogCapture(AppDomainLease.class)) {
            CompletableFuture<DomainClaim> hostB = CompletableFuture.supplyAsync(() -> {
                try {
                    return DomainClaim.take(locksB, NODE_DIES, leases(b, "sim-b", locksB, new ArrayList<>()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitLog(log, NODE_DIES + " is held by run run-sim-a");
            MultiNodeSwarm.killEngine(doomed);
            DomainClaim claimB = hostB.get(60, TimeUnit.SECONDS);
            long takenAt = System.nanoTime();
            // A (cut off from its manager) fenced itself before B could take over
            assertThat(lostA).hasSize(1);
            assertThat(lostA.get(0)).contains("no renewal of the app lease of " + NODE_DIES);
            assertThat(lostAt.get()).isLessThan(takenAt);
            assertThat(claimA.mayAct()).isFalse();
            // B proceeds: what A's app left is removed through the managers; the dead node's own containers wait for it
            List<String> left = new StackTeardown(b.client()).teardown(AppNaming.stackName(NODE_DIES));
            assertThat(left).isEmpty();
            assertThat(services(b, NODE_DIES)).isFalse();
            claimB.release();
            claimA.release();
        }
        // the last test: the node stays dead until @AfterAll's down
    }

    /** Sweeps until the janitor decides (a sweep that watched and expired reaps in the same call). */
    private static Map<String, Janitor.Outcome> sweepUntilDecided(Janitor janitor, String domain) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TTL * 5);
        while (true) {
            Map<String, Janitor.Outcome> outcome = janitor.sweep(Set.of(domain));
            if (outcome.get(domain) != Janitor.Outcome.LIVE_ELSEWHERE || System.nanoTime() > deadline) {
                return outcome;
            }
            Thread.sleep(200); // the next sweep, as a later run's would be
        }
    }

    private static void awaitLog(LogCapture log, String fragment) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (log.lines().stream().noneMatch(l -> l.contains(fragment))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no log line with '" + fragment + "' in " + log.lines());
            }
            Thread.sleep(20); // polling for a line, not a proof
        }
    }

    /** Waits until the lease's version moved past {@code version}: its holder renewed it. */
    private static void awaitRenewal(DockerEngine engine, String domain, long version) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        SwarmRecords records = new SwarmRecords(engine.http());
        while (records.read(AppDomainLease.name(domain)).orElseThrow().version() == version) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the lease of " + domain + " was not renewed");
            }
            Thread.sleep(50);
        }
    }
}
