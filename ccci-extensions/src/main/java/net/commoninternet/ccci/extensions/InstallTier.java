package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.Tier;
import net.commoninternet.ccci.spi.TierPlugin;

/**
 * INSTALL: the run's single deploy is its operation; it passes when the app was deployed exactly
 * once, every service converged and the app answers real HTTP on {@code HEALTH_PATH} with a
 * status in {@code HEALTH_OK}.
 */
public final class InstallTier implements TierPlugin {

    static final String HEALTH_PATH = "/";
    static final List<Integer> HEALTH_OK = List.of(200, 301, 302);
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(300);

    @Override
    public Tier tier() {
        return Tier.INSTALL;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("deployed-once", InstallTier::deployedOnce),
                Check.of("converged", InstallTier::converged),
                Check.of("serves-http", InstallTier::servesHttp));
    }

    @Override
    public void operate(RunContext run) {
        run.get(Deployment.class); // the lifecycle deployed once; install adds no second deploy
    }

    /** The run deploys its app exactly once; read from the run's own deploy count, never another run's. */
    private static void deployedOnce(RunContext run) throws java.io.IOException {
        assertThat(run.get(RunState.class).deployCount()).as("deploys of this run's app").isEqualTo(1);
    }

    /** The deploy's own wait, then a fresh look: a task that crashed since then shows up here. */
    private static void converged(RunContext run) {
        Deployment deployment = run.get(Deployment.class);
        SwarmConvergence.Report atDeploy = deployment.convergence();
        assertThat(atDeploy.converged()).as("every service of the app converged: %s", atDeploy.describe()).isTrue();
        SwarmConvergence.Report now = new SwarmConvergence(deployment.docker()).inspect(deployment.app().stack());
        assertThat(now.converged()).as("the app stayed converged: %s", now.describe()).isTrue();
    }

    private static void servesHttp(RunContext run) throws InterruptedException {
        Deployment deployment = run.get(Deployment.class);
        HttpProbe probe = new HttpProbe(deployment.docker().client());
        String stack = deployment.app().stack();
        HttpProbe.Target target = probe.target(stack).orElseThrow(() -> new AssertionError(
                "no service of " + stack + " has traefik.enable=true and a loadbalancer.server.port label,"
                        + " so nothing would route to the app"));
        HttpProbe.Answer answer = probe.await(stack, target, deployment.app().domain(), HEALTH_PATH, HEALTH_OK, HTTP_TIMEOUT);
        assertThat(answer.status()).as("GET %s (Host %s) answered %s", target.url(HEALTH_PATH),
                deployment.app().domain(), answer.detail()).isIn(HEALTH_OK);
    }
}
