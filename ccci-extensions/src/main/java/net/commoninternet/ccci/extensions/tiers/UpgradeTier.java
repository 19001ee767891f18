package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import net.commoninternet.ccci.spi.Versions;
import org.apiguardian.api.API;

/**
 * UPGRADE: the run deployed the base release; this tier redeploys the head in place
 * ({@link Versions#redeployTo}: a config the head changed without a new name fails it first, with
 * the version to bump), then asserts the app serves and MOVED (the deployed version is the head's
 * and differs from the base's), and last that it converged. A base equal to the head never passes.
 *
 * <p>The operation ends once the new spec rolled out (its tasks running, none of the old): the app
 * is then in the state the upgrade leaves, and the checks, the recipe's own assertions and the
 * page's picture look at it while swarm holds the update open for its monitor window (5 s unless
 * the recipe sets {@code update_config.monitor}), in which a failing task rolls the update back or
 * pauses it. The {@code converged} check comes after all of them and waits that window out: the
 * tier passes only once swarm ended the update {@code completed}.
 */
@API(status = API.Status.INTERNAL)
public final class UpgradeTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.UPGRADE;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("serves-http", GenericChecks::servesHttp),
                Check.of("moved-to-head", UpgradeTier::moved));
    }

    /** Swarm's end of the update (its monitor window waited out), then a fresh look. */
    @Override
    public List<Check> lastChecks() {
        return List.of(Check.of("converged", UpgradeTier::converged));
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        Versions versions = tier.live().versions();
        Versions.Upgrade plan = versions.upgrade();
        if (plan.base().isEmpty()) {
            throw Skipped.structural(plan.reason());
        }
        Versions.Deployed before = versions.deployed();
        Versions.Rollout rollout = versions.redeployTo(plan.head());
        tier.store().put(TierOutputs.UPGRADE, new TierOutputs.Upgrade(before, versions.deployed()));
        assertThat(rollout.rolledOut()).as("the upgrade rolled out: %s", rollout.description()).isTrue();
    }

    private static void converged(TierContext tier) throws IOException, InterruptedException {
        Convergence settled = tier.live().awaitConverged();
        assertThat(settled.converged()).as("swarm ended the update and every service converged: %s", settled.description())
                .isTrue();
        GenericChecks.converged(tier);
    }

    private static void moved(TierContext tier) {
        Versions.Upgrade plan = tier.live().versions().upgrade();
        TierOutputs.Upgrade moved = tier.store().find(TierOutputs.UPGRADE).orElseThrow();
        assertThat(moved.after()).as("the deployed app changed").isNotEqualTo(moved.before());
        assertThat(moved.after().version()).as("deployed version label").isPresent();
        assertThat(moved.after().version()).as("from base %s", plan.base().orElseThrow())
                .isNotEqualTo(Optional.of(plan.base().orElseThrow()));
        plan.headVersion().ifPresent(head -> assertThat(moved.after().version()).as("the head's version").contains(head));
    }
}
