package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import net.commoninternet.ccci.extensions.lock.ModelHost.Phase;
import net.commoninternet.ccci.extensions.lock.ModelHost.Role;
import net.commoninternet.ccci.extensions.lock.ModelHost.Stage;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;

/**
 * The app-domain lease protocol as a transition system, for {@link ProtocolExplorer}: two or three
 * hosts, each a {@link ModelHost}, against one in-memory swarm store ({@link InMemoryRecords}). Every
 * step is one store call (a linearization point of the real code) or one local event, and every
 * decision a step makes is the real one: {@link LeaseRules} (the rules under test: the protocol, or a
 * seeded bug), {@link AppDomainLease#provenGone}, the real record labels, {@link DomainFence#allows}.
 *
 * <p>Time is in ticks (a tick is a second to the rules): TTL {@value #TTL}, heartbeat
 * {@value #HEARTBEAT}, so the fence falls at 5.3 ({@link AppDomainLease.Timing#fenceAfter}). A tick of
 * real time passes only when no running host owes a prompt step: a contender reads the lease at least
 * once a tick (it polls every 250 ms), a healthy holder's renewal is queued when due and its call
 * answered within the tick, the fence fires when due, a decided take is made. Faults, at most
 * {@code maxFaults} a schedule: a crash (a call already on the wire may still land, or be lost), a pause
 * of any length (SIGSTOP, a GC), the managers not answering a host (its calls fail; a renewal on the
 * wire lands late, within {@value #MAX_CALL} tick, or is lost) and a restart of a crashed host (a new
 * process of the same flock scope). Clock drift: each host's monotonic clock may run up to
 * {@code drift} ticks ahead of or behind real time (a jump ahead, or a tick it stands still), and the
 * clocks' origins differ by {@link #BOOT} ticks.
 *
 * <p>Invariants, judged in every state ({@link #judge}) and at the steps they concern:
 * <ul>
 *   <li><b>exclusion</b>: never two hosts acting on the domain at once (holding with the fence open:
 *       the lease confirmed on the host's own clock; or reaping with no lease, which no fence guards);
 *   <li><b>no takeover of a renewing holder</b>: a take (or a delete) never replaces the record of a
 *       holder that had no fault during its tenure;
 *   <li><b>a fenced holder does nothing</b>: no renewal or removal is sent by a holder after its fence;
 *   <li><b>bounded takeover</b>: once the holder is gone (crashed, fenced or released, its last call
 *       landed) a healthy contender holds the domain before its own clock has counted the TTL plus
 *       one heartbeat from then (or from its first read, if later).
 * </ul>
 */
final class ProtocolModel {

    static final long TTL = 8;
    static final long HEARTBEAT = 2;
    /** A call on the wire to managers that do not answer lands (or is lost) within this many ticks. */
    static final long MAX_CALL = 1;
    /** Clock ages past this compare like this (every constant compared with is smaller). */
    static final long CAP = TTL + HEARTBEAT + 6;
    static final long STAMP_FLOOR = 100;
    /** Drift events (a jump ahead, a tick standing still) a host's clock may have in one schedule: a swing across the bound. */
    static final int DRIFTS = 1;
    /** The hosts' clock origins (their boot times), in ticks: far apart, as monotonic clocks are. */
    static final long[] BOOT = {0, 37, 74};
    static final AppDomainLease.Timing TIMING = new AppDomainLease.Timing(Duration.ofSeconds(TTL), Duration.ofSeconds(HEARTBEAT));
    /** {@link AppDomainLease.Timing#fenceAfter}, computed once (it divides a Duration). */
    static final Duration FENCE = TIMING.fenceAfter();
    static final String DOMAIN = "mdl-0d0d0d.ci.commoninternet.net";
    private static final String NAME = AppDomainLease.name(DOMAIN);

    static long ns(long ticks) {
        return ticks * 1_000_000_000L;
    }

    /**
     * What is explored: the hosts' roles, the fault budget, the drift bound, the rules, and whether
     * those rules read records' time stamps (then part of the state).
     */
    record Config(List<Role> roles, int maxFaults, int drift, LeaseRules rules, boolean stamps) {
        Config with(LeaseRules other, boolean readsStamps) {
            return new Config(roles, maxFaults, drift, other, readsStamps);
        }
    }

    /** One step: what it was (for the trace) and the state it leads to. */
    record Step(String label, ModelState next) {
    }

