package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The set-env, overlay and install-steps step on a real recipe tree and env file, with real child processes. */
public class RecipeSetupTest {

    private static final String OVERLAY = "services:\n  app:\n    environment:\n      CI: \"1\"\n";
    private static final String IGNORED = "ignored: recipe code, and demo is not on the approved list";

    @TempDir
    Path root;

    private final ChildProcesses children = new ChildProcesses(Map.of());
    private App app;

    /** A customization with a compose overlay, as one in recipe-suites would be. */
    public static final class Overlay implements RecipeCustomization {
        @Override
        public String recipe() {
            return "demo";
        }

        @Override
        public Optional<String> composeOverlay() {
            return Optional.of(OVERLAY);
        }
    }

    @BeforeEach
    void recipeWithItsOwnCiFiles() throws IOException {
        app = TempApp.create(root, "demo", Map.of(), "TYPE=demo", "COMPOSE_FILE=\"compose.yml:compose.smtp.yml\"");
        Files.writeString(app.recipeDir().resolve(RecipeSetup.RECIPE_OVERLAY), "services: {}\n");
        installSteps("echo \"steps ran for $DOMAIN\" > install-steps-ran",
                "echo \"FROM_STEPS=$DOMAIN saw $GREETING\" >> \"$CCCI_ENV_FILE\"");
    }

    private void installSteps(String... lines) throws IOException {
        Files.writeString(app.recipeDir().resolve(RecipeSetup.INSTALL_STEPS), String.join("\n", lines) + "\n");
    }

    /**
     * The approval of the tree's CI code as it is now, computed the way the operator is told to:
     * {@code sha256sum compose.ccci.yml install_steps.sh 2>/dev/null | sha256sum} in the recipe.
     */
    private Set<String> reviewed() throws Exception {
        ChildProcesses.Result sum = children.run(List.of("sh", "-c", "sha256sum compose.ccci.yml install_steps.sh 2>/dev/null"
                + " | sha256sum"), app.recipeDir(), Map.of(), java.time.Duration.ofSeconds(30));
        return Set.of("sha256:" + sum.output().strip().split(" ")[0]);
    }

    private static CiKeys keys(Map<String, Object> raw) {
        return CiKeys.validated(raw);
    }

    private Map<String, String> env() throws IOException {
        return EnvFile.read(app.envFile()).values();
    }

    @Test
    void forARecipeNotApprovedItsOwnOverlayAndInstallStepsAreIgnoredAndSaidSo() throws Exception {
        RecipeSetup setup = new RecipeSetup(Set.of(), Optional.empty(), children);

        setup.beforeInstall(app, keys(Map.of("EXTRA_ENV", Map.of("GREETING", "hi"))));

        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:compose.smtp.yml").containsEntry("GREETING", "hi")
                .doesNotContainKey("FROM_STEPS");
        assertThat(app.recipeDir().resolve("install-steps-ran")).doesNotExist();
        assertThat(setup.used()).containsOnly(
                Map.entry(RecipeSetup.RECIPE_OVERLAY, IGNORED), Map.entry(RecipeSetup.INSTALL_STEPS, IGNORED));
    }

    @Test
    void aRecipeCannotSlipItsOverlayPastTheApprovedListBySpellingItsPathAnotherWay() throws Exception {
        EnvFile.read(app.envFile()).set("COMPOSE_FILE", "compose.yml:./compose.ccci.yml: .ccci/../compose.ccci.yml"
                + ":./.ccci/compose.customization.yml").write(app.envFile());

        new RecipeSetup(Set.of(), Optional.empty(), children).applyOverlays(app);

        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml");
    }

    @Test
    void forAnApprovedRecipeBothAreUsedAndTheStepsSeeTheAppAndExtraEnvAndCanAddToTheEnvFile() throws Exception {
        RecipeSetup setup = new RecipeSetup(reviewed(), Optional.empty(), children);

        setup.beforeInstall(app, keys(Map.of("EXTRA_ENV", Map.of("GREETING", "hi"))));

        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:compose.smtp.yml:compose.ccci.yml")
                .containsEntry("FROM_STEPS", app.domain() + " saw hi");
        assertThat(app.recipeDir().resolve("install-steps-ran")).content().isEqualTo("steps ran for " + app.domain() + "\n");
        assertThat(setup.used()).containsOnly(
                Map.entry(RecipeSetup.RECIPE_OVERLAY, "applied (recipe on the approved list)"),
                Map.entry(RecipeSetup.INSTALL_STEPS, "ran (recipe on the approved list)"));
    }

