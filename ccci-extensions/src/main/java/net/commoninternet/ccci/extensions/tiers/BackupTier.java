package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.TierOutputs;
import net.commoninternet.ccci.extensions.swarm.AppProbes;
import net.commoninternet.ccci.extensions.swarm.BackupLabels;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * BACKUP, for backup-capable apps (a service labelled {@code backupbot.backup=true}): seeds a
 * marker in the first backed-up directory, takes one backup, and asserts its snapshot id and that
 * the app still converges and serves (pre/post hooks ran in it). RESTORE later changes the marker
 * and expects the seeded value back. A backup of files only (a database dump its pre-hook writes)
 * has no directory for a marker: then the recipe's own assertions prove the restore.
 */
@API(status = API.Status.INTERNAL)
public final class BackupTier implements TierPlugin {

    static final String MARKER = ".ccci-restore-marker";
    /** The seeding exec's status for a place that is not a directory (the next place is tried). */
    private static final int NOT_A_DIRECTORY = 3;

    @Override
    public Tier tier() {
        return Tier.BACKUP;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                TierCheck.named("snapshot-created", BackupTier::snapshotCreated),
                TierCheck.named("backup-verified", BackupTier::verified),
                TierCheck.named("converged", GenericChecks::converged),
                TierCheck.named("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = Deployment.of(run);
        String stack = deployment.app().stack();
        boolean labelled = BackupLabels.capable(deployment.docker().client(), stack);
        Optional<Boolean> declared = deployment.keys().backupCapable();
        if (declared.isPresent() && !declared.get()) {
            throw Skipped.intentional("the recipe sets BACKUP_CAPABLE=false");
        }
        if (!labelled) {
            if (declared.isPresent()) {
                throw new AssertionError("the recipe sets BACKUP_CAPABLE=true but no service of the app is labelled"
                        + " backupbot.backup=true, so there is nothing to back up: label the services whose data"
                        + " matters (backupbot.backup=true, backupbot.backup.path=...)");
            }
            throw Skipped.structural("no service of the app is labelled backupbot.backup=true");
        }
        Optional<TierOutputs.Marker> marker = seedMarker(deployment, run.settings().runId());
        String snapshot = deployment.driver().backup(deployment.app());
        deployment.outputs().backup(new TierOutputs.Backup(snapshot, marker));
    }

    /** A marker in the first backed-up directory; none when the backup holds only files (a dump its pre-hook writes). */
    private static Optional<TierOutputs.Marker> seedMarker(Deployment deployment, String runId) throws InterruptedException {
        ContainerExec exec = deployment.exec();
        String seeded = "seeded-by-run-" + runId + "-" + System.nanoTime();
        // one exec a place: a directory takes the marker at once, anything else is the next place's turn
        Optional<Map.Entry<String, String>> place = BackupLabels.markerPlace(deployment.docker().client(), exec,
                deployment.app().stack(), (container, path) -> {
                    ContainerExec.Result wrote = exec.sh(container, "test -d " + ContainerExec.quoted(path) + " || exit "
                            + NOT_A_DIRECTORY + "; printf %s " + ContainerExec.quoted(seeded) + " > "
                            + ContainerExec.quoted(path + "/" + MARKER));
                    if (wrote.exitCode() == NOT_A_DIRECTORY) {
                        return false;
                    }
                    assertThat(wrote.ok()).as("seeding the restore marker in %s: %s", path, wrote.output()).isTrue();
                    return true;
                });
        return place.map(p -> new TierOutputs.Marker(p.getKey(), p.getValue() + "/" + MARKER, seeded));
    }

    /** The recipe's BACKUP_VERIFY probe passes, within 3 tries. */
    private static void verified(Deployment deployment) throws InterruptedException {
        CiKeys.Probe probe = deployment.keys().backupVerify().orElseThrow(() -> Skipped.structural(
                "the recipe sets no BACKUP_VERIFY"));
        AppProbes.Outcome outcome = deployment.probes().retry(probe, 3);
        assertThat(outcome.ok()).as("BACKUP_VERIFY %s (3 tries): %s", probe, outcome.detail()).isTrue();
    }

    private static void snapshotCreated(Deployment deployment) {
        assertThat(deployment.outputs().backup().orElseThrow().snapshotId()).as("snapshot id").matches("[0-9a-f]{8,64}");
    }
}
