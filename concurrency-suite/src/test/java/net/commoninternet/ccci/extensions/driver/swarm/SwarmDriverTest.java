package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.ConfigVersions;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.probe.MountedSecrets;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded driver on the real swarm. Before a deploy it reads the final compose config: a
 * missing image or a compose file that does not parse stops it with one sentence, and nothing is
 * deployed. After one, the secret values read from inside the app's containers
 * ({@link MountedSecrets}: how a driver that does not tell ccci its values, abra, still gets them
 * masked) are exactly the generated ones, a secret mounted under another file name included.
 * The domain is outside RUN_APP_RE, so no janitor probes it.
 */
@RealEngine
class SwarmDriverTest {

    private static final String DOMAIN = "preflight-test.ccci.invalid";

    /** A compose whose one service, app, sleeps until it is stopped; a test appends what it needs. */
    private static final String SLEEPER = """
            version: "3.8"
            services:
              app:
                image: %s
                command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]
            """.formatted(LocalImages.BUSYBOX);

    @TempDir
    Path runDir;

    private final ChildProcesses processes = new ChildProcesses(Map.of());
    private DockerEngine docker;
    private SwarmDriver driver;
    private RunAbraDir abra;

    @BeforeEach
    void connect() throws Exception {
        docker = DockerEngine.connect();
        driver = new SwarmDriver(docker, processes, runDir.resolve("backup"), runDir.resolve("canonical/servers"),
                new DeployPolicy(DeployAllowance.NONE, processes));
        abra = RunAbraDir.create(runDir, runDir.resolve("canonical"));
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(driver.remove(DOMAIN)).isEmpty();
        docker.close();
    }

