package net.commoninternet.ccci.extensions.tiers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Driver;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * LINT: the recipe's lint, verdict-neutral, by the run's driver ({@link net.commoninternet.ccci.spi.LiveRun#lint}):
 * one check per rule the driver lints with. A finding is reported as a skipped check of kind
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

    /** The default driver's rules ({@link Driver#DEFAULT}, found on the class path as the engine finds it). */
    @Override
    public List<Check> checks() {
        return ServiceLoader.load(Driver.class, LintTier.class.getClassLoader()).stream().map(ServiceLoader.Provider::get)
                .filter(d -> d.id().equals(Driver.DEFAULT)).findFirst().map(this::checks).orElse(List.of());
    }

    @Override
    public List<Check> checks(Driver driver) {
        return driver.lintRules().stream().map(rule -> Check.of(rule, tier -> verify(tier, rule))).toList();
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
        Map<String, Optional<String>> byRule = tier.store().find(TierOutputs.LINT).orElseThrow().byRule();
        if (!byRule.containsKey(rule)) {
            throw Skipped.unverified("not checked: the lint reported no rule " + rule + " (unver)");
        }
        Optional<String> finding = byRule.get(rule);
        if (finding.isPresent()) {
            throw Skipped.lintFinding(finding.get());
        }
    }
}