    /**
     * The approval binds to what was reviewed: once the recipe's CI code changes (a pull request
     * edits install_steps.sh), the approval no longer covers it and the run is refused in one sentence
     * naming the new digest, before the code runs.
     */
    @Test
    void anApprovalIsOfTheReviewedContentAndChangedCodeIsRefusedBeforeItRuns() throws Exception {
        Set<String> approval = reviewed();
        installSteps("touch changed-steps-ran");
        String now = reviewed().iterator().next();
        RecipeSetup setup = new RecipeSetup(approval, Optional.empty(), children);

        assertThatThrownBy(() -> setup.beforeInstall(app, CiKeys.defaults())).isInstanceOf(IllegalStateException.class)
                .hasMessage("demo: its own CI code (compose.ccci.yml and install_steps.sh) is " + now + ", not the content"
                        + " this host approved (" + approval.iterator().next() + "): review it and approve it with"
                        + " -Dccci.approved-recipes=demo@" + now + ", or take demo off the approved list to run it without.");
        assertThat(app.recipeDir().resolve("changed-steps-ran")).doesNotExist();
        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:compose.smtp.yml");
    }

    /** The app's values reach the approved steps, but none that would steer the programs the script runs. */
    @Test
    void theApprovedStepsGetTheAppsValuesButNoneThatSteerTheirPrograms() throws Exception {
        Files.writeString(app.envFile(), "TYPE=demo\nDOCKER_HOST=tcp://socket-proxy:2375\nLD_PRELOAD=/nonexistent.so\nDB=db\n");
        installSteps("echo \"${DOCKER_HOST-unset} ${LD_PRELOAD-unset} $DB\" > seen");
        new RecipeSetup(reviewed(), Optional.empty(), children).beforeInstall(app, CiKeys.defaults());

        assertThat(app.recipeDir().resolve("seen")).content().isEqualTo("unset unset db\n");
    }

    @Test
    void installStepsRunWithErrexitAndAFailureIsOneIOExceptionNamingTheScript() throws Exception {
        installSteps("echo before", "false", "touch after-false");
        RecipeSetup setup = new RecipeSetup(reviewed(), Optional.empty(), children);

        assertThatThrownBy(() -> setup.beforeInstall(app, CiKeys.defaults()))
                .isExactlyInstanceOf(IOException.class).hasNoCause()
                .hasMessage("install_steps.sh of demo exited 1: fix the script (its output is above); the app was not deployed.");
        assertThat(app.recipeDir().resolve("after-false")).doesNotExist();
        assertThat(setup.used()).doesNotContainKey(RecipeSetup.INSTALL_STEPS);
    }

    @Test
    void installStepsRunWithNounsetSoAnUnsetVariableFailsThem() throws Exception {
        installSteps("echo \"$CCCI_NOT_SET_ANYWHERE\"", "touch after-unset");
        RecipeSetup setup = new RecipeSetup(reviewed(), Optional.empty(), children);

        assertThatThrownBy(() -> setup.beforeInstall(app, CiKeys.defaults())).isExactlyInstanceOf(IOException.class)
                .hasMessageStartingWith("install_steps.sh of demo exited ").hasMessageContaining("fix the script");
        assertThat(app.recipeDir().resolve("after-unset")).doesNotExist();
    }

    @Test
    void theCustomizationsOverlayIsWrittenIntoTheTreeAndAppendedForEveryRecipe() throws Exception {
        RecipeSetup setup = new RecipeSetup(Set.of(), Optional.of(new Overlay()), children);

        setup.applyOverlays(app);

        assertThat(app.recipeDir().resolve(RecipeSetup.CUSTOMIZATION_OVERLAY)).content().isEqualTo(OVERLAY);
        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:compose.smtp.yml:.ccci/compose.customization.yml");
        assertThat(setup.used()).containsEntry("compose overlay of Overlay", "applied")
                .containsEntry(RecipeSetup.RECIPE_OVERLAY, IGNORED);
    }

