package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.TierOutputs;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.BackupLabels;
import net.commoninternet.ccci.extensions.swarm.ConfigVersions;
import net.commoninternet.ccci.extensions.swarm.DeployedIdentity;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.ComposeConfig;
import net.commoninternet.ccci.extensions.workspace.DeployTimeout;
import net.commoninternet.ccci.extensions.workspace.UpgradePlan;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * UPGRADE: the run deployed the base release; this tier checks out the head in the same tree
 * and redeploys it in place (a config the head changed without a new name fails it first, with
 * the version to bump: {@link ConfigVersions}), then asserts the app converged, serves, and MOVED:
 * the deployed version is the head's and differs from the base's. A base equal to the head never
 * passes.
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
                TierCheck.named("converged", GenericChecks::converged),
                TierCheck.named("serves-http", GenericChecks::servesHttp),
                TierCheck.named("moved-to-head", UpgradeTier::moved));
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = Deployment.of(run);
        UpgradePlan plan = deployment.checkout().upgrade();
        if (plan.base().isEmpty()) {
            throw Skipped.structural(plan.reason());
        }
        String stack = deployment.app().stack();
        DeployedIdentity before = DeployedIdentity.read(deployment.docker().client(), stack);
        deployment.workspace().fetch().moveTo(deployment.app().recipeDir(), plan.headCommit());
        deployment.setup().beforeUpgrade(deployment.app(), deployment.keys());
        ChildProcesses children = deployment.workspace().children();
        // a config edited without a new name: one line naming the bump, before swarm's raw refusal
        ConfigVersions.requireBumped(deployment.docker(), deployment.app(), ComposeConfig.of(deployment.app(), children));
        deployment.driver().upgrade(deployment.app());
        if (run.tiers().contains(Tier.BACKUP) && !deployment.keys().backupCapable().equals(Optional.of(false))
                && BackupLabels.capable(deployment.docker().client(), stack)) {
            // the backup's repository made while swarm rolls the update out (seconds of waiting), not on the backup's path
            deployment.driver().prepareBackup(deployment.app());
        }
        SwarmConvergence.Report report = new SwarmConvergence(deployment.docker())
                .await(stack, DeployTimeout.of(deployment.keys(), deployment.app(), children));
        deployment.outputs().upgrade(new TierOutputs.Upgrade(before, DeployedIdentity.read(deployment.docker().client(), stack)));
        assertThat(report.converged()).as("the upgraded app converged: %s", report.describe()).isTrue();
    }

    private static void moved(Deployment deployment) {
        UpgradePlan plan = deployment.checkout().upgrade();
        TierOutputs.Upgrade moved = deployment.outputs().upgrade().orElseThrow();
        assertThat(moved.after()).as("the deployed app changed").isNotEqualTo(moved.before());
        assertThat(moved.after().version()).as("deployed version label").isPresent();
        assertThat(moved.after().version()).as("from base %s", plan.base().orElseThrow())
                .isNotEqualTo(Optional.of(plan.base().orElseThrow().text()));
        plan.headVersion().ifPresent(head -> assertThat(moved.after().version()).as("the head's version").contains(head));
    }
}
