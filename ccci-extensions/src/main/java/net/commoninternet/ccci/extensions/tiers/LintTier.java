package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.driver.abra.AbraDriver;
import net.commoninternet.ccci.extensions.driver.abra.AbraRecipeLint;
import net.commoninternet.ccci.extensions.driver.swarm.RecipeLint;
import net.commoninternet.ccci.extensions.workspace.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.UpgradePlan;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunSettings;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * LINT: the recipe's lint, verdict-neutral. One check per rule: the embedded rules
 * ({@link RecipeLint#RULES}) under the swarm driver, abra's ({@link AbraRecipeLint#CHECKS}) under
 * {@code ccci.driver=abra}. A finding is reported as a skipped check with the finding as its
 * reason, so the run stays green while the lint rung records a fail ({@link RunResults}); a
 * rule the lint did not report is skipped as not checked, and the rung reads unver.
 */
public final class LintTier implements TierPlugin {

    public static final String FINDING = "lint finding (verdict-neutral): ";

    /** The findings of this run's lint, per rule (empty = satisfied); a rule not reported is absent. */
    record Findings(Map<String, Optional<String>> byRule) {
    }

    @Override
    public Tier tier() {
        return Tier.LINT;
    }

    /** The embedded rules, the default driver's. */
    @Override
    public List<Check> checks() {
        return checks(RecipeLint.RULES);
    }

    @Override
    public List<Check> checks(RunSettings settings) {
        return checks(abra(settings) ? AbraRecipeLint.CHECKS : RecipeLint.RULES);
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = run.get(Deployment.class);
        UpgradePlan plan = run.get(UpgradePlan.class);
        // Lint the head, whatever an UPGRADE tier did or did not do to the tree.
        new RecipeFetch(deployment.children()).moveTo(deployment.app().recipeDir(), plan.headCommit());
        Map<String, Optional<String>> findings = abra(run.settings())
                ? AbraRecipeLint.lint(AbraRecipeLint.commands(deployment.children()), run.recipe())
                : RecipeLint.lint(deployment.app().recipeDir(), plan.headRelease());
        run.put(Findings.class, new Findings(findings));
    }

    private static boolean abra(RunSettings settings) {
        return AbraDriver.DRIVER.equals(settings.driver());
    }

    private static List<Check> checks(List<String> rules) {
        return rules.stream().map(rule -> Check.of(rule, run -> verify(run, rule))).toList();
    }

    private static void verify(RunContext run, String rule) {
        Map<String, Optional<String>> byRule = run.get(Findings.class).byRule();
        if (!byRule.containsKey(rule)) {
            throw new TestAbortedException("not checked: the lint reported no rule " + rule + " (unver)");
        }
        Optional<String> finding = byRule.get(rule);
        if (finding.isPresent()) {
            throw new TestAbortedException(FINDING + finding.get());
        }
    }
}
