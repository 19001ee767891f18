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
     * One try of a check against the live app: try {@code number} of at most {@code of} (the host's
     * bound), passed, or failed with its reason (masked as every reported failure is).
     */
    public record Attempt(int number, int of, Status status, String message) {
        public Attempt {
            if (status == Status.SKIPPED || number < 1 || number > of) {
                throw new IllegalArgumentException("attempt " + number + " of " + of + " passed or failed, not " + status);
            }
        }
    }

    /**
     * What the tries of a check that was tried more than once say: {@code FLAKY} when it failed and
     * then passed, {@code DETERMINISTIC} when it failed every time, as many times as the host allows.
     */
    public enum Outcome {
        FLAKY, DETERMINISTIC;

        /** As results.json and the reports name it: {@code flaky}, {@code deterministic}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Where a row belongs: its tier, and its check (null for a row about the whole tier). */
    public record Place(Tier tier, String check) {
    }

    /**
     * One outcome. {@code check} is null for a tier-level row: a tier with no implementation
     * (skipped, unver), a structural skip, or an operation that failed before its checks.
     *
     * @param skip why it was skipped; null unless {@code status} is SKIPPED
     * @param message the failure or skip reason, or null
     * @param attempts a check's tries when it was tried more than once, in order (the last one is
     *     {@code status}'s); empty when it was tried once, or for a tier-level row
     */
    public record Row(Place place, Status status, SkipKind skip, String message, List<Attempt> attempts) {

        public Row {
            if ((status == Status.SKIPPED) != (skip != null)) {
                throw new IllegalArgumentException("a skipped row, and only a skipped row, has a skip kind: "
                        + status + " " + skip);
            }
            attempts = attempts == null || attempts.size() < 2 ? List.of() : List.copyOf(attempts);
        }

        /** A row of one attempt. */
        public Row(Tier tier, String check, Status status, SkipKind skip, String message) {
            this(new Place(tier, check), status, skip, message, List.of());
        }

        public Tier tier() {
            return place.tier();
        }

        /** The check, or null for a row about the whole tier. */
        public String check() {
            return place.check();
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

        /** This row with the check's tries, when there were several. */
        public Row withAttempts(List<Attempt> tries) {
            return new Row(place, status, skip, message, tries);
        }

        /**
         * Flaky (a failed try, then a passing one) or deterministic (every try failed: the engine tries
         * again up to the host's bound, or until the run is stopped); empty for a check tried once, or
         * one whose tries ended in a skip.
         */
        public java.util.Optional<Outcome> outcome() {
            if (attempts.isEmpty()) {
                return java.util.Optional.empty();
            }
            Attempt last = attempts.get(attempts.size() - 1);
            if (last.status() == Status.PASSED) {
                return java.util.Optional.of(Outcome.FLAKY);
            }
            return attempts.stream().allMatch(a -> a.status() == Status.FAILED) && status == Status.FAILED
                    ? java.util.Optional.of(Outcome.DETERMINISTIC) : java.util.Optional.empty();
        }

        /**
         * The outcome in a reader's words: {@code flaky: passed on attempt 2 of 3} or
         * {@code deterministic: failed 3 of 3 attempts}; empty as {@link #outcome()} is.
         */
        public java.util.Optional<String> outcomeLine() {
            return outcome().map(o -> {
                Attempt last = attempts.get(attempts.size() - 1);
                return o == Outcome.FLAKY ? o.word() + ": passed on attempt " + last.number() + " of " + last.of()
                        : o.word() + ": failed " + attempts.size() + " of " + last.of() + " attempts";
            });
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
