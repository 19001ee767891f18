package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.RealProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deploy timeout abra uses, the recipe's {@code coop-cloud.${STACK_NAME}.timeout} label, read
 * from the final compose as the docker CLI interpolates it ({@code docker stack config}: client
 * side, no engine); the customization's {@code DEPLOY_TIMEOUT} wins when it sets one.
 */
@RealProcesses
class DeployTimeoutTest {

    @TempDir
    Path recipe;

    private final ChildProcesses children = new ChildProcesses(Map.of());

    /** A host bound above every wait these cases ask for. */
    private static final Duration HOST_MOST = Duration.ofDays(1);

    private App app(String label, String env) throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: x:1
                    deploy:
                      labels:
                        - "traefik.enable=true"
                %s
                """.formatted(label.isEmpty() ? "" : "        - \"" + label + "\""));
        Path file = recipe.resolve("app.env");
        Files.writeString(file, env);
        return new App("timed", "timed.example", recipe, file, Map.of());
    }

    @Test
    void theRecipesTimeoutLabelInterpolatedWithTheAppsEnv() throws Exception {
        App defaulted = app("coop-cloud.${STACK_NAME}.timeout=${TIMEOUT:-45}", "DOMAIN=timed.example\n");
        assertThat(DeployTimeout.of(CiKeys.defaults(), defaulted, children, HOST_MOST)).isEqualTo(Duration.ofSeconds(45));

        App overridden = app("coop-cloud.${STACK_NAME}.timeout=${TIMEOUT:-45}", "TIMEOUT=70\n");
        assertThat(DeployTimeout.of(CiKeys.defaults(), overridden, children, HOST_MOST)).isEqualTo(Duration.ofSeconds(70));
    }

    @Test
    void deployTimeoutWinsAndWithoutEitherTheDefaultHolds() throws Exception {
        App labelled = app("coop-cloud.${STACK_NAME}.timeout=45", "");
        assertThat(DeployTimeout.of(CiKeys.validated(Map.of("DEPLOY_TIMEOUT", 30)), labelled, children, HOST_MOST))
                .isEqualTo(Duration.ofSeconds(30));

        App unlabelled = app("", "");
        assertThat(DeployTimeout.of(CiKeys.defaults(), unlabelled, children, HOST_MOST)).isEqualTo(Duration.ofSeconds(600));
    }

    /**
     * The label is the pull request's text: it may shorten the wait, never lengthen it past the host's
     * most. A day (the held-out case), a number too long for a long, a value the env interpolates,
     * the customization's key and the default past a small bound: each clamped, and said in one line.
     */
    @Test
    void aWaitLongerThanTheHostsMostIsClampedToItAndTheClampIsSaidInOneLine() throws Exception {
        Duration most = Duration.ofSeconds(90);
        try (LogCapture log = new LogCapture(DeployTimeout.class)) {
            assertThat(DeployTimeout.of(CiKeys.defaults(), app("coop-cloud.${STACK_NAME}.timeout=86400", ""), children, most))
                    .isEqualTo(most);
            assertThat(log.lines()).containsExactly("deploy timeout 90 s, this host's most (-Dccci.max-deploy-timeout=90):"
                    + " the recipe's coop-cloud.timed_example.timeout label asks for 86400 s, and a recipe may shorten the"
                    + " wait, never lengthen it");

            // each app() writes the one recipe folder: each is judged before the next is written
            assertThat(DeployTimeout.of(CiKeys.defaults(), app("coop-cloud.${STACK_NAME}.timeout=99999999999999999999999", ""),
                    children, most)).isEqualTo(most);
            assertThat(DeployTimeout.of(CiKeys.defaults(), app("coop-cloud.${STACK_NAME}.timeout=${TIMEOUT:-45}",
                    "TIMEOUT=100000\n"), children, most)).isEqualTo(most);
            App shorter = app("coop-cloud.${STACK_NAME}.timeout=${TIMEOUT:-45}", "");
            assertThat(DeployTimeout.of(CiKeys.defaults(), shorter, children, most)).hasSeconds(45);
            assertThat(DeployTimeout.of(CiKeys.validated(Map.of("DEPLOY_TIMEOUT", 600)), shorter, children, most))
                    .isEqualTo(most);
            assertThat(DeployTimeout.of(CiKeys.defaults(), app("", ""), children, most)).isEqualTo(most);
            assertThat(log.lines()).filteredOn(l -> l.startsWith("deploy timeout 90 s, this host's most")).hasSize(5)
                    .anyMatch(l -> l.contains("the customization's DEPLOY_TIMEOUT asks for 600 s"))
                    .anyMatch(l -> l.contains("DEPLOY_TIMEOUT's default asks for 600 s"));
        }
    }

    @Test
    void aTimeoutLabelThatIsNotANumberIsOneSentenceNamingTheFix() throws Exception {
        App app = app("coop-cloud.${STACK_NAME}.timeout=soon", "");

        assertThatThrownBy(() -> DeployTimeout.of(CiKeys.defaults(), app, children, HOST_MOST))
                .hasMessage("the label coop-cloud.${STACK_NAME}.timeout=soon of timed is not a number of seconds: write a"
                        + " whole number (abra waits that long for the deploy), or set DEPLOY_TIMEOUT in the recipe's"
                        + " customization.");
    }

    /** The final compose is every COMPOSE_FILE file merged and interpolated, as the deploy gets it. */
    @Test
    void theFinalComposeMergesTheOverlaysTheEnvChoosesAndNamesAMissingOne() throws Exception {
        App app = app("coop-cloud.${STACK_NAME}.version=1.0.0+1", "COMPOSE_FILE=\"compose.yml\"\n"
                + "COMPOSE_FILE=\"$COMPOSE_FILE:compose.db.yml\"\nSECRET_DB_PASSWORD_VERSION=v3\n");
        Files.writeString(recipe.resolve("compose.db.yml"), """
                version: "3.8"
                services:
                  db:
                    image: postgres:15
                secrets:
                  db_password:
                    external: true
                    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}
                """);

        ComposeConfig compose = ComposeConfig.of(app, children);

        assertThat(compose.services()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder("app", "db");
        assertThat(compose.secretNames()).containsEntry("db_password", "timed_example_db_password_v3");
        assertThat(compose.recipeLabel("timed_example", RecipeLabels.VERSION)).contains("1.0.0+1");

        Files.writeString(app.envFile(), "COMPOSE_FILE=compose.yml:compose.gone.yml\n");
        assertThatThrownBy(() -> ComposeConfig.of(app, children)).hasMessage("COMPOSE_FILE of timed names compose.gone.yml,"
                + " which the recipe does not have: fix COMPOSE_FILE in its .env.sample.");
    }
}
