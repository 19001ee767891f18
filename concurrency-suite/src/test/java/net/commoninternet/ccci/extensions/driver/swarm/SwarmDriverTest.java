package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.MountedSecrets;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.AppEnv;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LogCapture;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded driver on the real swarm. Before a deploy it reads the final compose config: a
 * missing image or a compose file that does not parse stops it with one sentence, and nothing is
 * deployed. After one, the secret values read from inside the app's containers
 * ({@link MountedSecrets}: how a driver that does not tell ccci its values, abra, still gets them
 * masked) are exactly the generated ones, a secret mounted under another file name included.
 * The domain is outside RUN_APP_RE, so no janitor probes it.
 */
class SwarmDriverTest {

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
        return app(compose, "");
    }

    private App app(String compose, String envSample) throws IOException {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), compose);
        Files.writeString(recipe.resolve(".env.sample"), envSample);
        return driver.newApp("preflight", DOMAIN, recipe, abra);
    }

    @Test
    void theSecretValuesTheAppMountsAreTheGeneratedOnes() throws Exception {
        App app = app("""
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]
                    secrets:
                      - db_password
                      - source: api_token
                        target: token.txt
                secrets:
                  db_password:
                    external: true
                    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}
                  api_token:
                    external: true
                    name: ${STACK_NAME}_api_token_${SECRET_API_TOKEN_VERSION}
                """.formatted(LocalImages.BUSYBOX), "SECRET_DB_PASSWORD_VERSION=v1\nSECRET_API_TOKEN_VERSION=v2\n");
        driver.deploy(app);
        assertThat(new SwarmConvergence(docker).await(app.stack(), java.time.Duration.ofMinutes(2)).converged()).isTrue();

        Map<String, String> mounted = MountedSecrets.read(docker.client(), app.stack());

        assertThat(app.secretValues()).hasSize(2);
        assertThat(mounted).isEqualTo(app.secretValues());
        assertThat(app.withSecrets(mounted).secretValues()).isEqualTo(app.secretValues());
    }

    @Test
    void aMissingImageIsNamedAndNothingIsDeployed() throws Exception {
        App app = app("version: \"3.8\"\nservices:\n  app:\n    image: ccci.local/never-built:${TAG}\n");

        AppEnv.read(app.envFile()).set("TAG", "7").write(app.envFile());

        try (LogCapture log = new LogCapture(SwarmDriver.class)) {
            // No registry answers here: the pull fails as it would for an image that exists nowhere.
            assertThatThrownBy(() -> driver.deploy(app))
                    .hasMessageStartingWith("image ccci.local/never-built:7 of service app is neither on this host nor"
                            + " pullable (pulling it failed: ")
                    .hasMessageContaining("scripts/setup-local-swarm")
                    .hasMessageNotContaining("Status 500").hasMessageNotContaining("{\"message\"");
            assertThat(log.lines()).noneMatch(l -> l.contains("Status 500") || l.contains("{\"message\""));
        }

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
