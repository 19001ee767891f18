package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.AppProbes;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.run.ColdDeps;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.TierPlugin;
import org.opentest4j.TestAbortedException;

/**
 * INSTALL: the run's single deploy is its operation (done by the lifecycle before the tiers);
 * it passes when the run deployed exactly once, every service converged (at the deploy's wait
 * and again now) and the app answers real HTTP on {@code HEALTH_PATH}.
 */
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

    @Override
    public void operate(RunContext run) {
        run.get(Deployment.class); // the lifecycle deployed once; install adds no second deploy
    }

    /** The run deploys its app exactly once; read from the run's own deploy count, never another run's. */
    private static void deployedOnce(RunContext run) throws IOException {
        int deploys = run.get(RunState.class).deployCount();
        int cold = run.find(ColdDeps.class).map(ColdDeps::coldCount).orElse(0);
        assertThat(CountedDeploys.violation(deploys, 1 + cold)).as("deploy-count of this run's app").isNull();
    }

    /** The recipe's READY_PROBE (HTTP, or N stable TCP connects) passes within HTTP_TIMEOUT. */
    private static void readyProbe(RunContext run) throws InterruptedException {
        CiKeys keys = run.find(CiKeys.class).orElse(CiKeys.defaults());
        CiKeys.Probe probe = keys.readyProbe().orElseThrow(() -> new TestAbortedException(
                "structural skip: the recipe sets no READY_PROBE"));
        AppProbes.Outcome outcome = new AppProbes(run.get(Deployment.class), keys)
                .await(probe, java.time.Duration.ofSeconds(keys.httpTimeoutSeconds()));
        assertThat(outcome.ok()).as("READY_PROBE %s within HTTP_TIMEOUT %s s: %s", probe, keys.httpTimeoutSeconds(),
                outcome.detail()).isTrue();
    }

    /** The deploy's own wait, then a fresh look: a task that crashed since then shows up here. */
    private static void converged(RunContext run) {
        SwarmConvergence.Report atDeploy = run.get(Deployment.class).convergence();
        assertThat(atDeploy.converged()).as("every service of the app converged: %s", atDeploy.describe()).isTrue();
        GenericChecks.converged(run);
    }
}
