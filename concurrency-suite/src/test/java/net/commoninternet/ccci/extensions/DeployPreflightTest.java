package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Before a deploy the embedded driver reads the final compose config: a missing image or a
 * compose file that does not parse stops it with one sentence, and nothing is deployed. The
 * domain is outside RUN_APP_RE, so no janitor probes it.
 */
class DeployPreflightTest {

    private static final String DOMAIN = "preflight-test.ccci.invalid";

    @TempDir
    Path runDir;

    private DockerEngine docker;
    private SwarmDriver driver;
    private RunAbraDir abra;

    @BeforeEach
    void connect() throws Exception {
        docker = DockerEngine.connect();
        driver = new SwarmDriver(docker, new ChildProcesses(Map.of()), runDir.resolve("backup"), runDir.resolve("canonical/servers"));
        abra = RunAbraDir.create(runDir, runDir.resolve("canonical"));
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(driver.remove(DOMAIN)).isEmpty();
        docker.close();
    }

    private App app(String compose) throws IOException {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), compose);
        return driver.newApp("preflight", DOMAIN, recipe, abra);
    }

    @Test
    void aMissingImageIsNamedAndNothingIsDeployed() throws Exception {
        App app = app("version: \"3.8\"\nservices:\n  app:\n    image: ccci.local/never-built:${TAG}\n");

        AppEnv.read(app.envFile()).set("TAG", "7").write(app.envFile());

        assertThatThrownBy(() -> driver.deploy(app))
                .hasMessageStartingWith("image ccci.local/never-built:7 of service app is not on this host")
                .hasMessageContaining("scripts/setup-local-swarm");

        assertThat(new StackTeardown(docker.client()).leftovers(app.stack())).isEmpty();
    }

    @Test
    void aComposeFileThatDoesNotParseIsOneSentenceNamingTheFile() throws Exception {
        App app = app("version: \"3.8\"\nservices:\n  app:\n    image: [unclosed\n");

        assertThatThrownBy(() -> driver.deploy(app)).isInstanceOf(IOException.class)
                .hasMessageContaining("compose files of preflight (compose.yml) do not parse")
                .hasMessageEndingWith("fix the recipe's compose file.");

        assertThat(new StackTeardown(docker.client()).leftovers(app.stack())).isEmpty();
    }
}