    private final Config config;

    ProtocolModel(Config config) {
        this.config = config;
    }

    Config config() {
        return config;
    }

    /** This model as the explorer sees it. */
    Explorable<ModelState> explorable() {
        ProtocolModel model = this;
        return new Explorable<>() {
            @Override
            public ModelState initial() {
                return model.initial();
            }

            @Override
            public List<Move<ModelState>> moves(ModelState state) {
                return model.successors(state).stream().map(s -> new Move<>(s.label(), s.next())).toList();
            }

            @Override
            public String key(ModelState state) {
                return state.key();
            }

            @Override
            public String violation(ModelState state) {
                return state.violation;
            }

            @Override
            public String traceHeader() {
                return ProtocolExplorer.LEASE_TRACE_HEADER;
            }

            @Override
            public String traceLine(ModelState state, String label) {
                return ProtocolExplorer.leaseTraceLine(state, label);
            }
        };
    }

    ModelState initial() {
        ModelState s = new ModelState();
        s.store = new InMemoryRecords();
        s.stamps = config.stamps();
        s.hosts = new ModelHost[config.roles().size()];
        for (int i = 0; i < s.hosts.length; i++) {
            String name = String.valueOf((char) ('A' + i));
            AppDomainLease lease = new AppDomainLease(null,
                    new AppDomainLease.Holder("host-" + name, "machine-" + name, Path.of("/run/lock"), 1000 + i, "run-" + name),
                    TIMING, why -> { }, new AppDomainLease.Judge(config.rules(), () -> {
                        throw new IllegalStateException("the model reads each host's clock itself");
                    }));
            s.hosts[i] = new ModelHost(i, config.roles().get(i), BOOT[i], lease);
        }
        return s;
    }

    /** Every step enabled in {@code s}, each with its successor state (judged). */
    List<Step> successors(ModelState s) {
        List<Step> steps = new ArrayList<>();
        if (s.violation != null) {
            return steps;
        }
        for (int i = 0; i < s.hosts.length; i++) {
            hostSteps(s, i, steps);
            network(s, i, steps);
            faults(s, i, steps);
        }
        if (!owesPromptStep(s)) {
            step(s, steps, "tick", n -> tick(n, -1));
            for (int i = 0; i < s.hosts.length; i++) {
                int h = i;
                if (s.hosts[i].drift > -config.drift() && s.hosts[i].drifts < DRIFTS) {
                    step(s, steps, "tick (" + s.hosts[i].name() + "'s clock stands still)", n -> tick(n, h));
                }
            }
        }
        return steps;
    }

    private void step(ModelState s, List<Step> steps, String label, Consumer<ModelState> change) {
        ModelState next = s.copy();
        change.accept(next);
        judge(next);
        steps.add(new Step(label, next));
    }

    /** Real time moves on a tick; so does every host's clock but one that stands still (its reads this tick count). */
    private static void tick(ModelState n, int standsStill) {
        n.now++;
        for (ModelHost h : n.hosts) {
            if (h.index == standsStill) {
                h.drift--;
                h.drifts++;
            } else {
                h.looked = false;
            }
        }
    }

    private void hostSteps(ModelState s, int i, List<Step> steps) {
        ModelHost h = s.hosts[i];
        if (!h.running()) {
            return;
        }
        String me = h.name() + " ";
        switch (h.phase) {
            case START -> step(s, steps, me + "starts its run: create", n -> firstCreate(n, n.hosts[i]));
            case WAIT -> step(s, steps, me + "reads the lease", n -> waitLook(n, n.hosts[i]));
            case TAKE -> step(s, steps, me + "takes the lease", n -> take(n, n.hosts[i]));
            case RECREATE -> step(s, steps, me + "creates the lease anew", n -> recreate(n, n.hosts[i]));
            case LOOK -> janitorLook(s, i, steps);
            case WATCH -> step(s, steps, me + "reads the watched lease", n -> watch(n, n.hosts[i]));
            case REAP_UNLEASED -> step(s, steps, me + "has reaped (with no lease)", n -> n.hosts[i].phase = Phase.DONE);
            case DONE -> {
                if (h.role == Role.JANITOR) {
                    step(s, steps, me + "sweeps again", n -> n.hosts[i].phase = Phase.LOOK);
                }
            }
            case HOLD -> holderSteps(s, i, steps);
        }
    }

