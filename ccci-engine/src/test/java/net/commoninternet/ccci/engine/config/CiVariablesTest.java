package net.commoninternet.ccci.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The subject of a run (run id, pull request, ref) falls back to what the CI host tells the step, by
 * Drone's names and by Woodpecker's: a key given wins, then Drone's variable, then Woodpecker's.
 */
class CiVariablesTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void recipeFolder() throws IOException {
        Files.createDirectories(recipes.resolve("custom-html"));
    }

    private record Parameters(Map<String, String> values) implements ConfigurationParameters {
        @Override
        public Optional<String> get(String key) {
            return Optional.ofNullable(values.get(key));
        }

        @Override
        public Optional<Boolean> getBoolean(String key) {
            return get(key).map(Boolean::parseBoolean);
        }

        @Override
        public Set<String> keySet() {
            return values.keySet();
        }
    }

    private SettingsReader reader(Map<String, String> env, String... keyValues) {
        Map<String, String> config = new HashMap<>(Map.of(Constants.RECIPES, recipes.toString()));
        for (int i = 0; i < keyValues.length; i += 2) {
            config.put(keyValues[i], keyValues[i + 1]);
        }
        return new SettingsReader(new Parameters(config), env, 4242, Set.of("swarm"));
    }

    private RunSettings.Subject subject(Map<String, String> env, String... keyValues) {
        SettingsReader reader = reader(env, keyValues);
        return reader.read("custom-html").orElseThrow(() -> new AssertionError(reader.problems())).subject();
    }

    @Test
    void woodpeckersPipelineNumberIsTheRunIdWhenNoDroneVariableIsSet() {
        assertThat(subject(Map.of("CI_PIPELINE_NUMBER", "77")).runId()).isEqualTo("77");
        // a variable set but blank is no variable
        assertThat(subject(Map.of("DRONE_BUILD_NUMBER", " ", "CI_PIPELINE_NUMBER", "77")).runId()).isEqualTo("77");
        assertThat(subject(Map.of()).runId()).isEqualTo("manual-4242");
    }

    @Test
    void aKeyGivenWinsThenDronesVariableThenWoodpeckers() {
        Map<String, String> both = Map.of("DRONE_BUILD_NUMBER", "12", "CI_PIPELINE_NUMBER", "77",
                "DRONE_PULL_REQUEST", "5", "CI_COMMIT_PULL_REQUEST", "6");
        assertThat(subject(both).runId()).isEqualTo("12");
        assertThat(subject(both).pr()).isEqualTo(5);
        assertThat(subject(both, Constants.RUN_ID, "given", Constants.PR, "9").runId()).isEqualTo("given");
        assertThat(subject(both, Constants.RUN_ID, "given", Constants.PR, "9").pr()).isEqualTo(9);
    }

    @Test
    void thePullRequestFallsBackToEitherCisAndABadOneIsOneSentenceNamingTheVariable() {
        assertThat(subject(Map.of("CI_COMMIT_PULL_REQUEST", "31")).pr()).isEqualTo(31);
        assertThat(subject(Map.of("DRONE_PULL_REQUEST", "30")).pr()).isEqualTo(30);
        assertThat(subject(Map.of()).pr()).isZero();

        SettingsReader bad = reader(Map.of("CI_COMMIT_PULL_REQUEST", "abc"));
        assertThat(bad.read("custom-html")).isEmpty();
        assertThat(bad.problems()).singleElement().asString()
                .startsWith("CI_COMMIT_PULL_REQUEST='abc' is not a pull request number");
    }

    @Test
    void theCommitBuiltIsTheRefUnderTestOnlyInTheRecipesOwnRepository() {
        String sha = "0123456789abcdef0123456789abcdef01234567";
        assertThat(subject(Map.of("CI_COMMIT_SHA", sha, "CI_REPO_NAME", "custom-html")).ref()).isEqualTo(sha);
        assertThat(subject(Map.of("DRONE_COMMIT", sha, "DRONE_REPO_NAME", "custom-html")).ref()).isEqualTo(sha);
        // a pipeline of ccci's own repository builds ccci's commit, which the recipe does not have
        assertThat(subject(Map.of("CI_COMMIT_SHA", sha, "CI_REPO_NAME", "ccci")).ref()).isNull();
        assertThat(subject(Map.of("CI_COMMIT_SHA", sha, "CI_REPO_NAME", "custom-html"), Constants.REF, "main").ref())
                .isEqualTo("main");
    }
}
