package net.commoninternet.ccci.extensions.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;

/**
 * Every decision of the app-domain lease protocol, as pure functions of what a host knows: the
 * record as it read it (a {@link AppDomainLease.Seen}: its version and labels), its own local state
 * (lost, released, the renewal under way) and readings of its own monotonic clock. No store call, no
 * clock read, no thread: {@link AppDomainLease}, its {@link AppDomainLease.Held} and the
 * {@link Janitor} ask these, and so does the protocol's model checker (the lock package's tests), so
 * what is explored is what runs.
 *
 * <p>Each decision, its resource, invariant, sharing scope and linearization point:
 * <table>
 *   <caption>the decisions</caption>
 *   <tr><th>decision</th><th>resource</th><th>invariant</th><th>scope</th><th>linearization point</th></tr>
 *   <tr><td>{@link #take}</td><td>the domain's record</td><td>a held record is only ever replaced from the very
 *       version its taker judged (so a renewal in between makes the take lose)</td><td>the swarm</td>
 *       <td>the create (409 if present) or the compare-and-swap from that version</td></tr>
 *   <tr><td>{@link #takeableAtOnce}, {@link #watching}, {@link #watch}</td><td>a contender's view of a held
 *       lease</td><td>a lease counts as expired only once its version stayed the same for the TTL on the
 *       contender's own clock, from its first read of that version</td><td>one contender (its clock)</td>
 *       <td>the read that found the version unchanged</td></tr>
 *   <tr><td>{@link #judge}, {@link #mayReap}</td><td>an orphan's app, seen by a janitor</td><td>no reap
 *       without a lease of the janitor's own</td><td>the host (the probe flock), the swarm (the lease)</td>
 *       <td>the janitor's take</td></tr>
 *   <tr><td>{@link #confirmed}, {@link #fenceDue}</td><td>the holder's right to act on the domain</td><td>the
 *       holder stops acting two thirds of the TTL after sending its last confirmed renewal, before any
 *       contender can see it expire</td><td>one JVM (the holder's clock)</td><td>the fence check
 *       ({@code DomainFence.mayAct} before each removal pass)</td></tr>
 *   <tr><td>{@link #mayRenew}, {@link #renewed}, {@link #confirmedSince}, {@link #ours}</td><td>the holder's
 *       record</td><td>a fenced or released holder writes nothing more; a renewal confirms the holder
 *       from the moment it was sent, never from its answer</td><td>one JVM (the lease's threads)</td>
 *       <td>the renewal's compare-and-swap, settled by the read after it</td></tr>
 * </table>
 *
 * <p>Not final on purpose: the model checker's seeded bugs are subclasses in test code, handed to
 * the package-private constructors; production code only ever uses {@link #PROTOCOL}.
 */
class LeaseRules {

    /** The protocol as built. */
    static final LeaseRules PROTOCOL = new LeaseRules();

    /** How a take goes from the state seen. */
    enum Move {
        /** Nobody has a record: create it (a 409 means another won). */
        CREATE,
        /** A released record: delete it by id (released is terminal: nothing live goes), then create. */
        RECREATE,
        /** A held record whose holder is proven gone: compare-and-swap from the very version seen. */
        SWAP
    }

    /** Where a watch of a held lease stands. */
    enum Watch {
        /** Its version moved (a renewal, a release, a take) or it is gone: its holder lives, or finished. */
        RENEWED,
        /** Its version stayed the same for the TTL on the watcher's clock. */
        EXPIRED,
        /** Neither yet. */
        PENDING
    }

    /** A janitor's judgement of a candidate whose probe flock it holds. */
    enum Judgement {
        /** No run anywhere owns it (no lease, released, or held by a run proven gone): take the lease and reap. */
        TAKE_AND_REAP,
        /** Held from elsewhere and written lately by the swarm's clock: a live run there. */
        LIVE_ELSEWHERE,
        /** Held from elsewhere and not written lately: watched for the TTL. */
        WATCH
    }

    Move take(AppDomainLease.Seen seen) {
        if (seen.absent()) {
            return Move.CREATE;
        }
        return seen.released() ? Move.RECREATE : Move.SWAP;
    }