    /** A recipe with no .env.sample is said in one line, never run with an empty env; nothing of its app is made. */
    @Test
    void aRecipeWithoutAnEnvSampleIsOneSentenceAndNothingOfItsAppIsMade() throws Exception {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), SLEEPER + "    secrets: [s]\nsecrets:\n  s:\n    external: true\n"
                + "    name: ${STACK_NAME}_s_${SECRET_S_VERSION:-v1}\n");

        assertThatThrownBy(() -> driver.newApp("preflight", DOMAIN, recipe, abra)).isInstanceOf(IllegalStateException.class)
                .hasMessage("preflight has no .env.sample at its root, which abra makes every app's env from (abra app new):"
                        + " add one with TYPE=preflight and the values its compose uses.");
        assertThat(abra.envFile(DOMAIN)).doesNotExist();
    }

    private App app(String compose) throws Exception {
        return app(compose, "");
    }

    private App app(String compose, String envSample) throws Exception {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), compose);
        Files.writeString(recipe.resolve(".env.sample"), envSample);
        return driver.newApp("preflight", DOMAIN, recipe, abra);
    }

    @Test
    void theSecretValuesTheAppMountsAreTheGeneratedOnes() throws Exception {
        App app = app(SLEEPER + """
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
                """, "SECRET_DB_PASSWORD_VERSION=v1\nSECRET_API_TOKEN_VERSION=v2\n");
        driver.deploy(app);
        assertThat(new SwarmConvergence(docker).await(app.stack(), Duration.ofMinutes(2)).converged()).isTrue();

        Map<String, String> mounted = MountedSecrets.read(docker.client(), app.stack(), Set.of());

        assertThat(app.secretValues()).hasSize(2);
        assertThat(mounted).isEqualTo(app.secretValues());
        assertThat(app.withSecrets(mounted).secretValues()).isEqualTo(app.secretValues());
        // what ccci created is known: only the others are read from the containers
        String db = app.secretValues().keySet().stream().filter(n -> n.contains("_db_password_")).findFirst().orElseThrow();
        assertThat(MountedSecrets.read(docker.client(), app.stack(), app.secretValues().keySet())).isEmpty();
        Map<String, String> others = new HashMap<>(app.secretValues());
        others.remove(db);
        assertThat(MountedSecrets.read(docker.client(), app.stack(), Set.of(db))).hasSize(1).isEqualTo(others);
    }

    @Test
    void aMissingImageIsNamedAndNothingIsDeployed() throws Exception {
        App app = app("version: \"3.8\"\nservices:\n  app:\n    image: ccci-never-built:${TAG}\n");

        EnvFile.read(app.envFile()).set("TAG", "7").write(app.envFile());

        try (LogCapture log = new LogCapture(SwarmDriver.class)) {
            // No registry answers here: the pull fails as it would for an image that exists nowhere.
            assertThatThrownBy(() -> driver.deploy(app))
                    .hasMessageStartingWith("image ccci-never-built:7 of service app is neither on this host nor"
                            + " pullable (pulling it failed: ")
                    .hasMessageContaining("scripts/setup-local-swarm")
                    .hasMessageNotContaining("Status 500").hasMessageNotContaining("{\"message\"");
            assertThat(log.lines()).noneMatch(l -> l.contains("Status 500") || l.contains("{\"message\""));
        }

        assertThat(new StackTeardown(docker.client()).leftovers(app.stack())).isEmpty();
    }

    /** ccci's own name for images built on the host is never pulled: the sentence says to build it. */
    @Test
    void aMissingImageBuiltOnTheHostIsNeverPulled() throws Exception {
        App app = app("version: \"3.8\"\nservices:\n  app:\n    image: ccci.local/never-built:7\n");

        assertThatThrownBy(() -> driver.deploy(app)).hasMessage("image ccci.local/never-built:7 of service app is neither on"
                + " this host nor pullable (ccci.local images are built on this host, never pulled): build or load it first"
                + " (scripts/setup-local-swarm builds the bundled recipes' images), or fix the image name.");
        assertThat(new StackTeardown(docker.client()).leftovers(app.stack())).isEmpty();
    }

    /** abra app new reads the compose (for its secrets): a compose that does not parse stops it, before anything exists. */
    @Test
    void aComposeFileThatDoesNotParseIsOneSentenceNamingTheFile() throws Exception {
        assertThatThrownBy(() -> app("version: \"3.8\"\nservices:\n  app:\n    image: [unclosed\n"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("compose files of preflight (compose.yml) do not parse")
                .hasMessageEndingWith("fix the recipe's compose file.");

        assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(DOMAIN))).isEmpty();
    }

    /**
     * Secrets are the compose's, under the names it gives them, as long and from the alphabet the
     * modifiers of their SECRET_*_VERSION lines say; a secret whose version the env does not set
     * is not generated (as abra).
     */
    @Test
    void secretsAreGeneratedUnderTheComposesNamesWithTheirLengthAndCharsetHints() throws Exception {
        App app = app(SLEEPER + """
                    secrets: [db_password, api_key]
                secrets:
                  db_password:
                    external: true
                    name: ${STACK_NAME}_dbpw_${SECRET_DB_PASSWORD_VERSION}
                  api_key:
                    external: true
                    name: ${STACK_NAME}_api_key_${SECRET_API_KEY_VERSION}
                  unset_one:
                    external: true
                    name: ${STACK_NAME}_unset_one_v1
                """,
                "SECRET_DB_PASSWORD_VERSION=v2 # length=48\nSECRET_API_KEY_VERSION=v1 # length=20 charset=safespecial\n");

        String stack = app.stack();
        assertThat(app.secretValues()).containsOnlyKeys(stack + "_dbpw_v2", stack + "_api_key_v1");
        assertThat(app.secretValues().get(stack + "_dbpw_v2")).hasSize(48).matches("[A-Za-z0-9]+");
        assertThat(app.secretValues().get(stack + "_api_key_v1")).hasSize(20).matches("[-_.~]+");
    }

    @Test
    void aBadLengthHintIsOneSentenceNamingTheLineAndTheFix() throws Exception {
        assertThatThrownBy(() -> app("""
                version: "3.8"
                services:
                  app:
                    image: %s
                secrets:
                  db_password:
                    external: true
                    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}
                """.formatted(LocalImages.BUSYBOX), "SECRET_DB_PASSWORD_VERSION=v1 # length=lots\n"))
                .hasMessage("the modifier length=lots of SECRET_DB_PASSWORD_VERSION in .env.sample of preflight is not a number"
                        + " of characters: write it as SECRET_DB_PASSWORD_VERSION=v1 # length=32.");
    }

    @Test
    void anEnvSampleThatIsNotUtf8IsOneSentenceAndNothingIsCreated() throws Exception {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), "version: \"3.8\"\nservices:\n  app:\n    image: x:1\n");
        Files.write(recipe.resolve(".env.sample"), "TYPE=preflight\nNOTE=d\u00e9j\u00e0 vu\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> driver.newApp("preflight", DOMAIN, recipe, abra))
                .hasMessage(recipe.resolve(".env.sample") + " is not UTF-8 text (line 2 holds a byte that is not UTF-8):"
                        + " save it as UTF-8, as abra reads it.");
        assertThat(abra.envFile(DOMAIN)).doesNotExist();
    }

    /**
     * abra.sh's exports are in the deploy env (a config named with ${CONF_VERSION} deploys), and
     * a config whose file changed under the same name fails the upgrade with the variable to bump,
     * not swarm's raw "only updates to Labels are allowed"; bumped, it deploys.
     */
    @Test
    void abraShVersionsNameTheConfigsAndAnUnbumpedChangeIsOneLineNamingTheVariable() throws Exception {
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("site.conf"), "greeting=hello\n");
        Files.writeString(recipe.resolve("abra.sh"), "export SITE_CONF_VERSION=v1\nsite() {\n  export IGNORED=1\n}\n");
        App app = app(SLEEPER + """
                    configs:
                      - source: site_conf
                        target: /etc/site.conf
                configs:
                  site_conf:
                    name: ${STACK_NAME}_site_conf_${SITE_CONF_VERSION}
                    file: site.conf
                """);
        driver.deploy(app);
        assertThat(new SwarmConvergence(docker).await(app.stack(), Duration.ofMinutes(2)).converged()).isTrue();
        assertThat(docker.client().listConfigsCmd().exec()).extracting(c -> c.getSpec().getName())
                .contains(app.stack() + "_site_conf_v1");
        assertThat(app.deployEnv()).containsEntry("SITE_CONF_VERSION", "v1").doesNotContainKey("IGNORED");

        Files.writeString(app.recipeDir().resolve("site.conf"), "greeting=hello again\n");
        assertThatThrownBy(() -> ConfigVersions.requireBumped(docker, app, ComposeConfig.of(app, processes)))
                .hasMessage("config site_conf of preflight changed (site.conf) but kept its name " + app.stack()
                        + "_site_conf_v1, and swarm never updates a config in place: bump SITE_CONF_VERSION in abra.sh.");

        Files.writeString(app.recipeDir().resolve("abra.sh"), "export SITE_CONF_VERSION=v2\n");
        ConfigVersions.requireBumped(docker, app, ComposeConfig.of(app, processes));
        driver.deploy(app);
        assertThat(new SwarmConvergence(docker).await(app.stack(), Duration.ofMinutes(2)).converged()).isTrue();
        assertThat(docker.client().listConfigsCmd().exec()).extracting(c -> c.getSpec().getName())
                .contains(app.stack() + "_site_conf_v2");
    }
}
