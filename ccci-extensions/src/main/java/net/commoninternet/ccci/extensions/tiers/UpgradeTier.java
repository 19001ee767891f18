package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.swarm.DeployedIdentity;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.UpgradePlan;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * UPGRADE: the run deployed the base release; this tier checks out the head in the same tree
 * and redeploys it in place, then asserts the app converged, serves, and MOVED: the deployed
 * version is the head's and differs from the base's. A base equal to the head never passes.
 */
public final class UpgradeTier implements TierPlugin {

    /** What the deployed app looked like before and after the upgrade. */
    record Moved(DeployedIdentity before, DeployedIdentity after) {
    }

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
    public void operate(RunContext run) throws Exception {
        UpgradePlan plan = run.get(UpgradePlan.class);
        if (plan.base().isEmpty()) {
            throw new TestAbortedException("structural skip: " + plan.reason());
        }
        Deployment deployment = run.get(Deployment.class);
        DeployedIdentity before = DeployedIdentity.read(deployment.docker().client(), deployment.app().stack());
        new RecipeFetch(deployment.children()).moveTo(deployment.app().recipeDir(), plan.headCommit());
        CiKeys keys = run.find(CiKeys.class).orElse(CiKeys.defaults());
        run.get(RecipeSetup.class).beforeUpgrade(deployment.app(), keys);
        deployment.driver().upgrade(deployment.app());
        SwarmConvergence.Report report = new SwarmConvergence(deployment.docker())
                .await(deployment.app().stack(), java.time.Duration.ofSeconds(keys.deployTimeoutSeconds()));
        run.put(Moved.class, new Moved(before, DeployedIdentity.read(deployment.docker().client(), deployment.app().stack())));
        assertThat(report.converged()).as("the upgraded app converged: %s", report.describe()).isTrue();
    }

    private static void moved(RunContext run) {
        UpgradePlan plan = run.get(UpgradePlan.class);
        Moved moved = run.get(Moved.class);
        assertThat(moved.after()).as("the deployed app changed").isNotEqualTo(moved.before());
        assertThat(moved.after().version()).as("deployed version label").isPresent();
        assertThat(moved.after().version()).as("from base %s", plan.base().orElseThrow())
                .isNotEqualTo(java.util.Optional.of(plan.base().orElseThrow().text()));
        plan.headVersion().ifPresent(head -> assertThat(moved.after().version()).as("the head's version").contains(head));
    }
}
