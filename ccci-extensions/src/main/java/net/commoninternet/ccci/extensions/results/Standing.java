package net.commoninternet.ccci.extensions.results;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.results.RunResults.Rung;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import net.commoninternet.ccci.spi.RunRecord.Row;
import net.commoninternet.ccci.spi.RunRecord.Status;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.SkipKind;

/**
 * What a run's rows and rungs mean to the person who reads its results: the verdict, the counts,
 * and why the run is at its level and not the next one.
 *
 * <p>The verdict follows from the rungs, never from the absence of failures alone: {@code failed}
 * when a check failed (what also makes the command fail), {@code passed} only when the run reached
 * level 1 or above with nothing failed, and {@code unverified} otherwise: a run whose checks were
 * all skipped without a structural or intentional reason proved nothing, and is not green; nor is
 * a run the host failed anywhere ({@link SkipKind#INFRASTRUCTURE}), at whatever level: what the host
 * kept from being verified is the host's to fix, not the recipe's, and no green either.
 *
 * <p>Level N means rungs 1..N passed or were skipped and rung N passed; so rung N+1 is always the
 * first rung that did not pass, and its verdict and first telling row are the reason.
 *
 * @param verdict {@code passed}, {@code failed} or {@code unverified}
 * @param counts rows by outcome: {@code passed}, {@code failed}, {@code skipped} (structural,
 *     intentional, lint findings), {@code unverified} (skips nobody explained)
 * @param next why not a level higher ({@code level}, {@code rung}, {@code verdict}, {@code why}); empty at level 5
 */
record Standing(String verdict, Map<String, Object> counts, Optional<Map<String, Object>> next) {

    /** A reason on one line, cut where a report's line should end. */
    private static final int REASON_CHARS = 300;

    static Standing of(List<Row> rows, Set<Tier> stages) {
        Map<Rung, Verdict> rungs = RunResults.rungs(rows);
        int level = RunResults.level(rungs);
        boolean failed = rows.stream().anyMatch(r -> r.status() == Status.FAILED);
        // a rung the host kept from being verified is no green, whatever rungs passed: the run is unverified
        String verdict = failed ? "failed" : level >= 1 && hostFaults(rows).isEmpty() ? "passed" : "unverified";
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("passed", rows.stream().filter(r -> r.status() == Status.PASSED).count());
        counts.put("failed", rows.stream().filter(r -> r.status() == Status.FAILED).count());
        counts.put("skipped", rows.stream().filter(r -> r.skip() != null && !unverified(r)).count());
        counts.put("unverified", rows.stream().filter(Standing::unverified).count());
        if (level == Rung.values().length) {
            return new Standing(verdict, counts, Optional.empty());
        }
        Rung blocking = Rung.values()[level];
        Verdict blocked = rungs.get(blocking);
        Map<String, Object> next = new LinkedHashMap<>();
        next.put("level", level + 1);
        next.put("rung", blocking.id());
        next.put("verdict", blocked.name().toLowerCase(Locale.ROOT));
        next.put("why", why(blocking, blocked, rows, stages));
        return new Standing(verdict, counts, Optional.of(next));
    }

    /** The row that explains the rung's verdict, as {@code tier > check: reason}; or why it has none. */
    private static String why(Rung rung, Verdict verdict, List<Row> rows, Set<Tier> stages) {
        List<Row> mine = rows.stream().filter(r -> r.tier().rung() == rung.ordinal() + 1).toList();
        Optional<Row> telling = switch (verdict) {
            case FAIL -> first(mine, r -> r.status() == Status.FAILED).or(() -> first(mine, r -> r.skip() == SkipKind.LINT_FINDING));
            case UNVER -> first(mine, r -> r.skip() == SkipKind.INFRASTRUCTURE).or(() -> first(mine, r -> r.skip() == SkipKind.UNVERIFIED));
            case SKIP -> first(mine, r -> r.status() == Status.SKIPPED);
            case PASS -> Optional.empty();
        };
        if (telling.isPresent()) {
            Row row = telling.get();
            return row.tier().id() + (row.check() == null ? "" : " > " + row.check()) + ": "
                    + (row.message() == null ? row.status().name().toLowerCase(Locale.ROOT) : oneLine(row.message()));
        }
        List<Tier> tiers = Arrays.stream(Tier.values()).filter(t -> t.rung() == rung.ordinal() + 1).toList();
        if (tiers.stream().noneMatch(stages::contains)) {
            return "not selected: the run's stages (ccci.stages or a tag filter) left out "
                    + tiers.stream().map(Tier::id).collect(Collectors.joining(" and "));
        }
        return "none of its checks ran (the run stopped before them)";
    }

    /** A row that proves nothing either way: a skip nobody explained, or a failure the host caused. */
    static boolean unverified(Row row) {
        return row.skip() == SkipKind.UNVERIFIED || row.skip() == SkipKind.INFRASTRUCTURE;
    }

    /** The rows the host failed ({@link SkipKind#INFRASTRUCTURE}), in the run's order. */
    static List<Row> hostFaults(List<Row> rows) {
        return rows.stream().filter(r -> r.skip() == SkipKind.INFRASTRUCTURE).toList();
    }

    /** The cause a host fault's sentence names ({@code image_pull}, ...; {@link HostFault.Cause#id}), or {@code unknown}. */
    static String hostCause(String message) {
        String text = String.valueOf(message);
        return Arrays.stream(HostFault.Cause.values()).filter(c -> text.startsWith(c.opening())).map(HostFault.Cause::id)
                .findFirst().orElse("unknown");
    }

    private static Optional<Row> first(List<Row> rows, Predicate<Row> which) {
        return rows.stream().filter(which).findFirst();
    }

    /** {@code message} on one line (its whitespace runs as single spaces), cut at {@value #REASON_CHARS} characters. */
    static String oneLine(String message) {
        String line = message.strip().replaceAll("\\s+", " ");
        return line.length() <= REASON_CHARS ? line : line.substring(0, REASON_CHARS - 1) + "…";
    }

    /**
     * The sentence a reader looks for, from results.json's {@code level} and {@code next_level}:
     * {@code level 1, not 2: upgrade fail — upgrade > moved-to-head: ...}, or that every rung passed.
     */
    static String whyNotHigher(int level, Map<String, Object> next) {
        if (next == null) {
            return "level " + level + ": every rung passed";
        }
        return "level " + level + ", not " + next.get("level") + ": " + next.get("rung") + " " + next.get("verdict") + " — "
                + next.get("why");
    }

    /** {@code 12 passed, 1 failed, 3 skipped, 0 unverified}. */
    static String describe(Map<String, Object> counts) {
        return counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    }
}
