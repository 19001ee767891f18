package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
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
                Check.of("marker-restored", RestoreTier::markerRestored),
                Check.of("converged", GenericChecks::converged),
                Check.of("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        TierOutputs.Backup taken = tier.store().find(TierOutputs.BACKUP).orElseThrow(() -> Skipped.structural(
                "no backup was taken in this run (the BACKUP tier did not run or was skipped)"));
        LiveApp app = tier.live().app();
        if (taken.marker().isPresent()) {
            TierOutputs.Marker marker = taken.marker().get();
            LiveApp.Response changed = app.exec(marker.service(), "printf %s changed-before-restore > "
                    + ShellWords.quoted(marker.file()));
            if (changed.status() != 0) {
                throw Words.failed("could not change the restore marker " + marker.file() + " in service " + marker.service()
                        + " before the restore: writing it exited " + changed.status() + Words.output(changed.body()));
            }
        }
        tier.live().backups().restore(taken.snapshotId());
        if (taken.marker().isPresent()) {
            TierOutputs.Marker marker = taken.marker().get();
            LiveApp.Response read = app.exec(marker.service(), "cat " + ShellWords.quoted(marker.file()));
            tier.store().put(TierOutputs.RESTORED, new TierOutputs.Restored(read.body(), read.status()));
        }
    }

    private static void markerRestored(TierContext tier) {
        TierOutputs.Marker marker = tier.store().find(TierOutputs.BACKUP).orElseThrow().marker().orElseThrow(() -> Skipped
                .structural("the backup holds no directory to seed a marker in (only files, such as a dump its pre-hook"
                        + " writes): the recipe's own restore assertions are the proof"));
        TierOutputs.Restored read = tier.store().find(TierOutputs.RESTORED).orElseThrow();
        String restored = read.marker();
        if (read.status() != 0) {
            // an error's text is not the data: never compared, never quoted as what the file reads
            throw Words.failed("the restore did not bring the backup's data back: " + marker.file() + " in service "
                    + marker.service() + " could not be read after the restore (cat exited " + read.status() + ")"
                    + Words.output(restored) + "; the backup held \"" + marker.seeded() + "\"", Words.oneLine(restored));
        }
        if (!marker.seeded().equals(restored)) {
            String said = Words.oneLine(restored);
            throw Words.failed("the restore did not bring the backup's data back: " + marker.file() + " in service "
                    + marker.service() + " reads \"" + said + "\" after the restore, where the backup held \""
                    + marker.seeded() + "\"", said);
        }
    }
}