    private void holderSteps(ModelState s, int i, List<Step> steps) {
        ModelHost h = s.hosts[i];
        String me = h.name() + " ";
        if (fenceEnabled(s, h)) {
            step(s, steps, me + "fences itself (no renewal confirmed for 2/3 of the TTL)", n -> {
                ModelHost x = n.hosts[i];
                x.lost = true;
                x.beatEnded = true;
            });
        }
        if (queueEnabled(s, h)) {
            step(s, steps, me + "queues a renewal", n -> n.hosts[i].call = new ModelHost.Call(Stage.QUEUED, 0, null, 0, null, 0));
        }
        if (h.call != null && h.call.stage() == Stage.QUEUED) {
            step(s, steps, me + "starts the renewal", n -> send(n, n.hosts[i]));
        }
        if (h.call != null && h.call.stage() == Stage.APPLIED) {
            step(s, steps, me + "reads its renewal back", n -> answer(n, n.hosts[i]));
        }
        if (h.call == null || h.call.stage() == Stage.QUEUED) {
            step(s, steps, me + (h.role == Role.RUN ? "ends its run: release" : "has reaped: release"), n -> release(n, n.hosts[i]));
        }
    }

    /** The network's steps: a renewal on the wire lands, or (managers not answering, a crash, a pause) is lost. */
    private void network(ModelState s, int i, List<Step> steps) {
        ModelHost h = s.hosts[i];
        if (h.call == null || h.call.stage() != Stage.SENT) {
            return;
        }
        String me = h.name() + "'s renewal ";
        step(s, steps, me + "lands", n -> apply(n, n.hosts[i]));
        if (h.partitioned || !h.running()) {
            step(s, steps, me + "is lost on the wire", n -> n.hosts[i].call = n.hosts[i].call.applied(null));
        }
    }

    private void faults(ModelState s, int i, List<Step> steps) {
        ModelHost h = s.hosts[i];
        String me = h.name() + " ";
        if (h.paused) {
            step(s, steps, me + "resumes", n -> n.hosts[i].paused = false);
        }
        if (h.partitioned && !h.crashed) {
            step(s, steps, me + "reaches the managers again", n -> n.hosts[i].partitioned = false);
        }
        if (!h.crashed && h.drift < config.drift() && h.drifts < DRIFTS && !owes(s, h)) {
            step(s, steps, h.name() + "'s clock jumps a tick ahead", n -> {
                ModelHost x = n.hosts[i];
                x.drift++;
                x.drifts++;
                x.looked = false;
            });
        }
        if (s.faults >= config.maxFaults() || h.phase == Phase.DONE && h.role == Role.RUN) {
            return;
        }
        if (!h.crashed) {
            step(s, steps, me + "crashes (SIGKILL)", n -> fault(n, i, x -> x.crashed = true));
            if (!h.paused) {
                step(s, steps, me + "pauses (SIGSTOP)", n -> fault(n, i, x -> x.paused = true));
            }
            if (!h.partitioned) {
                step(s, steps, me + "is cut off: the managers do not answer it", n -> fault(n, i, x -> x.partitioned = true));
            }
        } else if (h.call == null) {
            step(s, steps, me + "restarts: a new process of the same host", n -> fault(n, i, ProtocolModel::restart));
        }
    }

    private static void fault(ModelState n, int i, Consumer<ModelHost> what) {
        n.faults++;
        n.hosts[i].faulted = true;
        what.accept(n.hosts[i]);
    }

    private static void restart(ModelHost x) {
        x.crashed = false;
        x.paused = false;
        x.partitioned = false;
        x.faulted = false;
        x.gen++;
        x.phase = x.role == Role.RUN ? Phase.START : Phase.LOOK;
        x.watched = null;
        x.base = null;
        x.current = null;
        x.call = null;
        x.lost = false;
        x.released = false;
        x.beatEnded = false;
        x.since = null;
    }

    // ---- the steps, each the real code's store call and decision ----

    private long clock(ModelState n, ModelHost x) {
        return ns(n.clock(x));
    }

    /** {@code AppDomainLease.acquire}'s first attempt: one create, no read before it. */
    private void firstCreate(ModelState n, ModelHost x) {
        x.phase = Phase.TAKE;
        x.base = new AppDomainLease.Seen(DOMAIN, Optional.empty(), clock(n, x));
        take(n, x);
    }

