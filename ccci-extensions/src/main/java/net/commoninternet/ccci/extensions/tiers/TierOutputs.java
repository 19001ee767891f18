package net.commoninternet.ccci.extensions.tiers;

import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.spi.LintResult;
import net.commoninternet.ccci.spi.Store;
import net.commoninternet.ccci.spi.Versions;

/**
 * What a tier's operation leaves for its own checks and for the tiers after it: one slot each in
 * the run's {@link Store}, keyed here, so only ccci's tiers read them. Each slot is written once,
 * by its tier's operation, which runs before the checks that read it; a slot still empty means its
 * operation did not run or did not get that far.
 */
final class TierOutputs {

    /** The backup RESTORE restores: its snapshot, and the marker it holds, if one could be seeded. */
    record Backup(String snapshotId, Optional<Marker> marker) {
    }

    /** A file seeded in a backed-up directory before the backup: where, and what it held. */
    record Marker(String service, String file, String seeded) {
    }

    /** What the deployed app looked like before and after the upgrade. */
    record Upgrade(Versions.Deployed before, Versions.Deployed after) {
    }

    /** What reading the restore marker right after the restore printed, and its exit status (not 0: it could not be read). */
    record Restored(String marker, int status) {
    }

    /** The lint's result per rule; a rule not reported is absent. */
    record LintFindings(Map<String, LintResult> byRule) {
        LintFindings {
            byRule = Map.copyOf(byRule);
        }
    }

    static final Store.Key<Upgrade> UPGRADE = Store.Key.of("the upgrade's identities", Upgrade.class);
    static final Store.Key<Backup> BACKUP = Store.Key.of("the backup this run took", Backup.class);
    static final Store.Key<Restored> RESTORED = Store.Key.of("the marker after the restore", Restored.class);
    static final Store.Key<LintFindings> LINT = Store.Key.of("the lint's findings", LintFindings.class);

    private TierOutputs() {
    }
}
