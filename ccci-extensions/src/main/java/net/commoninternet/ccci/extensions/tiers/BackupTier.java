package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
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
                Check.of("snapshot-created", BackupTier::snapshotCreated),
                Check.of("backup-verified", BackupTier::verified),
                Check.of("converged", GenericChecks::converged),
                Check.of("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        Backups backups = tier.live().backups();
        boolean labelled = backups.labelled();
        Optional<Boolean> declared = tier.keys().backupCapable();
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
        Optional<TierOutputs.Marker> marker = seedMarker(tier, backups);
        tier.store().put(TierOutputs.BACKUP, new TierOutputs.Backup(backups.backup(), marker));
    }

    /**
     * A marker in the first backed-up directory, one exec a place (a directory takes it at once,
     * anything else is the next place's turn); none when the backup holds only files (a dump its
     * pre-hook writes).
     */
    private static Optional<TierOutputs.Marker> seedMarker(TierContext tier, Backups backups) throws Exception {
        String seeded = "seeded-by-run-" + tier.runId() + "-" + System.nanoTime();
        for (Backups.Place place : backups.places()) {
            String file = place.path() + "/" + MARKER;
            LiveApp.Response wrote = tier.live().app().exec(place.service(), "test -d " + ShellWords.quoted(place.path())
                    + " || exit " + NOT_A_DIRECTORY + "; printf %s " + ShellWords.quoted(seeded) + " > " + ShellWords.quoted(file));
            if (wrote.status() != NOT_A_DIRECTORY) {
                if (wrote.status() != 0) {
                    throw Words.failed("could not seed the restore marker " + file + " in service " + place.service()
                            + ": writing it exited " + wrote.status() + Words.output(wrote.body()));
                }
                return Optional.of(new TierOutputs.Marker(place.service(), file, seeded));
            }
        }
        return Optional.empty();
    }

    /**
     * The recipe's BACKUP_VERIFY probe passes: one try, which the engine repeats as it repeats any
     * failed check ({@code ccci.check-attempts}), so a probe that passes on a later try reads flaky.
     */
    private static void verified(TierContext tier) throws InterruptedException {
        CiKeys.Probe probe = tier.keys().backupVerify().orElseThrow(() -> Skipped.structural(
                "the recipe sets no BACKUP_VERIFY"));
        Probes.Outcome outcome = tier.live().probes().retry(probe, 1);
        if (!outcome.ok()) {
            String said = Words.oneLine(outcome.detail());
            throw Words.failed("BACKUP_VERIFY " + probe + " did not pass after the backup: " + said
                    + Words.expects(probe, tier.keys()), said);
        }
    }

    private static void snapshotCreated(TierContext tier) {
        String snapshot = tier.store().find(TierOutputs.BACKUP).orElseThrow().snapshotId();
        if (snapshot == null || !snapshot.matches("[0-9a-f]{8,64}")) {
            throw Words.failed("the backup named no snapshot: expected a restic snapshot id (8 to 64 hex digits), got \""
                    + Words.oneLine(snapshot) + "\"");
        }
    }
}