    /** {@code acquire}'s loop: read; take at once if free or proven gone; else watch on this host's clock. */
    private void waitLook(ModelState n, ModelHost x) {
        x.looked = true;
        if (x.partitioned) {
            return; // the read fails; the loop retries
        }
        LeaseRules rules = config.rules();
        AppDomainLease.Seen seen = read(n, x);
        if (rules.takeableAtOnce(seen, x.lease.provenGone(seen))) {
            x.base = seen;
            x.phase = Phase.TAKE;
            return;
        }
        x.watched = rules.watching(x.watched, seen);
        if (rules.watch(x.watched, seen, clock(n, x), TIMING.ttl()) == LeaseRules.Watch.EXPIRED) {
            x.base = x.watched;
            x.phase = Phase.TAKE;
        }
    }

    /** {@code Janitor.probeAndReap} once the probe flock is held (a host's own flock is free: one process a host). */
    private void janitorLook(ModelState s, int i, List<Step> steps) {
        ModelHost h = s.hosts[i];
        String me = h.name() + " probes and reads the lease";
        if (h.partitioned) {
            step(s, steps, me + " (no manager answers: LEASE_UNKNOWN)", n -> n.hosts[i].phase = Phase.DONE);
            return;
        }
        AppDomainLease.Seen seen = read(s.copy(), h);
        boolean[] asked = {false};
        config.rules().judge(seen, h.lease.provenGone(seen), () -> asked[0] = true);
        for (boolean stale : asked[0] ? new boolean[] {true, false} : new boolean[] {false}) {
            String hint = asked[0] ? (stale ? " (the swarm's clock: stale)" : " (the swarm's clock: fresh)") : "";
            step(s, steps, me + hint, n -> {
                ModelHost x = n.hosts[i];
                AppDomainLease.Seen now = read(n, x);
                switch (config.rules().judge(now, x.lease.provenGone(now), () -> stale)) {
                    case TAKE_AND_REAP -> {
                        x.base = now;
                        x.phase = Phase.TAKE;
                    }
                    case WATCH -> {
                        x.watched = now;
                        x.looked = true;
                        x.faulted = false;
                        x.phase = Phase.WATCH;
                    }
                    case LIVE_ELSEWHERE -> done(x);
                }
            });
        }
    }

    /** {@code AppDomainLease.expired}: one more read of a watched lease. */
    private void watch(ModelState n, ModelHost x) {
        x.looked = true;
        if (x.partitioned) {
            done(x); // cannot read: left for the next sweep
            return;
        }
        AppDomainLease.Seen now = read(n, x);
        switch (config.rules().watch(x.watched, now, now.seenAt(), TIMING.ttl())) {
            case RENEWED -> done(x);
            case EXPIRED -> {
                x.base = x.watched;
                x.phase = Phase.TAKE;
            }
            case PENDING -> { }
        }
    }

    private static void done(ModelHost x) {
        x.phase = Phase.DONE;
        x.watched = null;
        x.base = null;
    }

    private AppDomainLease.Seen read(ModelState n, ModelHost x) {
        return new AppDomainLease.Seen(DOMAIN, call(() -> n.store.read(NAME)), clock(n, x));
    }

    /** {@code AppDomainLease.take} from {@code x.base}: create, delete-then-create, or compare-and-swap, as the rules say. */
    private void take(ModelState n, ModelHost x) {
        if (x.partitioned) {
            lostTake(n, x);
            return;
        }
        x.gen++;
        AppDomainLease.Seen base = x.base;
        long sent = clock(n, x);
        stampBy(n, x);
        switch (config.rules().take(base)) {
            case CREATE -> created(n, x, call(() -> n.store.create(NAME, labels(x, 0, AppDomainLease.HELD))), sent);
            case RECREATE -> {
                Stored gone = base.record().get();
                Optional<Stored> now = call(() -> n.store.read(gone.id()));
                if (now.isPresent() && AppDomainLease.HELD.equals(now.get().label(AppDomainLease.STATE))) {
                    replaced(n, x, now.get(), "deleted");
                }
                call(() -> {
                    n.store.delete(gone.id());
                    return null;
                });
                x.phase = Phase.RECREATE;
            }
            case SWAP -> {
                Stored seen = base.record().get();
                Optional<Stored> before = call(() -> n.store.read(seen.id()));
                Swap swap = call(() -> n.store.swap(seen, labels(x, 0, AppDomainLease.HELD)));
                if (swap == Swap.SWAPPED) {
                    replaced(n, x, before.get(), "took over");
                }
                created(n, x, swap == Swap.SWAPPED ? call(() -> n.store.read(seen.id())) : Optional.empty(), sent);
            }
        }
    }

