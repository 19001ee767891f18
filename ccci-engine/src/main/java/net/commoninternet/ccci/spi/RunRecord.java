package net.commoninternet.ccci.spi;

import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.api.Tier;

/**
 * What happened in a run, check by check, as the engine reported it: the source of the run's
 * results (rungs, level, results.json). Filled by the engine; read by the lifecycle at the end.
 */
public final class RunRecord {

    /** A check's or a tier's outcome. */
    public enum Status { PASSED, FAILED, SKIPPED }

    /**
     * One outcome. {@code check} is null for a tier-level row: a tier with no implementation
     * (skipped, unver), a structural skip, or an operation that failed before its checks.
     *
     * @param message the failure or skip reason, or null
     */
    public record Row(Tier tier, String check, Status status, String message) {
    }

    private final List<Row> rows = new ArrayList<>();

    public synchronized void add(Row row) {
        rows.add(row);
    }

    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }
}
