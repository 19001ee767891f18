package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DeployedIdentity;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upgrade path of the embedded driver on the real swarm: the bundled custom-html deployed at
 * its older release, the same tree checked out at the newer one and deployed again in place;
 * the deployed identity (version label) moves, and so does its site config, whose version the
 * newer abra.sh bumped. The domain is outside RUN_APP_RE, so no
 * janitor probes it.
 */
@RealEngine
class UpgradeInPlaceTest {

    private static final String DOMAIN = "upgrade-test.ccci.invalid";
    private static final Path BUNDLED = MavenRun.ROOT.resolve("recipe-suites/recipes/custom-html");

    @TempDir
    Path runDir;

    private DockerEngine docker;
    private SwarmDriver driver;

    @BeforeEach
    void connect() throws Exception {
        docker = DockerEngine.connect();
        ChildProcesses children = new ChildProcesses(Map.of());
        driver = new SwarmDriver(docker, children, runDir.resolve("backup"), runDir.resolve("canonical/servers"),
                new DeployPolicy(DeployAllowance.NONE, children));
        driver.remove(DOMAIN);
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(driver.remove(DOMAIN)).isEmpty();
        docker.close();
    }

    @Test
    void aRedeployOfTheNewHeadInPlaceMovesTheDeployedVersionAndImage() throws Exception {
        RunAbraDir abra = RunAbraDir.create(runDir, runDir.resolve("canonical"));
        ChildProcesses children = new ChildProcesses(Map.of("ABRA_DIR", abra.root().toString()));
        RecipeFetch.Fetched base = new RecipeFetch(children).fetch(BUNDLED, abra.recipe("custom-html"), "1.0.0+1.22.1");
        App app = driver.newApp("custom-html", DOMAIN, base.dir(), abra);
        SwarmConvergence convergence = new SwarmConvergence(docker);

        driver.deploy(app);
        assertThat(convergence.await(app.stack(), Duration.ofMinutes(2)).converged()).isTrue();
        DeployedIdentity before = DeployedIdentity.read(docker.client(), app.stack());
        assertThat(siteConfig(app)).isEqualTo(app.stack() + "_nginx_conf_v1");

        children.run(List.of("git", "-C", base.dir().toString(), "checkout", "--quiet", "1.1.0+1.22.1"), null).orThrow();
        driver.deploy(app);
        SwarmConvergence.Report upgraded = convergence.await(app.stack(), Duration.ofMinutes(2));
        DeployedIdentity after = DeployedIdentity.read(docker.client(), app.stack());

        assertThat(before.version()).contains("1.0.0+1.22.1");
        assertThat(upgraded.converged()).as(upgraded.describe()).isTrue();
        assertThat(after.version()).contains("1.1.0+1.22.1");
        assertThat(after.images()).containsEntry("app", "ccci.local/nginx:1.22");
        // 1.1.0 bumped NGINX_CONF_VERSION in abra.sh: the redeploy made the v2 config and moved the service to it
        assertThat(siteConfig(app)).isEqualTo(app.stack() + "_nginx_conf_v2");
    }

    private String siteConfig(App app) {
        return docker.client().inspectServiceCmd(app.stack() + "_app").exec().getSpec().getTaskTemplate().getContainerSpec()
                .getConfigs().get(0).getConfigName();
    }
}
