package net.commoninternet.ccci.spi;

import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * What happened in a run, check by check, as the engine reported it: the source of the run's
 * results (rungs, level, results.json). Filled by the engine; read by the lifecycle at the end.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class RunRecord {

    /** A check's or a tier's outcome. */
    public enum Status { PASSED, FAILED, SKIPPED }

    /**
     * One outcome. {@code check} is null for a tier-level row: a tier with no implementation
     * (skipped, unver), a structural skip, or an operation that failed before its checks.
     *
     * @param skip why it was skipped; null unless {@code status} is SKIPPED
     * @param message the failure or skip reason, or null
     */
    public record Row(Tier tier, String check, Status status, SkipKind skip, String message) {

        public Row {
            if ((status == Status.SKIPPED) != (skip != null)) {
                throw new IllegalArgumentException("a skipped row, and only a skipped row, has a skip kind: "
                        + status + " " + skip);
            }
        }

        public static Row passed(Tier tier, String check) {
            return new Row(tier, check, Status.PASSED, null, null);
        }

        public static Row failed(Tier tier, String check, String message) {
            return new Row(tier, check, Status.FAILED, null, message);
        }

        public static Row skipped(Tier tier, String check, SkipKind skip, String message) {
            return new Row(tier, check, Status.SKIPPED, skip, message);
        }
    }

    private final List<Row> rows = new ArrayList<>();

    public synchronized void add(Row row) {
        rows.add(row);
    }

    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }
}
