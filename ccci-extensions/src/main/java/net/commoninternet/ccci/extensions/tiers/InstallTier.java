package net.commoninternet.ccci.extensions.tiers;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;

/**
 * INSTALL: the run's single deploy is its operation (done by the lifecycle before the tiers);
 * it passes when the run deployed exactly once, every service converged (at the deploy's wait
 * and again now) and the app answers real HTTP on {@code HEALTH_PATH}.
 */
@API(status = API.Status.INTERNAL)
public final class InstallTier implements TierPlugin {

    @Override
    public Tier tier() {
        return Tier.INSTALL;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("deployed-once", InstallTier::deployedOnce),
                Check.of("converged", InstallTier::converged),
                Check.of("serves-http", GenericChecks::servesHttp),
                Check.of("ready-probe", InstallTier::readyProbe));
    }

    /** The lifecycle deployed once; install adds no second deploy. */
    @Override
    public void operate(TierContext tier) {
    }

    /** The run deploys its app exactly once; read from the run's own deploy count, never another run's. */
    private static void deployedOnce(TierContext tier) throws IOException {
        Optional<String> violation = tier.live().deployOnceViolation();
        if (violation.isPresent()) {
            throw Words.failed(violation.get());
        }
    }

    /**
     * The recipe's READY_PROBE (HTTP, or N stable TCP connects) passes within HTTP_TIMEOUT: the
     * verdict of the run's one wait for it before the tiers (awaited here only when the
     * lifecycle did not, as after a deploy that did not converge).
     */
    private static void readyProbe(TierContext tier) throws InterruptedException {
        CiKeys keys = tier.keys();
        CiKeys.Probe probe = keys.readyProbe().orElseThrow(() -> Skipped.structural("the recipe sets no READY_PROBE"));
        Probes.Outcome outcome = tier.live().probes().readiness(probe, Duration.ofSeconds(keys.httpTimeoutSeconds()));
        if (!outcome.ok()) {
            String said = Words.oneLine(outcome.detail());
            throw Words.failed("READY_PROBE " + probe + " did not pass within HTTP_TIMEOUT " + keys.httpTimeoutSeconds()
                    + " s: " + said + Words.expects(probe, keys), said);
        }
    }

    /** The deploy's own wait, then a fresh look: a task that crashed since then shows up here. */
    private static void converged(TierContext tier) {
        Convergence atDeploy = tier.live().convergence();
        if (!atDeploy.converged()) {
            throw Words.failed("not every service of the app converged after its deploy: " + atDeploy.description());
        }
        GenericChecks.converged(tier);
    }
}
