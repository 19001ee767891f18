package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

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
 * the version to bump), then asserts the app converged, serves, and MOVED: the deployed version is
 * the head's and differs from the base's. A base equal to the head never passes.
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
                Check.of("converged", GenericChecks::converged),
                Check.of("serves-http", GenericChecks::servesHttp),
                Check.of("moved-to-head", UpgradeTier::moved));
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        Versions versions = tier.live().versions();
        Versions.Upgrade plan = versions.upgrade();
        if (plan.base().isEmpty()) {
            throw Skipped.structural(plan.reason());
        }
        Versions.Deployed before = versions.deployed();
        Convergence report = versions.redeployTo(plan.head());
        tier.store().put(TierOutputs.UPGRADE, new TierOutputs.Upgrade(before, versions.deployed()));
        assertThat(report.converged()).as("the upgraded app converged: %s", report.description()).isTrue();
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
