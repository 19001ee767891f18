package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.swarm.AppProbes;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Skipped;
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
                TierCheck.named("deployed-once", InstallTier::deployedOnce),
                TierCheck.named("converged", InstallTier::converged),
                TierCheck.named("serves-http", GenericChecks::servesHttp),
                TierCheck.named("ready-probe", InstallTier::readyProbe));
    }

    /** The lifecycle deployed once; install adds no second deploy. */
    @Override
    public void operate(RunContext run) {
        Deployment.of(run);
    }

    /** The run deploys its app exactly once; read from the run's own deploy count, never another run's. */
    private static void deployedOnce(Deployment deployment) throws IOException {
        int deploys = deployment.workspace().state().deployCount();
        assertThat(CountedDeploys.violation(deploys, 1 + deployment.deps().coldCount())).as("deploy-count of this run's app")
                .isNull();
    }

    /**
     * The recipe's READY_PROBE (HTTP, or N stable TCP connects) passes within HTTP_TIMEOUT: the
     * verdict of the run's one wait for it before the tiers (awaited here only when the
     * lifecycle did not, as after a deploy that did not converge).
     */
    private static void readyProbe(Deployment deployment) throws InterruptedException {
        CiKeys keys = deployment.keys();
        CiKeys.Probe probe = keys.readyProbe().orElseThrow(() -> Skipped.structural("the recipe sets no READY_PROBE"));
        AppProbes.Outcome outcome = deployment.awaitReadiness(probe, Duration.ofSeconds(keys.httpTimeoutSeconds()));
        assertThat(outcome.ok()).as("READY_PROBE %s within HTTP_TIMEOUT %s s: %s", probe, keys.httpTimeoutSeconds(),
                outcome.detail()).isTrue();
    }

    /** The deploy's own wait, then a fresh look: a task that crashed since then shows up here. */
    private static void converged(Deployment deployment) {
        SwarmConvergence.Report atDeploy = deployment.convergence();
        assertThat(atDeploy.converged()).as("every service of the app converged: %s", atDeploy.describe()).isTrue();
        GenericChecks.converged(deployment);
    }
}