    private void recreate(ModelState n, ModelHost x) {
        if (x.partitioned) {
            lostTake(n, x);
            return;
        }
        x.gen++;
        stampBy(n, x);
        created(n, x, call(() -> n.store.create(NAME, labels(x, 0, AppDomainLease.HELD))), clock(n, x));
    }

    private void created(ModelState n, ModelHost x, Optional<Stored> taken, long sent) {
        if (taken.isPresent() && x.token().equals(taken.get().label(AppDomainLease.TOKEN))) {
            x.hold(taken.get(), sent, clock(n, x));
        } else {
            lostTake(n, x);
        }
    }

    /** Another won (or no manager answered): a run waits on, a janitor leaves, or reaps anyway if the rules let it. */
    private void lostTake(ModelState n, ModelHost x) {
        x.base = null;
        if (x.role == Role.RUN) {
            x.phase = Phase.WAIT;
        } else {
            if (config.rules().mayReap(false)) {
                x.phase = Phase.REAP_UNLEASED;
            } else {
                done(x);
            }
        }
    }

    /** The invariant "no takeover of a renewing holder", at the moment a record is replaced. */
    private static void replaced(ModelState n, ModelHost taker, Stored record, String how) {
        ModelHost holder = n.holderOf(Optional.of(record));
        if (holder != null && holder != taker && !holder.crashed && !holder.faulted && !holder.lost && !holder.released) {
            n.violation = "no takeover of a renewing holder: " + taker.name() + " " + how + " the lease of " + holder.name()
                    + ", which had no fault and kept renewing";
        }
    }

    /** {@code Held.renew} on the call thread: the guard, then the compare-and-swap goes on the wire. */
    private void send(ModelState n, ModelHost x) {
        if (!config.rules().mayRenew(x.released, x.lost)) {
            x.call = null;
            return;
        }
        if (x.lost) {
            n.violation = "a fenced holder does nothing: " + x.name() + " sent a renewal after its lease was lost";
        }
        long sent = clock(n, x);
        if (x.unconfirmedSince == null) {
            x.unconfirmedSince = sent;
        }
        x.call = new ModelHost.Call(Stage.SENT, sent, x.current, x.renewal + 1, null, n.now);
    }

    private void apply(ModelState n, ModelHost x) {
        ModelHost.Call c = x.call;
        stampBy(n, x);
        Swap swap = call(() -> n.store.swap(c.base(), labels(x, c.next(), AppDomainLease.HELD)));
        x.call = c.applied(swap);
    }

    /** The read after the renewal: still ours? renewed? confirmed since the renewal was sent. */
    private void answer(ModelState n, ModelHost x) {
        ModelHost.Call c = x.call;
        x.call = null;
        long clock = clock(n, x);
        if (x.partitioned) {
            x.nextAt = clock + TIMING.retry().toNanos(); // the read fails: the renewal is retried
            return;
        }
        LeaseRules rules = config.rules();
        Optional<Stored> after = call(() -> n.store.read(c.base().id()));
        if (!rules.ours(after, x.token())) {
            if (!x.released) {
                x.lost = true;
            }
            return;
        }
        x.current = after.get();
        boolean renewed = rules.renewed(c.swap(), c.next(), x.current);
        if (renewed) {
            x.renewal = c.next();
            x.confirmedAt = rules.confirmedSince(x.confirmedAt, rules.writeSent(c.swap(), c.sentAt(), x.unconfirmedSince), clock);
            x.unconfirmedSince = null;
        }
        x.nextAt = clock + (renewed ? TIMING.heartbeat() : TIMING.retry()).toNanos();
    }

    /** {@code Held.release}: the heartbeat stops, then (if the lease is still ours) released by CAS and deleted. */
    private void release(ModelState n, ModelHost x) {
        x.released = true;
        x.beatEnded = true;
        x.call = null;
        x.phase = Phase.DONE;
        if (x.partitioned || !config.rules().mayRenew(false, x.lost)) {
            return;
        }
        stampBy(n, x);
        Stored seen = x.current;
        if (call(() -> n.store.swap(seen, labels(x, x.renewal, AppDomainLease.RELEASED))) == Swap.SWAPPED) {
            call(() -> {
                n.store.delete(seen.id());
                return null;
            });
        }
    }

