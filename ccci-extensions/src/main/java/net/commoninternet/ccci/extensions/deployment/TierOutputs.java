package net.commoninternet.ccci.extensions.deployment;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import net.commoninternet.ccci.extensions.swarm.DeployedIdentity;
import org.apiguardian.api.API;

/**
 * What a tier's operation left for its own checks and for the tiers after it, one typed slot
 * each. Each slot is written once, by its tier's operation, which runs before the checks that
 * read it; a slot still empty means its operation did not run or did not get that far.
 */
@API(status = API.Status.INTERNAL)
public final class TierOutputs {

    /** The backup RESTORE restores: its snapshot, and the marker it holds, if one could be seeded. */
    public record Backup(String snapshotId, Optional<Marker> marker) {
    }

    /** A file seeded in a backed-up directory before the backup: where, and what it held. */
    public record Marker(String service, String file, String seeded) {
    }

    /** What the deployed app looked like before and after the upgrade. */
    public record Upgrade(DeployedIdentity before, DeployedIdentity after) {
    }

    private final AtomicReference<Upgrade> upgrade = new AtomicReference<>();
    private final AtomicReference<Backup> backup = new AtomicReference<>();
    private final AtomicReference<String> restoredMarker = new AtomicReference<>();
    private final AtomicReference<Map<String, Optional<String>>> lintFindings = new AtomicReference<>();

    public Optional<Upgrade> upgrade() {
        return Optional.ofNullable(upgrade.get());
    }

    public void upgrade(Upgrade moved) {
        upgrade.set(moved);
    }

    /** The backup this run took, if BACKUP ran and took one. */
    public Optional<Backup> backup() {
        return Optional.ofNullable(backup.get());
    }

    public void backup(Backup taken) {
        backup.set(taken);
    }

    /** What the restore marker read right after the restore. */
    public Optional<String> restoredMarker() {
        return Optional.ofNullable(restoredMarker.get());
    }

    public void restoredMarker(String marker) {
        restoredMarker.set(marker);
    }

    /** The lint's findings per rule (empty = satisfied); a rule not reported is absent. */
    public Optional<Map<String, Optional<String>>> lintFindings() {
        return Optional.ofNullable(lintFindings.get());
    }

    public void lintFindings(Map<String, Optional<String>> findings) {
        lintFindings.set(Map.copyOf(findings));
    }
}
