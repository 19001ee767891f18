package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Swap;
import org.junit.jupiter.api.Test;

/** Each decision of the protocol at its boundaries (the model checker explores their combinations). */
class LeaseRulesTest {

    private static final LeaseRules RULES = LeaseRules.PROTOCOL;
    private static final Duration TEN = Duration.ofNanos(10);

    private static AppDomainLease.Seen seen(String state, long version, long at) {
        Stored r = new Stored("id", "ccci-lease-x", version, Instant.EPOCH,
                Map.of(AppDomainLease.STATE, state, AppDomainLease.TOKEN, "t", AppDomainLease.RENEWAL, "3"));
        return new AppDomainLease.Seen("x", Optional.of(r), at);
    }

    private static AppDomainLease.Seen absent(long at) {
        return new AppDomainLease.Seen("x", Optional.empty(), at);
    }

    @Test
    void aTakeCreatesRecreatesOrSwapsAsTheRecordIs() {
        assertThat(RULES.take(absent(0))).isEqualTo(LeaseRules.Move.CREATE);
        assertThat(RULES.take(seen(AppDomainLease.RELEASED, 1, 0))).isEqualTo(LeaseRules.Move.RECREATE);
        assertThat(RULES.take(seen(AppDomainLease.HELD, 1, 0))).isEqualTo(LeaseRules.Move.SWAP);
    }

    @Test
    void onlyAFreeLeaseOrAGoneHolderIsTakenAtOnce() {
        assertThat(RULES.takeableAtOnce(absent(0), false)).isTrue();
        assertThat(RULES.takeableAtOnce(seen(AppDomainLease.RELEASED, 1, 0), false)).isTrue();
        assertThat(RULES.takeableAtOnce(seen(AppDomainLease.HELD, 1, 0), false)).isFalse();
        assertThat(RULES.takeableAtOnce(seen(AppDomainLease.HELD, 1, 0), true)).isTrue();
    }

    @Test
    void aWatchCountsFromTheFirstReadOfTheVersionOnTheWatchersClock() {
        AppDomainLease.Seen first = seen(AppDomainLease.HELD, 4, 100);
        assertThat(RULES.watching(null, first)).isSameAs(first);
        assertThat(RULES.watching(first, seen(AppDomainLease.HELD, 4, 105))).isSameAs(first);
        AppDomainLease.Seen renewed = seen(AppDomainLease.HELD, 5, 105);
        assertThat(RULES.watching(first, renewed)).isSameAs(renewed);

        assertThat(RULES.watch(first, seen(AppDomainLease.HELD, 4, 109), 109, TEN)).isEqualTo(LeaseRules.Watch.PENDING);
        assertThat(RULES.watch(first, seen(AppDomainLease.HELD, 4, 110), 110, TEN)).isEqualTo(LeaseRules.Watch.EXPIRED);
        assertThat(RULES.watch(first, renewed, 200, TEN)).isEqualTo(LeaseRules.Watch.RENEWED);
        assertThat(RULES.watch(first, absent(200), 200, TEN)).isEqualTo(LeaseRules.Watch.RENEWED);
    }

    @Test
    void aJanitorReapsAFreeLeaseLeavesAFreshOneAndWatchesAStaleOne() {
        boolean[] asked = {false};
        assertThat(RULES.judge(absent(0), false, () -> asked[0] = true)).isEqualTo(LeaseRules.Judgement.TAKE_AND_REAP);
        assertThat(asked[0]).as("the swarm's clock is not asked of a free lease").isFalse();
        assertThat(RULES.judge(seen(AppDomainLease.HELD, 1, 0), true, () -> true)).isEqualTo(LeaseRules.Judgement.TAKE_AND_REAP);
        assertThat(RULES.judge(seen(AppDomainLease.HELD, 1, 0), false, () -> false)).isEqualTo(LeaseRules.Judgement.LIVE_ELSEWHERE);
        assertThat(RULES.judge(seen(AppDomainLease.HELD, 1, 0), false, () -> true)).isEqualTo(LeaseRules.Judgement.WATCH);
        assertThat(RULES.mayReap(true)).isTrue();
        assertThat(RULES.mayReap(false)).isFalse();
    }

    @Test
    void theHolderIsConfirmedUntilTheFenceAndFencedFromIt() {
        assertThat(RULES.confirmed(false, false, 100, 109, TEN)).isTrue();
        assertThat(RULES.confirmed(false, false, 100, 110, TEN)).isFalse();
        assertThat(RULES.confirmed(true, false, 100, 101, TEN)).isFalse();
        assertThat(RULES.confirmed(false, true, 100, 101, TEN)).isFalse();
        assertThat(RULES.fenceDue(100, 109, TEN)).isFalse();
        assertThat(RULES.fenceDue(100, 110, TEN)).isTrue();
    }

    @Test
    void aLostOrReleasedLeaseIsNeverWrittenAgain() {
        assertThat(RULES.mayRenew(false, false)).isTrue();
        assertThat(RULES.mayRenew(true, false)).isFalse();
        assertThat(RULES.mayRenew(false, true)).isFalse();
    }

    @Test
    void aRenewalIsCreditedFromTheSendingOfTheWriteItFound() {
        Stored after = seen(AppDomainLease.HELD, 2, 0).record().get(); // renewal 3
        assertThat(RULES.renewed(Swap.SWAPPED, 9, after)).isTrue();
        assertThat(RULES.renewed(null, 3, after)).isTrue();
        assertThat(RULES.renewed(Swap.OUT_OF_SEQUENCE, 3, after)).isTrue();
        assertThat(RULES.renewed(Swap.OUT_OF_SEQUENCE, 4, after)).isFalse();
        assertThat(RULES.writeSent(Swap.SWAPPED, 50, 20)).isEqualTo(50);
        assertThat(RULES.writeSent(Swap.OUT_OF_SEQUENCE, 50, 20)).isEqualTo(20);
        assertThat(RULES.writeSent(null, 50, 20)).isEqualTo(20);
        assertThat(RULES.confirmedSince(30, 20, 90)).isEqualTo(30);
        assertThat(RULES.confirmedSince(10, 20, 90)).isEqualTo(20);
    }

    @Test
    void onlyAHeldRecordWithTheTokenIsOurs() {
        Optional<Stored> held = seen(AppDomainLease.HELD, 1, 0).record();
        assertThat(RULES.ours(held, "t")).isTrue();
        assertThat(RULES.ours(held, "u")).isFalse();
        assertThat(RULES.ours(seen(AppDomainLease.RELEASED, 1, 0).record(), "t")).isFalse();
        assertThat(RULES.ours(Optional.empty(), "t")).isFalse();
    }
}
