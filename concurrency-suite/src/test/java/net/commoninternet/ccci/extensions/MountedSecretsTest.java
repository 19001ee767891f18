package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the real swarm: the secret values read from inside the deployed app's containers are
 * exactly the ones the driver generated (so a driver that does not tell ccci its values, abra,
 * still gets them masked), including a secret mounted under another file name. The domain is
 * outside RUN_APP_RE, so no janitor probes it.
 */
class MountedSecretsTest {

    private static final String DOMAIN = "secrets-test.ccci.invalid";

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

    @Test
    void theValuesTheAppMountsAreTheGeneratedOnes() throws Exception {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve(".env.sample"), "SECRET_DB_PASSWORD_VERSION=v1\nSECRET_API_TOKEN_VERSION=v2\n");
        Files.writeString(recipe.resolve("compose.yml"), """
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
                """.formatted(HttpProbe.PROBE_IMAGE));
        App app = driver.newApp("secrets", DOMAIN, recipe, abra);
        driver.deploy(app);
        assertThat(new SwarmConvergence(docker).await(app.stack(), Duration.ofMinutes(2)).converged()).isTrue();

        Map<String, String> mounted = MountedSecrets.read(docker.client(), app.stack());

        assertThat(app.secretValues()).hasSize(2);
        assertThat(mounted).isEqualTo(app.secretValues());
        assertThat(app.withSecrets(mounted).secretValues()).isEqualTo(app.secretValues());
    }
}
