package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.LintRule;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.spi.Skipped;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The abra driver's recipe lint ({@code ccci.driver=abra}): {@code abra recipe lint} on the
 * run's recipe tree, as production runs it (AbraCli has the command line, the pseudo-terminal
 * and the table parser), each of abra's rules one LINT check. A finding is what abra itself
 * calls critical: an error-level rule that ran and is not satisfied ({@link AbraCli.Lint#failures}).
 *
 * <p>Invariant: a lint that did not run never reads as a pass. Checks are fixed at discovery, so
 * a rule abra did not print is "not checked" (see LintTier), a rule abra printed that is not in
 * {@link #RULES} still counts ({@link #UNLISTED}), and a lint command that failed aborts the
 * tier with one sentence: a finding when abra says the recipe itself is invalid, otherwise
 * "not run" (the rung reads unver).
 */
@API(status = API.Status.INTERNAL)
public final class AbraRecipeLint {

    private static final Logger LOG = LoggerFactory.getLogger(AbraRecipeLint.class);

    /**
     * The rules abra 0.13 lints with, one check each: the production harness's probe of
     * 0.13.0-beta saw a table of R001 to R016 (docs/abra-driver.md).
     */
    static final List<String> RULES = IntStream.rangeClosed(1, 16).mapToObj(i -> String.format("R%03d", i)).toList();

    /** The check for rules abra printed that {@link #RULES} does not list (a newer abra). */
    public static final String UNLISTED = "unlisted-rules";

    public static final List<String> CHECKS = Stream.concat(RULES.stream(), Stream.of(UNLISTED)).toList();

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
     * Lints {@code $ABRA_DIR/recipes/<recipe>}: findings per rule, in {@link #CHECKS} order,
     * a rule abra did not print left out. Throws {@link Skipped} when the lint
     * could not run, with one sentence saying why.
     */
    public static Map<String, Optional<String>> lint(AbraCommands abra, String recipe) throws InterruptedException {
        try {
            return findings(abra.lint(recipe));
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

    static Map<String, Optional<String>> findings(AbraCli.Lint lint) {
        Set<String> failing = lint.failures().stream().map(LintRule::ref).collect(Collectors.toSet());
        Map<String, LintRule> byRef = lint.rules().stream().collect(Collectors.toMap(LintRule::ref, r -> r));
        Map<String, Optional<String>> findings = new LinkedHashMap<>();
        for (String ref : RULES) {
            if (byRef.containsKey(ref)) {
                findings.put(ref, failing.contains(ref) ? Optional.of(describe(byRef.get(ref))) : Optional.empty());
            }
        }
        List<String> unlisted = new ArrayList<>();
        for (LintRule rule : lint.rules()) {
            if (!RULES.contains(rule.ref())) {
                LOG.warn("abra lints with {}, which ccci does not list (AbraRecipeLint.RULES): reported under {}",
                        rule.ref(), UNLISTED);
                if (failing.contains(rule.ref())) {
                    unlisted.add(describe(rule));
                }
            }
            if (rule.skipped() || (!rule.satisfied() && !failing.contains(rule.ref()))) {
                // abra's own verdict: a skipped rule does not apply here, a warn-level one is not critical.
                LOG.info("abra lint {}: {} ({}, {})", rule.ref(), rule.rule(), rule.severity().name().toLowerCase(Locale.ROOT),
                        rule.skipped() ? "skipped by abra" : "not satisfied, warning only");
            }
        }
        findings.put(UNLISTED, unlisted.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", unlisted)));
        return findings;
    }

    /** e.g. {@code R014 only annotated tags used for recipe version (error): replace lightweight tags ...} */
    private static String describe(LintRule rule) {
        return rule.ref() + " " + rule.rule() + " (error)" + (rule.resolve().isEmpty() ? "" : ": " + rule.resolve());
    }
}