    /** Whether a contender may take the lease without watching it: nobody holds it, or its holder is proven gone. */
    boolean takeableAtOnce(AppDomainLease.Seen seen, boolean provenGone) {
        return seen.absent() || seen.released() || provenGone;
    }

    /** The read a watch counts from: the first read of the version now seen ({@code watched} if the version is the same). */
    AppDomainLease.Seen watching(AppDomainLease.Seen watched, AppDomainLease.Seen seen) {
        return watched == null || watched.version() != seen.version() ? seen : watched;
    }

    /**
     * The watch of {@code first} (its first read), read again as {@code now} at {@code clock} (the
     * watcher's monotonic clock). Never compares two hosts' clocks: both readings are the watcher's.
     */
    Watch watch(AppDomainLease.Seen first, AppDomainLease.Seen now, long clock, Duration ttl) {
        if (now.version() != first.version()) {
            return Watch.RENEWED;
        }
        return clock - first.seenAt() >= ttl.toNanos() ? Watch.EXPIRED : Watch.PENDING;
    }

    /**
     * A janitor's verdict, once its probe flock is acquired; {@code looksStale} is the swarm clock's
     * hint, asked only of a lease held from elsewhere (asking costs a write to the swarm's clock record).
     */
    Judgement judge(AppDomainLease.Seen seen, boolean provenGone, BooleanSupplier looksStale) {
        if (takeableAtOnce(seen, provenGone)) {
            return Judgement.TAKE_AND_REAP;
        }
        return looksStale.getAsBoolean() ? Judgement.WATCH : Judgement.LIVE_ELSEWHERE;
    }

    /** Whether a janitor may reap after its take: only under a lease it took itself ({@code tookItsLease}). */
    boolean mayReap(boolean tookItsLease) {
        return tookItsLease;
    }

    /**
     * Whether the holder may act on the domain at {@code now}: its lease neither lost nor released,
     * and a renewal confirmed within {@code fenceAfter} (measured from when that renewal was sent).
     */
    boolean confirmed(boolean lost, boolean released, long confirmedAt, long now, Duration fenceAfter) {
        return !lost && !released && now - confirmedAt < fenceAfter.toNanos();
    }

    /** Whether the holder's heartbeat must fence it now: no renewal confirmed for {@code fenceAfter}. */
    boolean fenceDue(long confirmedAt, long now, Duration fenceAfter) {
        return now - confirmedAt >= fenceAfter.toNanos();
    }

    /** Whether the holder may still write its record: not once released, not once lost (fenced or taken over). */
    boolean mayRenew(boolean released, boolean lost) {
        return !released && !lost;
    }

    /**
     * Whether the renewal to number {@code next} was applied: its compare-and-swap said so, or (the
     * call failed ambiguously: a manager that died mid-call) the record read after it carries it.
     */
    boolean renewed(Swap swap, long next, Stored after) {
        return swap == Swap.SWAPPED || Long.toString(next).equals(after.label(AppDomainLease.RENEWAL));
    }

    /**
     * When the write a renewal found was sent: this very call's sending if its compare-and-swap said it
     * was applied; otherwise (its answer was lost, or it lost to a write carrying its renewal number) the
     * write is one of the attempts made since the last confirmed renewal, which all carry that number,
     * so no earlier than the first of them ({@code firstUnconfirmed}). Crediting the later attempt would
     * confirm the holder past the moment a contender first read that write.
     */
    long writeSent(Swap swap, long sent, long firstUnconfirmed) {
        return swap == Swap.SWAPPED ? sent : firstUnconfirmed;
    }

    /**
     * The moment the holder's lease counts as confirmed from, after a renewal sent at {@code sent} was
     * applied and answered at {@code answered}: its sending (no contender can have first read the
     * version it wrote before that), never its answer, which a slow network can make arbitrarily late.
     */
    long confirmedSince(long confirmedAt, long sent, long answered) {
        return Math.max(confirmedAt, sent);
    }

    /** Whether {@code record} is still the lease with {@code token}, held. */
    boolean ours(Optional<Stored> record, String token) {
        return record.isPresent() && token.equals(record.get().label(AppDomainLease.TOKEN))
                && AppDomainLease.HELD.equals(record.get().label(AppDomainLease.STATE));
    }
}
