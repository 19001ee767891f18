package net.commoninternet.ccci.extensions.lock;

import java.time.Duration;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;

/**
 * Deliberate mutations of the lease protocol's decisions, to prove the model checker finds what it
 * should: each is a {@link LeaseRules} subclass, handed to the model (or to a real
 * {@link AppDomainLease}) by a test, so none is ever on the production path, which only knows
 * {@link LeaseRules#PROTOCOL}.
 */
enum SeededBug {

    /** The holder never fences itself: a holder cut off from the managers acts on after its lease expired. */
    FENCE_OFF("the fence off", new LeaseRules() {
        @Override
        boolean confirmed(boolean lost, boolean released, long confirmedAt, long now, Duration fenceAfter) {
            return !lost && !released;
        }

        @Override
        boolean fenceDue(long confirmedAt, long now, Duration fenceAfter) {
            return false;
        }
    }),

    /** A take of a held lease deletes it and creates its own, instead of a compare-and-swap from the version watched. */
    TAKE_WITHOUT_CAS("the take without the CAS version", new LeaseRules() {
        @Override
        Move take(AppDomainLease.Seen seen) {
            return seen.absent() ? Move.CREATE : Move.RECREATE;
        }
    }),

    /** A watch that judges expiry by the record's time stamp (written with the holder's clock), not its own first read. */
    WATCH_TRUSTS_HOLDER_CLOCK("the watch that trusts the holder's clock", new LeaseRules() {
        @Override
        Watch watch(AppDomainLease.Seen first, AppDomainLease.Seen now, long clock, Duration ttl) {
            if (now.version() != first.version()) {
                return Watch.RENEWED;
            }
            long stamp = now.record().map(Stored::updatedAt).orElseThrow().getEpochSecond() * 1_000_000_000L;
            return clock - stamp >= ttl.toNanos() ? Watch.EXPIRED : Watch.PENDING;
        }
    }),

    /** A renewal still goes out once the lease is lost (fenced, or taken over). */
    RENEW_AFTER_FENCE("the heartbeat that renews after the fence", new LeaseRules() {
        @Override
        boolean mayRenew(boolean released, boolean lost) {
            return !released;
        }
    }),

    /** A janitor that lost the take reaps all the same, under no lease of its own. */
    REAP_WITHOUT_LEASE("the reap without its own lease", new LeaseRules() {
        @Override
        boolean mayReap(boolean tookItsLease) {
            return true;
        }
    }),

    /**
     * The bug the model checker found in the protocol as first built: a renewal applied whose answer
     * was lost, found by a retry whose compare-and-swap lost to it, credited from the retry's sending.
     */
    CREDITS_THE_RETRY("the lost renewal credited to the retry that found it", new LeaseRules() {
        @Override
        long writeSent(Swap swap, long sent, long firstUnconfirmed) {
            return sent;
        }
    }),

    /** A renewal confirms the holder from when its answer came back, not from when it was sent. */
    CONFIRMED_FROM_ANSWER("the renewal confirmed from its answer, not its sending", new LeaseRules() {
        @Override
        long confirmedSince(long confirmedAt, long sent, long answered) {
            return Math.max(confirmedAt, answered);
        }
    });

    private final String what;
    private final LeaseRules rules;

    SeededBug(String what, LeaseRules rules) {
        this.what = what;
        this.rules = rules;
    }

    String what() {
        return what;
    }

    LeaseRules rules() {
        return rules;
    }

    /** Whether these rules read records' time stamps (then the model keeps them in its states). */
    boolean readsStamps() {
        return this == WATCH_TRUSTS_HOLDER_CLOCK;
    }
}