    @Test
    void applyingTheOverlaysTwiceChangesNothingTheSecondTime() throws Exception {
        RecipeSetup setup = new RecipeSetup(reviewed(), Optional.of(new Overlay()), children);

        setup.applyOverlays(app);
        String once = Files.readString(app.envFile());
        setup.applyOverlays(app);

        assertThat(app.envFile()).content().isEqualTo(once);
        assertThat(env()).containsEntry("COMPOSE_FILE",
                "compose.yml:compose.smtp.yml:compose.ccci.yml:.ccci/compose.customization.yml");
        assertThat(once.lines().filter(l -> l.startsWith("COMPOSE_FILE="))).hasSize(1);
    }

    @Test
    void beforeTheUpgradeTheNewTreesFilesDecideAndUpgradeExtraEnvIsSet() throws Exception {
        RecipeSetup setup = new RecipeSetup(reviewed(), Optional.empty(), children);
        setup.applyOverlays(app);
        Files.delete(app.recipeDir().resolve(RecipeSetup.RECIPE_OVERLAY));

        setup.beforeUpgrade(app, keys(Map.of("UPGRADE_EXTRA_ENV", Map.of("NEW_FLAG", "1"))));

        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:compose.smtp.yml").containsEntry("NEW_FLAG", "1");
        assertThat(app.recipeDir().resolve("install-steps-ran")).doesNotExist();
    }

    /**
     * For a driver that deploys the recipe's files itself (abra): ccci's defaults are the last overlay
     * of COMPOSE_FILE (limits for the services that set none, a size for an unsized tmpfs, the host's
     * log rotation, a recipe's larger one lowered), and what the CLI resolves with it has them.
     */
    @Test
    void theDefaultLimitsAreTheLastOverlayForADriverThatDeploysTheFilesItself() throws Exception {
        Files.writeString(app.recipeDir().resolve("compose.yml"), "version: \"3.9\"\nservices:\n  app:\n    image: nginx:alpine\n"
                + "    volumes:\n      - {type: tmpfs, target: /cache}\n      - {type: volume, source: data, target: /data}\n"
                + "    logging: {driver: json-file, options: {max-size: 1g, compress: 'true'}}\n  db:\n"
                + "    image: nginx:alpine\n    deploy:\n      resources:\n        limits: {memory: 64M}\nvolumes:\n  data:\n");
        EnvFile.read(app.envFile()).set("COMPOSE_FILE", "compose.yml").write(app.envFile());
        DeployPolicy policy = new DeployPolicy(DeployAllowance.NONE, children);

        RecipeSetup.applyLimits(app, policy.limitsOverlay(app, ComposeConfig.of(app, children)));
        RecipeSetup.applyLimits(app, policy.limitsOverlay(app, ComposeConfig.of(app, children))); // again: the overlay is there once

        assertThat(env()).containsEntry("COMPOSE_FILE", "compose.yml:" + RecipeSetup.LIMITS_OVERLAY);
        com.fasterxml.jackson.databind.JsonNode resolved = ComposeConfig.of(app, children).tree();
        assertThat(resolved.at("/services/app/deploy/resources/limits/memory").asText()).isEqualTo(Long.toString(1L << 30));
        assertThat(resolved.at("/services/app/deploy/resources/limits/pids").asLong()).isEqualTo(1024);
        assertThat(resolved.at("/services/db/deploy/resources/limits/memory").asText()).isEqualTo(Long.toString(64L << 20));
        assertThat(resolved.at("/services/db/deploy/resources/limits/pids").asLong()).isEqualTo(1024);
        assertThat(resolved.at("/services/app/logging/options/max-size").asText()).isEqualTo("10m");
        assertThat(resolved.at("/services/app/logging/options/max-file").asText()).isEqualTo("3");
        assertThat(resolved.at("/services/app/logging/options/compress").asText()).isEqualTo("true");
        assertThat(resolved.at("/services/db/logging/driver").asText()).isEqualTo("json-file");
        assertThat(resolved.at("/services/db/logging/options/max-size").asText()).isEqualTo("10m");
        assertThat(resolved.at("/services/app/volumes")).hasSize(2);
        assertThat(resolved.at("/services/app/volumes/0/tmpfs/size").asLong()).isEqualTo(256L << 20);
        assertThat(resolved.at("/services/app/volumes/1/source").asText()).isEqualTo("data");
    }
}
