package net.commoninternet.ccci.extensions.results;

import java.util.List;
import java.util.Locale;
import net.commoninternet.ccci.extensions.recipe.OperatorActions;
import net.commoninternet.ccci.spi.RunRecord;
import org.apiguardian.api.API;

/**
 * One base of the upgrade matrix ({@code ccci.upgrade-from}) as the results show it: the release
 * upgraded from, its outcome ({@link Status}), why (a skip's or a failure's reason, the first
 * failed check), the upgrade's checks from it, and what an operator upgrading from it must do by
 * hand. The previous release's cell is the run's own UPGRADE tier; its checks are the run's rows.
 */
@API(status = API.Status.INTERNAL)
public record UpgradeCell(String base, Status status, String reason, List<RunRecord.Row> checks,
        List<OperatorActions.Action> actions) {

    /** A cell's outcome: the upgrade passed, failed, or could not be tried here (never a failure). */
    public enum Status {
        PASS, FAIL, SKIP;

        /** As results.json writes it. */
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public UpgradeCell {
        checks = List.copyOf(checks);
        actions = List.copyOf(actions);
    }

    /** The base's own folder in the run's: {@code upgrade-from-<base>}, its state files and its services' logs. */
    public static String folder(String base) {
        return "upgrade-from-" + base.replaceAll("[^A-Za-z0-9._+-]", "_");
    }

    /** Where the base's services' logs are, relative to the run's folder. */
    public String logs() {
        return folder(base) + "/logs/upgrade";
    }
}
