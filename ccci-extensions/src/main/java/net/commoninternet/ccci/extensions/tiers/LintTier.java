package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Driver;
import net.commoninternet.ccci.spi.LintResult;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * LINT: the recipe's lint by the run's driver ({@link net.commoninternet.ccci.spi.LiveRun#lint}): one
 * check per rule the driver lints with, judged as abra judges it. A warning (a warn-level rule that
 * does not hold) is a skipped check of kind {@code LINT_FINDING} with the rule's reason, so the run
 * stays green while the lint rung records a fail; a critical result (an error-level rule, which abra
 * refuses to deploy) fails the check; a rule not judged here (it needs the network, or does not
 * apply) is a structural skip with its reason; a rule the lint did not report is skipped as
 * unverified, and the rung reads unver.
 */
@API(status = API.Status.INTERNAL)
public final class LintTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.LINT;
    }

    /** The default driver's rules ({@link Driver#DEFAULT}, found on the class path as the engine finds it). */
    @Override
    public List<Check> checks() {
        return ServiceLoader.load(Driver.class, LintTier.class.getClassLoader()).stream().map(ServiceLoader.Provider::get)
                .filter(d -> d.id().equals(Driver.DEFAULT)).findFirst().map(this::checks).orElse(List.of());
    }

    @Override
    public List<Check> checks(Driver driver) {
        // a rule reads the recipe's files, which no second look changes: its failure is final at once
        return driver.lintRules().stream().map(rule -> Check.once(rule, tier -> verify(tier, rule))).toList();
    }

    /** It reads the recipe's head, never the app: a run of LINT alone deploys nothing. */
    @Override
    public boolean needsLiveApp() {
        return false;
    }

    @Override
    public void operate(TierContext tier) throws Exception {
        tier.store().put(TierOutputs.LINT, new TierOutputs.LintFindings(tier.live().lint()));
    }

    private static void verify(TierContext tier, String rule) {
        Map<String, LintResult> byRule = tier.store().find(TierOutputs.LINT).orElseThrow().byRule();
        if (!byRule.containsKey(rule)) {
            throw Skipped.unverified("not checked: the lint reported no rule " + rule + " (unver)");
        }
        LintResult result = byRule.get(rule);
        switch (result.outcome()) {
            case SATISFIED -> { }
            case WARNING -> throw Skipped.lintFinding(result.reason());
            case CRITICAL -> throw new AssertionError("critical lint error (abra would not deploy the recipe): " + result.reason());
            case NOT_JUDGED -> throw Skipped.structural(result.reason());
        }
    }
}
