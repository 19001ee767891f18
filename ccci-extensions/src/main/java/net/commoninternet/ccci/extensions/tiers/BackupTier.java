package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.AppProbes;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.swarm.BackupLabels;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * BACKUP, for backup-capable apps (a service labelled {@code backupbot.backup=true}): seeds a
 * marker in the first backed-up path, takes one backup, and asserts its snapshot id and that the
 * app still converges and serves (pre/post hooks ran in it). RESTORE later changes the marker
 * and expects the seeded value back.
 */
public final class BackupTier implements TierPlugin {

    static final String MARKER = ".ccci-restore-marker";

    /** The backup RESTORE restores: its snapshot, and where and what the marker was. */
    record Taken(String snapshotId, String service, String markerFile, String seeded) {
    }

    @Override
    public Tier tier() {
        return Tier.BACKUP;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("snapshot-created", BackupTier::snapshotCreated),
                Check.of("backup-verified", BackupTier::verified),
                Check.of("converged", GenericChecks::converged),
                Check.of("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = run.get(Deployment.class);
        boolean labelled = BackupLabels.capable(deployment.docker().client(), deployment.app().stack());
        java.util.Optional<Boolean> declared = run.find(CiKeys.class).orElse(CiKeys.defaults()).backupCapable();
        if (declared.isPresent() && !declared.get()) {
            throw new TestAbortedException("intentional skip: the recipe sets BACKUP_CAPABLE=false");
        }
        if (!labelled) {
            if (declared.isPresent()) {
                throw new AssertionError("the recipe sets BACKUP_CAPABLE=true but no service of the app is labelled"
                        + " backupbot.backup=true, so there is nothing to back up: label the services whose data"
                        + " matters (backupbot.backup=true, backupbot.backup.path=...)");
            }
            throw new TestAbortedException("structural skip: no service of the app is labelled backupbot.backup=true");
        }
        Map.Entry<String, String> place = BackupLabels.markerPlace(deployment.docker().client(), deployment.app().stack());
        String markerFile = place.getValue() + "/" + MARKER;
        String seeded = "seeded-by-run-" + run.settings().runId() + "-" + System.nanoTime();
        ContainerExec exec = new ContainerExec(deployment.docker().client());
        ContainerExec.Result wrote = exec.sh(exec.runningContainer(place.getKey()),
                "mkdir -p '" + place.getValue() + "' && printf %s '" + seeded + "' > '" + markerFile + "'");
        assertThat(wrote.ok()).as("seeding the restore marker in %s: %s", place.getKey(), wrote.output()).isTrue();
        String snapshot = deployment.driver().backup(deployment.app());
        run.put(Taken.class, new Taken(snapshot, place.getKey(), markerFile, seeded));
    }

    /** The recipe's BACKUP_VERIFY probe passes, within 3 tries. */
    private static void verified(RunContext run) throws InterruptedException {
        CiKeys keys = run.find(CiKeys.class).orElse(CiKeys.defaults());
        CiKeys.Probe probe = keys.backupVerify().orElseThrow(() -> new TestAbortedException(
                "structural skip: the recipe sets no BACKUP_VERIFY"));
        AppProbes.Outcome outcome = new AppProbes(run.get(Deployment.class), keys).retry(probe, 3);
        assertThat(outcome.ok()).as("BACKUP_VERIFY %s (3 tries): %s", probe, outcome.detail()).isTrue();
    }

    private static void snapshotCreated(RunContext run) {
        assertThat(run.get(Taken.class).snapshotId()).as("snapshot id").matches("[0-9a-f]{8,64}");
    }
}
