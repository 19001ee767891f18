package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cross-host app-domain lease: a record {@code ccci-lease-<domain>} in the swarm's raft store
 * ({@link SwarmRecords}), naming its holder (host, pid, run id and a token of its own), taken
 * beside the host's flock ({@link AppDomainLock}) before the app exists, renewed by a heartbeat,
 * released on a clean end. The flock serialises the runs of one host; the lease serialises the
 * hosts of one swarm.
 *
 * <p>Resource: an app domain, across every runner host of the swarm. Invariant: two live runs (or
 * janitors) never act on one domain at once; a live, reachable holder's lease never expires; a
 * holder that cannot renew stops its own run before the lease can expire. Scope: the swarm (its
 * managers' raft store). Linearization points: a create (a duplicate name is refused) and a
 * compare-and-swap update of the record (a stale version is refused): exactly one of two contenders
 * wins either.
 *
 * <p>Expiry never compares two hosts' clocks. A contender treats a lease as expired only once its
 * version has stayed the same for the TTL on the contender's own monotonic clock, counted from the
 * moment it first read that version (after the write that made it). The holder counts from the
 * moment it sent its last confirmed renewal, which is earlier, and stops its run when no renewal was
 * confirmed for {@link Timing#fenceAfter()} (two thirds of the TTL): that is before any contender can
 * see the lease expire, with a third of the TTL left for the stop to take effect. The swarm's own
 * clock (the leader's time on each write, {@link SwarmRecords#swarmNow}) only tells a janitor which
 * leases are worth watching ({@link #looksStale}); the watch is the proof.
 *
 * <p>A lease held from this very flock scope (this kernel's lock directory, {@link #scope}) while the
 * caller holds the domain's flock belongs to a dead run (a run takes the flock first and lets it go
 * last): it is taken over at once, so on one host the kernel-released flock stays the fast path. A
 * scope is claimed the same only when it surely is; in doubt two scopes differ, and a lease of the
 * other then only expires (slower, never wrong).
 */
@API(status = API.Status.INTERNAL)
public final class AppDomainLease {

    private static final Logger LOG = LoggerFactory.getLogger(AppDomainLease.class);

    static final String NAME_PREFIX = "ccci-lease-";
    /** The record's marker (its value is the domain): how leases are listed. */
    public static final String LEASE = "net.commoninternet.ccci.lease";
    static final String STATE = LEASE + ".state";
    static final String TOKEN = LEASE + ".token";
    static final String SCOPE = LEASE + ".flock-scope";
    static final String HOST = LEASE + ".host";
    static final String PID = LEASE + ".pid";
    static final String MACHINE_LABEL = LEASE + ".machine";
    static final String STARTED = LEASE + ".pid-started";
    static final String RUN = LEASE + ".run";
    static final String PURPOSE = LEASE + ".purpose";
    static final String RENEWAL = LEASE + ".renewal";
    static final String HELD = "held";
    static final String RELEASED = "released";

    /**
     * Stands for this very process where its kernel or lock folder cannot be named: no other process
     * has it (a random part), so a scope or pid space built with it matches nobody else's.
     */
    private static final String THIS_PROCESS_ONLY = "process " + ProcessHandle.current().pid() + " on " + hostname() + " #"
            + UUID.randomUUID();

    /** This process's pid space ({@link #pidSpace}): tests simulate other hosts with {@link Holder}'s own. */
    private static final String PID_SPACE = pidSpace(bootId(), pidNamespace());

    /** This process's start time, with its pid the proof on this machine that a holder still lives. */
    private static final String ME_STARTED = startedAt(ProcessHandle.current());

    /** How often a waiting contender reads the lease again: a release is seen this soon. */
    private static final Duration POLL = Duration.ofMillis(250);

    /**
     * The lease's times ({@code ccci.lease.ttl}, {@code ccci.lease.heartbeat}).
     *
     * @param ttl how long a lease's version must stay unchanged before a contender takes it over
     * @param heartbeat how often the holder renews it
     */
    public record Timing(Duration ttl, Duration heartbeat) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(90), Duration.ofSeconds(10));

        /** The holder stops its run when no renewal was confirmed this long: two thirds of the TTL. */
        public Duration fenceAfter() {
            return ttl.multipliedBy(2).dividedBy(3);
        }

        /** A lease not written for two heartbeats (by the swarm's clock) is worth watching. */
        Duration suspectAfter() {
            return heartbeat.multipliedBy(2);
        }

        /** Renewals are retried this often once one failed. */
        Duration retry() {
            return heartbeat.compareTo(Duration.ofSeconds(1)) < 0 ? heartbeat : Duration.ofSeconds(1);
        }

        /**
         * How often a waiting contender or a watch reads the lease again: every 250 ms, or a quarter
         * of the heartbeat when that is shorter (never with the heartbeats {@code Constants} allows,
         * at least 1 s; the engine-free tests run the protocol at millisecond times).
         */
        Duration poll() {
            Duration quarter = heartbeat.dividedBy(4);
            return quarter.compareTo(POLL) < 0 ? quarter : POLL;
        }
    }

    /**
     * Who takes a lease: a process of {@code host} whose runs flock in {@code lockDir}; {@code machine}
     * is the pid space it runs in ({@link #pidSpace}), where its {@code pid} means it. Its flock scope
     * names the flocks the taker's run also holds; a lease from the same scope is judged by the flock.
     */
    public record Holder(String host, String machine, Path lockDir, long pid, String runId) {
        /** This process, in its kernel and pid namespace, locking in {@code lockDir}, for run {@code runId}. */
        public static Holder of(Path lockDir, String runId) {
            return new Holder(hostname(), PID_SPACE, lockDir.toAbsolutePath().normalize(), ProcessHandle.current().pid(), runId);
        }

        /**
         * The pid space and the lock folder as the kernel sees it now ({@link #scope}): leases of one
         * scope are arbitrated by its flocks too. Read when written and when compared, while the flock
         * is held, so the folder is the one the flock is in.
         */
        public String flockScope() {
            return scope(machine, lockDir, fileKey(lockDir));
        }
    }

    /**
     * Whose pids a process sees: its kernel's boot (a new boot id at each boot, when every pid and
     * every flock is gone; another one on each cloned VM, which /etc/machine-id is not) and its pid
     * namespace ({@code pid:[4026531836]}; each container has its own). Two processes of one pid space
     * see the same process under one pid. If either is unknown, {@link #THIS_PROCESS_ONLY}: then only
     * this very process matches, and a record of any other is left to expire.
     */
    static String pidSpace(String bootId, String pidNamespace) {
        if (bootId == null || bootId.isBlank() || pidNamespace == null || pidNamespace.isBlank()) {
            return "unknown kernel, " + THIS_PROCESS_ONLY;
        }
        return "boot " + bootId.strip() + " " + pidNamespace.strip();
    }

    /**
     * A flock scope: a pid space and a lock folder, by its path and by its file key ({@code
     * (dev=..,ino=..)}): two containers whose {@code /run/lock} are different mounts get two scopes,
     * whose flocks do not exclude each other; two processes sharing one folder get one. The pid space
     * in it is the safe side: two containers sharing one host folder do share its flocks, but are
     * judged by expiry. No file key: the scope of this very process only.
     */
    static String scope(String pidSpace, Path lockDir, Object fileKey) {
        return pidSpace + " " + lockDir + " " + (fileKey == null ? "unknown folder, " + THIS_PROCESS_ONLY : fileKey);
    }

    /** A lease as read at {@code seenAt} (this host's monotonic clock, after the read returned). */
    public record Seen(String domain, Optional<Stored> record, long seenAt) {
        public boolean absent() {
            return record.isEmpty();
        }

        public boolean released() {
            return record.isPresent() && RELEASED.equals(record.get().label(STATE));
        }

        boolean heldFrom(String scope) {
            return record.isPresent() && !released() && scope.equals(record.get().label(SCOPE));
        }

        long version() {
            return record.map(Stored::version).orElse(-1L);
        }

        /** "run 1234 (pid 77) on host ci-2", for the logs. */
        public String holder() {
            return record.map(r -> "run " + r.label(RUN) + " (pid " + r.label(PID) + ") on host " + r.label(HOST))
                    .orElse("nobody");
        }
    }

    private final SwarmRecords store;
    private final Holder me;
    private final Timing timing;
    private final Consumer<String> onLost;
    /** The protocol's decisions ({@link LeaseRules#PROTOCOL}; a seeded bug of the model checker's in tests). */
    private final LeaseRules rules;
    /** This host's monotonic clock, in nanoseconds ({@code System::nanoTime}). */
    private final LongSupplier clock;

    /**
     * What a lease decides by and the clock it reads: the protocol and {@code System::nanoTime} in
     * production; a seeded bug, a clock the test moves, in the engine-free tests.
     */
    record Judge(LeaseRules rules, LongSupplier clock) {
        static final Judge PRODUCTION = new Judge(LeaseRules.PROTOCOL, System::nanoTime);
    }

    /**
     * @param onLost what to do when a lease this process holds is lost or can no longer be confirmed
     *        (a run stops itself); called at most once per lease, from the lease's heartbeat thread
     */
    public AppDomainLease(SwarmRecords store, Holder me, Timing timing, Consumer<String> onLost) {
        this(store, me, timing, onLost, Judge.PRODUCTION);
    }

    /** With the decisions and the clock given: the engine-free tests' in-memory swarm, clock and seeded bugs. */
    AppDomainLease(SwarmRecords store, Holder me, Timing timing, Consumer<String> onLost, Judge judge) {
        this.store = store;
        this.me = me;
        this.timing = timing;
        this.onLost = onLost;
        this.rules = judge.rules();
        this.clock = judge.clock();
    }

    LeaseRules rules() {
        return rules;
    }

    public Timing timing() {
        return timing;
    }

    public Holder holder() {
        return me;
    }

    static String name(String domain) {
        return NAME_PREFIX + domain;
    }

    /** The domain's lease as the swarm has it now. */
    public Seen look(String domain) throws IOException {
        Optional<Stored> record = store.read(name(domain));
        return new Seen(domain, record, clock.getAsLong());
    }

    /** The run apps of the namespace {@code domainSuffix} that have a lease record, held or released. */
    public List<String> leasedDomains(String domainSuffix) throws IOException {
        return store.list(LEASE).stream().map(r -> r.label(LEASE)).filter(domain -> AppNaming.isRunApp(domain, domainSuffix))
                .distinct().sorted().toList();
    }

    /** The swarm's "now" (the leader's clock), for {@link #looksStale}. */
    public Instant swarmNow() throws IOException {
        return store.swarmNow();
    }

    /** Whether a held lease has not been written for two heartbeats by the swarm's own clock. */
    public boolean looksStale(Seen seen, Instant swarmNow) {
        return seen.record().isPresent()
                && !Duration.between(seen.record().get().updatedAt(), swarmNow).minus(timing.suspectAfter()).isNegative();
    }

    /** Whether {@code seen} is held from this process's own flock scope (the caller's flock then proves its holder dead). */
    public boolean heldFromHere(Seen seen) {
        return seen.heldFrom(me.flockScope());
    }

    /**
     * Whether the holder of {@code seen} is proven gone without waiting for expiry, the caller holding
     * the domain's flock in its own lock folder: held from this flock scope (the flock, let go last,
     * is free), or held from this pid space (same kernel boot, same pid namespace) by a process that
     * no longer exists (its pid is gone or now names a process started at another time): the kernel's
     * word, as good as a flock's. A record of an older ccci (a machine id for its pid space) is never
     * proven gone: it expires.
     */
    public boolean provenGone(Seen seen) {
        if (seen.absent() || seen.released()) {
            return false;
        }
        if (heldFromHere(seen)) {
            return true;
        }
        Stored record = seen.record().get();
        if (!me.machine().equals(record.label(MACHINE_LABEL))) {
            return false;
        }
        try {
            Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(record.label(PID)));
            return process.isEmpty() || !startedAt(process.get()).equals(record.label(STARTED));
        } catch (NumberFormatException unreadable) {
            return false;
        }
    }

    private static String startedAt(ProcessHandle process) {
        return process.info().startInstant().map(i -> Long.toString(i.toEpochMilli())).orElse("");
    }

    /**
     * Takes the lease from the state {@code seen}: created if absent, recreated if released, taken
     * over (compare-and-swap from that very version) if held. Take a held one only when its holder is
     * proven gone: by the flock (same scope) or by {@link #expired}. Empty when another contender won.
     */
    public Optional<Held> take(Seen seen, String purpose) throws IOException {
        Optional<Held> held = takeUnstarted(seen, purpose);
        held.ifPresent(Held::start);
        return held;
    }

    /**
     * {@link #take}, with the lease's fence registered but its heartbeat thread not started: the
     * controlled-scheduler tests run the heartbeat's steps ({@link Held#renew}, {@link Held#fenceIfDue})
     * on threads of their own.
     */
    Optional<Held> takeUnstarted(Seen seen, String purpose) throws IOException {
        String token = UUID.randomUUID().toString();
        Map<String, String> labels = labels(seen.domain(), token, purpose, 0, HELD);
        long sent = clock.getAsLong();
        Optional<Stored> taken;
        LeaseRules.Move move = rules.take(seen);
        if (move == LeaseRules.Move.SWAP) {
            taken = store.swap(seen.record().get(), labels) == Swap.SWAPPED ? store.read(seen.record().get().id()) : Optional.empty();
        } else {
            if (move == LeaseRules.Move.RECREATE) {
                // Released is terminal: its holder is done with it, so deleting it by id removes nothing live.
                store.delete(seen.record().get().id());
            }
            taken = store.create(name(seen.domain()), labels);
        }
        if (taken.isEmpty() || !token.equals(taken.get().label(TOKEN))) {
            return Optional.empty();
        }
        Held held = new Held(seen.domain(), taken.get(), purpose, sent);
        DomainFence.guard(AppNaming.stackName(held.domain), held.fence);
        return Optional.of(held);
    }

    /**
     * Blocks until this process holds the domain's lease (the caller holds the domain's flock). A
     * lease held from another host is waited for, visibly, until it is released or has not been
     * renewed for the TTL; one held from this host belongs to a dead run and is taken at once.
     * Interruptible: a stopped run parked here stops at once.
     */
    public Held acquire(String domain, String purpose) throws IOException, InterruptedException {
        Seen watched = null;
        boolean announced = false;
        boolean unreachable = false;
        // The usual case (nobody holds it): one create, no read before it; a 409 says to look.
        try {
            Optional<Held> first = take(new Seen(domain, Optional.empty(), clock.getAsLong()), purpose);
            if (first.isPresent()) {
                return first.get();
            }
        } catch (IOException | RuntimeException e) {
            // the loop below says so and retries
        }
        while (true) {
            try {
                Seen seen = look(domain);
                boolean provenGone = provenGone(seen);
                if (rules.takeableAtOnce(seen, provenGone)) {
                    if (provenGone) {
                        LOG.info("== app lease: {} was held by a run of this host that is gone ({}): taken over ==", domain,
                                seen.holder());
                    }
                    Optional<Held> held = take(seen, purpose);
                    if (held.isPresent()) {
                        return held.get();
                    }
                    continue;
                }
                watched = rules.watching(watched, seen);
                if (!announced) {
                    LOG.info("== app lease: {} is held by {} — waiting (taken over only if it is not renewed for {} s) ==",
                            domain, seen.holder(), timing.ttl().toSeconds());
                    announced = true;
                }
                if (rules.watch(watched, seen, clock.getAsLong(), timing.ttl()) == LeaseRules.Watch.EXPIRED) {
                    LOG.warn("== app lease: {}'s holder, {}, has not renewed it for {} s: taking it over ==", domain,
                            watched.holder(), timing.ttl().toSeconds());
                    Optional<Held> held = take(watched, purpose);
                    if (held.isPresent()) {
                        return held.get();
                    }
                }
                unreachable = false;
            } catch (IOException | RuntimeException e) {
                if (!unreachable) {
                    LOG.warn("!! app lease of {}: the swarm's managers did not answer ({}) — retrying ==", domain, e.getMessage());
                    unreachable = true;
                }
            }
            LockSupport.parkNanos(timing.poll().toNanos());
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the app lease of " + domain);
            }
        }
    }

    /**
     * Watches leases held from elsewhere until each is decided: renewed (its version changed, or it
     * is gone or released: a live holder, or one that finished) or unchanged for the TTL since it was
     * first seen (expired). Returns the expired ones, as they were seen; a stop ends the watch early
     * with none.
     */
    public List<Seen> expired(List<Seen> watched, BooleanSupplier stopRequested) throws InterruptedException {
        List<Seen> pending = new ArrayList<>(watched);
        List<Seen> expired = new ArrayList<>();
        while (!pending.isEmpty()) {
            if (stopRequested.getAsBoolean()) {
                return List.of();
            }
            for (Iterator<Seen> it = pending.iterator(); it.hasNext();) {
                Seen first = it.next();
                try {
                    Seen now = look(first.domain());
                    LeaseRules.Watch watch = rules.watch(first, now, now.seenAt(), timing.ttl());
                    if (watch == LeaseRules.Watch.EXPIRED) {
                        expired.add(first);
                    }
                    if (watch != LeaseRules.Watch.PENDING) {
                        it.remove();
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("janitor: cannot read the lease of {} ({}): left for the next sweep", first.domain(), e.getMessage());
                    it.remove();
                }
            }
            if (!pending.isEmpty()) {
                LockSupport.parkNanos(timing.poll().toNanos());
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while watching leases");
                }
            }
        }
        return expired;
    }

    Map<String, String> labels(String domain, String token, String purpose, long renewal, String state) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LEASE, domain);
        labels.put(STATE, state);
        labels.put(TOKEN, token);
        labels.put(SCOPE, me.flockScope());
        labels.put(HOST, me.host());
        labels.put(PID, Long.toString(me.pid()));
        labels.put(MACHINE_LABEL, me.machine());
        labels.put(STARTED, ME_STARTED);
        labels.put(RUN, me.runId());
        labels.put(PURPOSE, purpose);
        labels.put(RENEWAL, Long.toString(renewal));
        return labels;
    }

    /**
     * A lease this process holds, renewed every heartbeat by a thread of its own until released.
     * Renewal calls go through one call thread, so a call the engine holds up (a leader election:
     * 10-20 s) never delays the check that stops the run when no renewal is confirmed in time.
     */
    public final class Held {
        private final String domain;
        private final String token;
        private final String purpose;
        private final ExecutorService calls;
        private final Thread heartbeat;
        private final BooleanSupplier fence = this::confirmed;
        // Guarded by this.
        private Stored current;
        private long renewal;
        private long confirmedAt;
        /**
         * When the first renewal since the last confirmed one was sent ({@code unconfirmed} says whether
         * there is one). Every such attempt carries the same renewal number, so a record found carrying
         * it was written by one of them: no earlier than this.
         */
        private boolean unconfirmed;
        private long unconfirmedSince;
        private String lost;
        private boolean released;

        /** @param taken the record as read right after it was taken: its token is this holder's */
        private Held(String domain, Stored taken, String purpose, long sent) {
            this.domain = domain;
            this.token = taken.label(TOKEN);
            this.purpose = purpose;
            this.current = taken;
            this.confirmedAt = sent;
            this.calls = Executors.newSingleThreadExecutor(r -> daemon(r, "ccci-lease-call-" + domain));
            this.heartbeat = daemon(this::beat, "ccci-lease-heartbeat-" + domain);
        }

        private void start() {
            heartbeat.start();
        }

        public String domain() {
            return domain;
        }

        /** Whether the lease is this process's for sure right now: a renewal confirmed within {@link Timing#fenceAfter()}. */
        public synchronized boolean confirmed() {
            return rules.confirmed(lost != null, released, confirmedAt, clock.getAsLong(), timing.fenceAfter());
        }

        /** Why the lease is no longer confirmed, or empty. */
        public synchronized Optional<String> lostBecause() {
            return Optional.ofNullable(lost);
        }

        /** One renewal now, awaited for at most a heartbeat: whether the lease is still confirmed this process's. */
        public boolean reconfirm() {
            try {
                calls.submit(this::renew).get(timing.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
                // not confirmed now: the answer is the state as it stands
            }
            return confirmed();
        }

        /**
         * The holder is done with the domain: the heartbeat stops, the record moves to "released" by
         * compare-and-swap (a terminal state nobody swaps out of) and is then deleted by its id.
         * Idempotent; a lease that cannot be released now expires by itself (a host's own janitor
         * takes one of its flock scope at once).
         */
        public void release() {
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
                notifyAll();
            }
            DomainFence.unguard(AppNaming.stackName(domain), fence);
            try {
                calls.submit(this::releaseRecord).get(timing.ttl().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("app lease of {}: not released ({}); it expires by itself", domain, e.getCause() == null ? e : e.getCause());
            } finally {
                calls.shutdown();
            }
        }

        /**
         * A keeper of this host's flock scope takes the lease over (at once: it holds the flock): the
         * heartbeat stops and nothing more is written, so this process never contends with it. The
         * record stays held, unrenewed, until the keeper's compare-and-swap. Idempotent; a later
         * {@link #release} does nothing.
         */
        public void handedOver() {
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
                notifyAll();
            }
            DomainFence.unguard(AppNaming.stackName(domain), fence);
            calls.shutdown();
        }

        private Void releaseRecord() throws IOException {
            for (int attempt = 0; attempt < 3; attempt++) {
                Stored seen;
                synchronized (this) {
                    if (!rules.mayRenew(false, lost != null)) {
                        return null; // not ours any more: nothing of it to release
                    }
                    seen = current;
                }
                Swap swap = store.swap(seen, labels(domain, token, purpose, renewal, RELEASED));
                if (swap == Swap.SWAPPED) {
                    store.delete(seen.id());
                    return null;
                }
                if (swap == Swap.GONE || !stillOurs(store.read(seen.id()))) {
                    return null;
                }
            }
            throw new IOException("the lease kept changing under its holder");
        }

        /** Renews once: compare-and-swap from the version last read, then read the new one (the call thread's work). */
        Void renew() throws IOException {
            Stored seen;
            long next;
            long sent;
            synchronized (this) {
                if (!rules.mayRenew(released, lost != null)) {
                    return null;
                }
                seen = current;
                next = renewal + 1;
                sent = clock.getAsLong();
                if (!unconfirmed) {
                    unconfirmed = true;
                    unconfirmedSince = sent;
                }
            }
            Swap swap = null;
            try {
                swap = store.swap(seen, labels(domain, token, purpose, next, HELD));
            } catch (IOException | RuntimeException ambiguous) {
                // the write may or may not have been applied (a manager that died mid-call): read it back
            }
            Optional<Stored> after = store.read(seen.id());
            if (!stillOurs(after)) {
                return null;
            }
            long answered = clock.getAsLong();
            synchronized (this) {
                current = after.get();
                if (rules.renewed(swap, next, current)) {
                    renewal = next;
                    confirmedAt = rules.confirmedSince(confirmedAt, rules.writeSent(swap, sent, unconfirmedSince), answered);
                    unconfirmed = false;
                }
            }
            return null;
        }

        /** Records the loss (once, never under this object's monitor) when the record is gone or names another holder. */
        private boolean stillOurs(Optional<Stored> record) {
            if (rules.ours(record, token)) {
                return true;
            }
            String now = record.map(r -> "it now names " + new Seen(domain, record, 0).holder()).orElse("it is gone");
            loseOnce("the app lease of " + domain + " was taken over while this process could not renew it (" + now + ")");
            return false;
        }

        private void loseOnce(String why) {
            boolean first;
            synchronized (this) {
                first = lost == null && !released;
                if (first) {
                    lost = why;
                }
            }
            if (first) {
                LOG.error("!! {} !!", why);
                onLost.accept(why);
            }
        }

        /**
         * The heartbeat's fence: when no renewal was confirmed for {@link Timing#fenceAfter()} (counted
         * from {@code confirmed}, as read at {@code now}) the lease is lost, once; whether it fired.
         */
        boolean fenceIfDue(long confirmed, long now) {
            if (!rules.fenceDue(confirmed, now, timing.fenceAfter())) {
                return false;
            }
            loseOnce("no renewal of the app lease of " + domain + " was confirmed for " + timing.fenceAfter().toSeconds()
                    + " s (the swarm's managers do not answer: this host may be cut off): the run stops before the"
                    + " lease can expire (" + timing.ttl().toSeconds() + " s)");
            return true;
        }

        /** The fence check as the heartbeat makes it now. */
        boolean fenceIfDue() {
            long confirmed;
            synchronized (this) {
                confirmed = confirmedAt;
            }
            return fenceIfDue(confirmed, clock.getAsLong());
        }

        /** The heartbeat: a renewal every heartbeat (every second after a failure); the fence when none is confirmed in time. */
        private void beat() {
            Future<Void> inFlight = null;
            long nextAt = clock.getAsLong() + timing.heartbeat().toNanos();
            while (true) {
                long confirmed;
                synchronized (this) {
                    if (!rules.mayRenew(released, lost != null)) {
                        return;
                    }
                    confirmed = confirmedAt;
                }
                long deadline = confirmed + timing.fenceAfter().toNanos();
                long now = clock.getAsLong();
                if (fenceIfDue(confirmed, now)) {
                    return;
                }
                if (inFlight == null && now >= nextAt) {
                    inFlight = calls.submit(this::renew);
                }
                long until = Math.min(deadline, inFlight == null ? nextAt : now + timing.heartbeat().toNanos());
                try {
                    if (inFlight != null) {
                        long before;
                        synchronized (this) {
                            before = confirmedAt;
                        }
                        inFlight.get(Math.max(1, until - now), TimeUnit.NANOSECONDS);
                        inFlight = null;
                        boolean renewed;
                        synchronized (this) {
                            renewed = confirmedAt != before;
                        }
                        nextAt = clock.getAsLong() + (renewed ? timing.heartbeat() : timing.retry()).toNanos();
                    } else {
                        synchronized (this) {
                            if (!released) {
                                TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, until - now));
                            }
                        }
                    }
                } catch (TimeoutException stillWaiting) {
                    // the call goes on; the fence check above comes first
                } catch (ExecutionException failed) {
                    inFlight = null;
                    nextAt = clock.getAsLong() + timing.retry().toNanos();
                } catch (InterruptedException e) {
                    return;
                } catch (RejectedExecutionException shutDown) {
                    return;
                }
            }
        }
    }

    private static Thread daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** This kernel's boot id, or null. */
    private static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id"));
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** This process's pid namespace ({@code pid:[4026531836]}), or null. */
    private static String pidNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** The lock folder's identity as the kernel has it now ({@code (dev=..,ino=..)} on Linux), or null. */
    private static Object fileKey(Path lockDir) {
        try {
            return Files.readAttributes(lockDir, BasicFileAttributes.class).fileKey();
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }
}
