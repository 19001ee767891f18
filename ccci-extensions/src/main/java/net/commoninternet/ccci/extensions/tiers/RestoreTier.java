package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * RESTORE: changes the marker BACKUP seeded, restores that backup, and asserts the seeded value
 * came back and the app converges and serves. Without a backup of this run there is nothing to
 * restore: a structural skip.
 */
public final class RestoreTier implements TierPlugin {

    /** What the marker read after the restore. */
    record Restored(String marker) {
    }

    @Override
    public Tier tier() {
        return Tier.RESTORE;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("marker-restored", RestoreTier::markerRestored),
                Check.of("converged", GenericChecks::converged),
                Check.of("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(RunContext run) throws Exception {
        BackupTier.Taken taken = run.find(BackupTier.Taken.class).orElseThrow(() -> new TestAbortedException(
                "structural skip: no backup was taken in this run (the BACKUP tier did not run or was skipped)"));
        Deployment deployment = run.get(Deployment.class);
        ContainerExec exec = new ContainerExec(deployment.docker().client());
        ContainerExec.Result changed = exec.sh(exec.runningContainer(taken.service()),
                "printf %s changed-before-restore > '" + taken.markerFile() + "'");
        assertThat(changed.ok()).as("changing the marker before the restore: %s", changed.output()).isTrue();
        deployment.driver().restore(deployment.app(), taken.snapshotId());
        ContainerExec.Result read = exec.sh(exec.runningContainer(taken.service()), "cat '" + taken.markerFile() + "'");
        run.put(Restored.class, new Restored(read.output()));
    }

    private static void markerRestored(RunContext run) {
        assertThat(run.get(Restored.class).marker()).as("the marker seeded before the backup")
                .isEqualTo(run.get(BackupTier.Taken.class).seeded());
    }
}
