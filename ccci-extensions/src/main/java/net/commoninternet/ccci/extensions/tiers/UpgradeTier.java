package net.commoninternet.ccci.extensions.tiers;

import java.io.IOException;
import java.util.List;
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
        if (!rollout.rolledOut()) {
            throw Words.failed("the upgrade to " + Words.head(plan) + " did not roll out: " + rollout.description());
        }
    }

    private static void converged(TierContext tier) throws IOException, InterruptedException {
        Convergence settled = tier.live().awaitConverged();
        if (!settled.converged()) {
            throw Words.failed("swarm did not end the upgrade with every service converged: " + settled.description());
        }
        GenericChecks.converged(tier);
    }

    /**
     * The app moved to the head: something of it changed, it carries a version label, no longer the
     * base's, and the one the head declares. Each failure names what is running, the head under test
     * (its release tag, or its commit) and what to change.
     */
    private static void moved(TierContext tier) {
        Versions.Upgrade plan = tier.live().versions().upgrade();
        TierOutputs.Upgrade moved = tier.store().find(TierOutputs.UPGRADE).orElseThrow();
        Versions.Deployed before = moved.before();
        Versions.Deployed after = moved.after();
        String head = "the head under test is " + Words.head(plan);
        if (after.equals(before)) {
            throw Words.failed("the upgrade left " + Words.version(before.version()) + " running with the same images; " + head
                    + (plan.headVersion().isPresent() && plan.headVersion().equals(before.version())
                            ? ", but its compose.yml still labels the version " + plan.headVersion().get() + " and runs "
                                    + Words.images(after.images()) + ": bump its coop-cloud.${STACK_NAME}.version label"
                            : " (running: " + Words.images(after.images()) + ")"));
        }
        if (after.version().isEmpty()) {
            throw Words.failed("the upgraded app carries no version label; " + head + ": label its deploy with"
                    + " coop-cloud.${STACK_NAME}.version (images now: " + Words.images(after.images()) + ")");
        }
        String base = plan.base().orElseThrow();
        if (after.version().get().equals(base)) {
            throw Words.failed("the upgrade left the version label at the base's " + base + " (" + Words.imageChanges(
                    before.images(), after.images()) + "); " + head + ": bump its coop-cloud.${STACK_NAME}.version label");
        }
        if (plan.headVersion().isPresent() && !after.version().equals(plan.headVersion())) {
            throw Words.failed("the upgrade left " + after.version().get() + " running; " + head + ", whose compose.yml"
                    + " labels the version " + plan.headVersion().get());
        }
    }
}
