package net.commoninternet.ccci.extensions.lock;

import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;

/**
 * One runner host of the lease model ({@link ProtocolModel}): a process that either runs the domain
 * (takes the lease, holds and renews it, releases it) or sweeps it as a janitor (looks, judges,
 * watches, takes, reaps, releases), with what that process knows locally: where it is in the
 * protocol, the reads it counts from, its lease as a {@link AppDomainLease.Held} keeps it, and its
 * own monotonic clock. Mutable, copied into every successor state.
 */
final class ModelHost {

    enum Role { RUN, JANITOR }

    /** Where the host is: the real code's place between two store calls. */
    enum Phase {
        /** A run before its first create (it may start at any time). */
        START,
        /** A run waiting for a lease held elsewhere, reading it every poll. */
        WAIT,
        /** A take decided (from {@link ModelHost#base}): its store call comes next. */
        TAKE,
        /** A take of a released record whose delete is done: the create comes next. */
        RECREATE,
        /** Holding the lease: renewing, acting while confirmed, until released. */
        HOLD,
        /** A janitor reaping with no lease of its own (only a seeded bug gets here). */
        REAP_UNLEASED,
        /** A janitor about to probe and read the lease (a sweep may start at any time). */
        LOOK,
        /** A janitor watching a lease that looked stale. */
        WATCH,
        /** The run or the sweep is over. */
        DONE
    }

    /** Where the holder's renewal call stands: queued on the call thread, on the wire, applied, answered. */
    enum Stage { QUEUED, SENT, APPLIED }

    /** The renewal under way: what {@code Held.renew} has in its locals. */
    record Call(Stage stage, long sentAt, Stored base, long next, Swap swap, long sentTick) {
        Call applied(Swap result) {
            return new Call(Stage.APPLIED, sentAt, base, next, result, sentTick);
        }
    }

    final int index;
    final Role role;
    /** This host's monotonic clock reads real time plus this (its boot) plus its drift. */
    final long boot;
    final AppDomainLease lease;

    Phase phase;
    boolean crashed;
    boolean paused;
    boolean partitioned;
    /** Ghost: a fault hit this host since its current tenure or contention began (it is no longer "healthy"). */
    boolean faulted;
    /** The clock's drift from real time, in ticks, within the model's bound. */
    int drift;
    /** Drift events so far. */
    int drifts;
    /** Takes so far: its token is {@code <host>#<gen>}. */
    int gen;

    /** The run's watch, or the janitor's first read of the lease it watches. */
    AppDomainLease.Seen watched;
    /** The state a decided take goes from. */
    AppDomainLease.Seen base;
    /** Read the lease since the last tick (a contender polls several times a tick in reality). */
    boolean looked;

    Stored current;
    long renewal;
    long confirmedAt;
    /** When the first renewal since the last confirmed one was sent, or null. */
    Long unconfirmedSince;
    boolean lost;
    boolean released;
    /** The heartbeat thread has returned (after the fence, a loss or the release). */
    boolean beatEnded;
    long nextAt;
    Call call;
    /** Ghost: the clock reading the liveness bound counts from (null: no bound on this host now). */
    Long since;

    ModelHost(int index, Role role, long boot, AppDomainLease lease) {
        this.index = index;
        this.role = role;
        this.boot = boot;
        this.lease = lease;
        this.phase = role == Role.RUN ? Phase.START : Phase.LOOK;
    }

    ModelHost copy() {
        ModelHost c = new ModelHost(index, role, boot, lease);
        c.phase = phase;
        c.crashed = crashed;
        c.paused = paused;
        c.partitioned = partitioned;
        c.faulted = faulted;
        c.drift = drift;
        c.drifts = drifts;
        c.gen = gen;
        c.watched = watched;
        c.base = base;
        c.looked = looked;
        c.current = current;
        c.renewal = renewal;
        c.confirmedAt = confirmedAt;
        c.unconfirmedSince = unconfirmedSince;
        c.lost = lost;
        c.released = released;
        c.beatEnded = beatEnded;
        c.nextAt = nextAt;
        c.call = call;
        c.since = since;
        return c;
    }

    String name() {
        return String.valueOf((char) ('A' + index));
    }

    String token() {
        if (tokenGen != gen) {
            token = name() + "#" + gen;
            tokenGen = gen;
        }
        return token;
    }

    private String token = "";
    private int tokenGen = -1;

    /** Whether the host takes steps: not crashed, not paused. */
    boolean running() {
        return !crashed && !paused;
    }

    boolean contending() {
        return phase == Phase.WAIT || phase == Phase.WATCH || phase == Phase.TAKE || phase == Phase.RECREATE;
    }

    /** Resets what a process knows when it starts holding (a new tenure: its faults so far are behind it). */
    void hold(Stored taken, long sentAt, long clock) {
        phase = Phase.HOLD;
        current = taken;
        renewal = 0;
        confirmedAt = sentAt;
        unconfirmedSince = null;
        lost = false;
        released = false;
        beatEnded = false;
        nextAt = clock + ProtocolModel.ns(ProtocolModel.HEARTBEAT);
        call = null;
        watched = null;
        base = null;
        faulted = false;
        since = null;
    }
}