    private Map<String, String> labels(ModelHost x, long renewal, String state) {
        return x.lease.labels(DOMAIN, x.token(), x.role == Role.RUN ? "run" : "reap", renewal, state);
    }

    /** Writes are stamped with the writer's clock (only a seeded bug ever reads the stamp). */
    private static void stampBy(ModelState n, ModelHost x) {
        long seconds = n.clock(x);
        n.store.stampedBy(() -> seconds);
    }

    // ---- fairness: what a running host does before real time moves on ----

    private boolean fenceEnabled(ModelState s, ModelHost h) {
        return !h.lost && !h.beatEnded && config.rules().fenceDue(h.confirmedAt, clock(s, h), FENCE);
    }

    private boolean queueEnabled(ModelState s, ModelHost h) {
        return h.call == null && !h.beatEnded && config.rules().mayRenew(h.released, h.lost) && clock(s, h) >= h.nextAt;
    }

    private boolean owesPromptStep(ModelState s) {
        for (ModelHost h : s.hosts) {
            if (owes(s, h)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code h} owes a step before its clock may move on: a contender reads the lease at least
     * once a tick of its own clock (it polls every 250 ms), a healthy holder's renewal and its call are
     * done within the tick, a due fence fires, a decided take is made; a call on the wire to managers
     * that do not answer lands or is lost within {@link #MAX_CALL}.
     */
    private boolean owes(ModelState s, ModelHost h) {
        if (h.call != null && h.call.stage() == Stage.SENT
                && ((h.running() && !h.partitioned) || s.now - h.call.sentTick() >= MAX_CALL)) {
            return true;
        }
        if (!h.running()) {
            return false;
        }
        return switch (h.phase) {
            case WAIT, WATCH -> !h.looked && !h.partitioned;
            case TAKE, RECREATE -> true;
            case HOLD -> fenceEnabled(s, h) || queueEnabled(s, h)
                    || h.call != null && (h.call.stage() == Stage.QUEUED || h.call.stage() == Stage.APPLIED);
            default -> false;
        };
    }

    // ---- the state invariants ----

    /** Whether {@code h} may act on the domain now: the real fence's decision, for its lease (or none). */
    boolean acting(ModelState s, ModelHost h) {
        if (h.crashed) {
            return false;
        }
        if (h.phase == Phase.REAP_UNLEASED) {
            return DomainFence.allows(null);
        }
        long clock = clock(s, h);
        return h.phase == Phase.HOLD
                && DomainFence.allows(() -> config.rules().confirmed(h.lost, h.released, h.confirmedAt, clock, FENCE));
    }

    private void judge(ModelState n) {
        if (n.violation != null) {
            return;
        }
        List<String> actors = new ArrayList<>();
        for (ModelHost h : n.hosts) {
            if (acting(n, h)) {
                actors.add(h.name());
            }
        }
        if (actors.size() > 1) {
            n.violation = "exclusion: " + String.join(" and ", actors) + " act on the domain at once";
            return;
        }
        boolean gone = holderGone(n);
        for (ModelHost h : n.hosts) {
            if (!gone || !h.contending() || h.faulted || !h.running()) {
                h.since = null;
                continue;
            }
            long clock = n.clock(h);
            if (h.since == null) {
                h.since = ns(clock);
            } else if (clock - h.since / ns(1) > TTL + HEARTBEAT) {
                n.violation = "bounded takeover: " + h.name() + " has waited " + (clock - h.since / ns(1))
                        + " ticks of its clock (more than the TTL plus a heartbeat) for a domain whose holder is gone";
                return;
            }
        }
    }

    /** Whether the record's holder can write no more: none, released, or crashed, fenced or done, its last call landed. */
    private static boolean holderGone(ModelState n) {
        Optional<Stored> record = n.record();
        if (record.isEmpty() || AppDomainLease.RELEASED.equals(record.get().label(AppDomainLease.STATE))) {
            return true;
        }
        String token = record.get().label(AppDomainLease.TOKEN);
        for (ModelHost h : n.hosts) {
            if (h.token().equals(token)) {
                return (h.crashed || h.lost || h.released) && h.call == null;
            }
        }
        return true; // a token of a process that restarted since: it is dead
    }

    private interface StoreCall<T> {
        T call() throws IOException;
    }

    private static <T> T call(StoreCall<T> call) {
        try {
            return call.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
