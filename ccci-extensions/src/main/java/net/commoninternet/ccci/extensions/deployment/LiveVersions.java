package net.commoninternet.ccci.extensions.deployment;

import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.swarm.ConfigVersions;
import net.commoninternet.ccci.extensions.swarm.DeployedIdentity;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.spi.Versions;

/** The run's upgrade plan, the swarm's view of what is deployed, and the in-place redeploy in the run's own tree. */
record LiveVersions(Deployment deployment) implements Versions {

    @Override
    public Upgrade upgrade() {
        UpgradePlan plan = deployment.prepared().checkout().upgrade();
        return new Upgrade(plan.base().map(RecipeVersion::text), plan.headCommit(), plan.headVersion(), plan.headRelease(),
                plan.reason());
    }

    @Override
    public Deployed deployed() {
        DeployedIdentity now = DeployedIdentity.read(deployment.tools().docker().client(), deployment.deployed().stack());
        return new Deployed(now.version(), now.images());
    }

    /**
     * The tree moved in place, the set-up's upgrade env, then a config the commit edited without a
     * new name fails in one line naming the bump (before swarm's raw refusal), then the driver's
     * upgrade (not a deploy in the deploy count), until it rolled out. The upgrade's picture gets
     * its browser context opened, and a backup that follows in this run its repository made, while
     * swarm rolls the update out, not on their paths.
     */
    @Override
    public Rollout redeployTo(String commit) throws Exception {
        Prepared prepared = deployment.prepared();
        App app = deployment.deployed();
        CiKeys keys = prepared.keys();
        ChildProcesses children = prepared.workspace().children();
        prepared.workspace().fetch().moveTo(app.recipeDir(), commit);
        prepared.setup().beforeUpgrade(app, keys);
        ConfigVersions.requireBumped(deployment.tools().docker(), app, ComposeConfig.of(app, children));
        deployment.tools().driver().upgrade(app);
        deployment.tools().browser().openAhead(app.stack());
        if (prepared.tiers().contains(Tier.BACKUP) && !keys.backupCapable().equals(Optional.of(false))
                && BackupLabels.capable(deployment.tools().docker().client(), app.stack())) {
            deployment.tools().driver().prepareBackup(app);
        }
        SwarmConvergence.Report rollout = new SwarmConvergence(deployment.tools().docker())
                .awaitRollout(app.stack(), prepared.workspace().policy().deployTimeout(keys, app));
        return new Rollout(rollout.rolledOut(), rollout.describe());
    }
}
