package net.commoninternet.ccci.extensions;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Tier;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * LINT: the recipe's lint, verdict-neutral. One check per rule ({@link RecipeLint#RULES}); a
 * finding is reported as a skipped check with the finding as its reason, so the run stays green
 * while the lint rung records a fail ({@link RunResults}).
 */
public final class LintTier implements TierPlugin {

    static final String FINDING = "lint finding (verdict-neutral): ";

    /** The findings of this run's lint, per rule. */
    record Findings(Map<String, Optional<String>> byRule) {
    }

    @Override
    public Tier tier() {
        return Tier.LINT;
    }

    @Override
    public List<Check> checks() {
        return RecipeLint.RULES.stream().map(rule -> Check.of(rule, run -> verify(run, rule))).toList();
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = run.get(Deployment.class);
        UpgradePlan plan = run.get(UpgradePlan.class);
        // Lint the head, whatever an UPGRADE tier did or did not do to the tree.
        new RecipeFetch(deployment.children()).moveTo(deployment.app().recipeDir(), plan.headCommit());
        run.put(Findings.class, new Findings(RecipeLint.lint(deployment.app().recipeDir(), plan.headRelease())));
    }

    private static void verify(RunContext run, String rule) {
        Optional<String> finding = run.get(Findings.class).byRule().get(rule);
        if (finding.isPresent()) {
            throw new TestAbortedException(FINDING + finding.get());
        }
    }
}
