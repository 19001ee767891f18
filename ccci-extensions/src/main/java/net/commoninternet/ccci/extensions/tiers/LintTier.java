package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.driver.Drivers;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.DriverKind;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunSettings;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * LINT: the recipe's lint, verdict-neutral, by the run's driver ({@code AppDriver.lint}): one
 * check per rule the driver lints with. A finding is reported as a skipped check of kind
 * {@code LINT_FINDING} with the finding as its reason, so the run stays green while the lint rung
 * records a fail; a rule the lint did not report is skipped as unverified, and the rung reads
 * unver.
 */
@API(status = API.Status.INTERNAL)
public final class LintTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.LINT;
    }

    /** The embedded driver's rules, the default. */
    @Override
    public List<Check> checks() {
        return checks(Drivers.of(DriverKind.SWARM).lintChecks());
    }

    @Override
    public List<Check> checks(RunSettings settings) {
        return checks(Drivers.of(settings.driver()).lintChecks());
    }

    @Override
    public void operate(RunContext run) throws Exception {
        Deployment deployment = Deployment.of(run);
        // Lint the head, whatever an UPGRADE tier did or did not do to the tree.
        deployment.workspace().fetch().moveTo(deployment.app().recipeDir(), deployment.checkout().upgrade().headCommit());
        deployment.outputs().lintFindings(deployment.driver().lint(deployment.app(),
                deployment.checkout().upgrade().headRelease()));
    }

    private static List<Check> checks(List<String> rules) {
        return rules.stream().map(rule -> TierCheck.named(rule, deployment -> verify(deployment, rule))).toList();
    }

    private static void verify(Deployment deployment, String rule) {
        Map<String, Optional<String>> byRule = deployment.outputs().lintFindings().orElseThrow();
        if (!byRule.containsKey(rule)) {
            throw Skipped.unverified("not checked: the lint reported no rule " + rule + " (unver)");
        }
        Optional<String> finding = byRule.get(rule);
        if (finding.isPresent()) {
            throw Skipped.lintFinding(finding.get());
        }
    }
}
