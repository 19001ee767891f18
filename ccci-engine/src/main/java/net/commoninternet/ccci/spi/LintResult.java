package net.commoninternet.ccci.spi;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What the lint said of one rule ({@link LiveRun#lint()}), with the reason a person reads: the
 * rule's how-to-resolve and what it found. The outcome is what the LINT tier judges by, never the
 * reason's text.
 */
@API(status = API.Status.EXPERIMENTAL)
public record LintResult(Outcome outcome, String reason) {

    /** How abra treats a rule's result, and so how the LINT check reports it. */
    public enum Outcome {
        /** The rule holds: the check passes. */
        SATISFIED,
        /** A warn-level rule does not hold: abra warns and deploys; a finding (verdict-neutral). */
        WARNING,
        /** An error-level rule does not hold: abra calls it critical and refuses to deploy; a failed check. */
        CRITICAL,
        /**
         * The rule was not judged, for a reason the reason says (it does not apply to the recipe, or
         * it needs what this host has not: a registry, the network): a structural skip, never a pass.
         */
        NOT_JUDGED
    }

    public LintResult {
        Objects.requireNonNull(outcome);
        reason = reason == null ? "" : reason;
    }

    public static LintResult satisfied() {
        return new LintResult(Outcome.SATISFIED, "");
    }

    public static LintResult warning(String reason) {
        return new LintResult(Outcome.WARNING, reason);
    }

    public static LintResult critical(String reason) {
        return new LintResult(Outcome.CRITICAL, reason);
    }

    public static LintResult notJudged(String reason) {
        return new LintResult(Outcome.NOT_JUDGED, reason);
    }

    /** A finding (warning) or a failure (critical) when {@code holds} is false; satisfied otherwise. */
    public static LintResult of(boolean holds, boolean critical, String reason) {
        return holds ? satisfied() : critical ? critical(reason) : warning(reason);
    }
}
