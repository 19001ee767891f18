package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Tier;
import net.commoninternet.ccci.spi.TierPlugin;

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
                Check.of("serves-http", GenericChecks::servesHttp));
    }

    @Override
    public void operate(RunContext run) {
        run.get(Deployment.class); // the lifecycle deployed once; install adds no second deploy
    }

    /** The run deploys its app exactly once; read from the run's own deploy count, never another run's. */
    private static void deployedOnce(RunContext run) throws IOException {
        assertThat(run.get(RunState.class).deployCount()).as("deploy-count of this run's app").isEqualTo(1);
    }

    /** The deploy's own wait, then a fresh look: a task that crashed since then shows up here. */
    private static void converged(RunContext run) {
        SwarmConvergence.Report atDeploy = run.get(Deployment.class).convergence();
        assertThat(atDeploy.converged()).as("every service of the app converged: %s", atDeploy.describe()).isTrue();
        GenericChecks.converged(run);
    }
}
