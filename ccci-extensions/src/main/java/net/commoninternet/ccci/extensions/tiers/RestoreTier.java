package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.TierOutputs;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * RESTORE: changes the marker BACKUP seeded, restores that backup, and asserts the seeded value
 * came back and the app converges and serves. Without a backup of this run there is nothing to
 * restore: a structural skip.
 */
@API(status = API.Status.INTERNAL)
public final class RestoreTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.RESTORE;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                TierCheck.named("marker-restored", RestoreTier::markerRestored),
                TierCheck.named("converged", GenericChecks::converged),
                TierCheck.named("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = Deployment.of(run);
        TierOutputs.Backup taken = deployment.outputs().backup().orElseThrow(() -> Skipped.structural(
                "no backup was taken in this run (the BACKUP tier did not run or was skipped)"));
        ContainerExec exec = deployment.exec();
        if (taken.marker().isPresent()) {
            TierOutputs.Marker marker = taken.marker().get();
            ContainerExec.Result changed = exec.sh(exec.runningContainer(marker.service()),
                    "printf %s changed-before-restore > " + ContainerExec.quoted(marker.file()));
            assertThat(changed.ok()).as("changing the marker before the restore: %s", changed.output()).isTrue();
        }
        deployment.driver().restore(deployment.app(), taken.snapshotId());
        if (taken.marker().isPresent()) {
            TierOutputs.Marker marker = taken.marker().get();
            deployment.outputs().restoredMarker(exec.sh(exec.runningContainer(marker.service()), "cat " + ContainerExec.quoted(marker.file()))
                    .output());
        }
    }

    private static void markerRestored(Deployment deployment) {
        TierOutputs.Marker marker = deployment.outputs().backup().orElseThrow().marker().orElseThrow(() -> Skipped.structural(
                "the backup holds no directory to seed a marker in (only files, such as a dump its pre-hook writes):"
                        + " the recipe's own restore assertions are the proof"));
        assertThat(deployment.outputs().restoredMarker().orElseThrow()).as("the marker seeded before the backup")
                .isEqualTo(marker.seeded());
    }
}
