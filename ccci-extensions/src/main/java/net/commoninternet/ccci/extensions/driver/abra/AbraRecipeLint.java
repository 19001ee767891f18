package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.LintRule;
import net.commoninternet.ccci.extensions.lint.AbraRule;
import net.commoninternet.ccci.extensions.lint.CcciRules;
import net.commoninternet.ccci.spi.LintResult;
import net.commoninternet.ccci.spi.Skipped;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The abra driver's recipe lint ({@code ccci.driver=abra}): {@code abra recipe lint} on the
 * run's recipe tree, as production runs it (AbraCli has the command line, the pseudo-terminal
 * and the table parser), each of abra's rules one LINT check named from {@link AbraRule} as the
 * swarm driver names it ({@code R014-valid-tags}), judged as abra judges it: an error-level rule
 * that ran and does not hold is critical (a failed check: abra would not deploy it), a warn-level
 * one a finding, a rule abra skipped not judged. ccci's own checks ({@link CcciRules}) run beside
 * them on the same tree.
 *
 * <p>Invariant: a lint that did not run never reads as a pass. Checks are fixed at discovery, so
 * a rule abra did not print is "not checked" (see LintTier), a rule abra printed that is not in
 * {@link AbraRule} still counts ({@link #UNLISTED}), and a lint command that failed aborts the
 * tier with one sentence: a finding when abra says the recipe itself is invalid, otherwise
 * "not run" (the rung reads unver).
 */
@API(status = API.Status.INTERNAL)
public final class AbraRecipeLint {

    private static final Logger LOG = LoggerFactory.getLogger(AbraRecipeLint.class);

    /** The check for rules abra printed that {@link AbraRule} does not list (a newer abra). */
    public static final String UNLISTED = "unlisted-rules";

    /** abra's rules (R001 to R016, the table the production harness's probe of 0.13.0-beta saw), then {@link #UNLISTED}. */
    static final List<String> ABRA_CHECKS = Stream.concat(Stream.of(AbraRule.values()).map(AbraRule::check), Stream.of(UNLISTED))
            .toList();

    /** Every check of the abra driver's lint: abra's, then ccci's own. */
    public static final List<String> CHECKS = Stream.concat(ABRA_CHECKS.stream(), CcciRules.CHECKS.stream()).toList();

    /** How a lint that could not run starts its abort message (the rung reads unver). */
    public static final String NOT_RUN = "lint not run, nothing was linted (unver): ";

    /** One lint's bound: the production harness gives it 60 s and saw it take 0.7 s. */
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private AbraRecipeLint() {
    }

    /** abra on the run's PATH, run as the run's child (so with its ABRA_DIR). */
    public static AbraCommands commands(ChildProcesses children) {
        return new AbraCommands(new AbraCli(AbraDriver.ABRA), children, TIMEOUT);
    }

    /**
     * Lints {@code $ABRA_DIR/recipes/<recipe>}: results per check, in {@link #ABRA_CHECKS} order,
     * a rule abra did not print left out. Throws {@link Skipped} when the lint could not run, with
     * one sentence saying why.
     */
    public static Map<String, LintResult> lint(AbraCommands abra, String recipe) throws InterruptedException {
        try {
            return results(abra.lint(recipe));
        } catch (AbraException e) {
            if (AbraCli.recipeInvalid(e)) {
                throw Skipped.lintFinding("abra cannot lint " + recipe + ", the recipe itself is invalid: FATA "
                        + e.fatal().orElseThrow());
            }
            throw Skipped.unverified(NOT_RUN + e.getMessage());
        } catch (IOException e) {
            throw Skipped.unverified(NOT_RUN + e.getMessage());
        }
    }

    static Map<String, LintResult> results(AbraCli.Lint lint) {
        Map<String, LintResult> results = new LinkedHashMap<>();
        for (AbraRule known : AbraRule.values()) {
            lint.rules().stream().filter(r -> r.ref().equals(known.ref())).findFirst()
                    .ifPresent(rule -> results.put(known.check(), result(rule)));
        }
        List<String> unlisted = new ArrayList<>();
        boolean criticalUnlisted = false;
        for (LintRule rule : lint.rules()) {
            if (AbraRule.of(rule.ref()).isEmpty()) {
                LOG.warn("abra lints with {}, which ccci does not list (AbraRule): reported under {}", rule.ref(), UNLISTED);
                if (!rule.satisfied() && !rule.skipped()) {
                    unlisted.add(describe(rule));
                    criticalUnlisted |= rule.severity() == AbraCli.Severity.ERROR;
                }
            }
            if (rule.skipped()) {
                LOG.info("abra lint {}: {} ({}, skipped by abra)", rule.ref(), rule.rule(), level(rule));
            }
        }
        results.put(UNLISTED, LintResult.of(unlisted.isEmpty(), criticalUnlisted, String.join("; ", unlisted)));
        return results;
    }

    /** abra's own verdict on one of its rules: its level decides a finding from a failure. */
    private static LintResult result(LintRule rule) {
        if (rule.skipped()) {
            return LintResult.notJudged("abra skipped it (it does not apply to this recipe): " + describe(rule));
        }
        return LintResult.of(rule.satisfied(), rule.severity() == AbraCli.Severity.ERROR, describe(rule));
    }

    private static String level(LintRule rule) {
        return rule.severity().name().toLowerCase(Locale.ROOT);
    }

    /** e.g. {@code replace lightweight tags with annotated tags (R014 only annotated tags used for recipe version, error)} */
    private static String describe(LintRule rule) {
        return (rule.resolve().isEmpty() ? "" : rule.resolve() + " ") + "(" + rule.ref() + " " + rule.rule() + ", " + level(rule) + ")";
    }
}
