package net.commoninternet.ccci.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.engine.Anchor;
import net.commoninternet.ccci.engine.CcciTestEngine;
import net.commoninternet.ccci.engine.config.ConfigurationKeys;
import net.commoninternet.ccci.engine.config.Constants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@link SelectionCheck}, which judges {@code -Drecipe} in Maven's JVM before Surefire's fork, says
 * what discovery in the fork would say, sentence for sentence: it may never refuse a selection
 * discovery accepts, nor let through one discovery refuses before reading a recipe's files.
 */
class SelectionCheckTest {

    @TempDir
    Path module;
    private Path recipes;

    @BeforeEach
    void recipeFolders() throws IOException {
        recipes = module.resolve("recipes");
        Files.createDirectories(recipes.resolve("demo"));
        Files.createDirectories(recipes.resolve("custom-html"));
    }

    /** The discovery issues of severity ERROR for {@code config}, as the engine reports them in the fork. */
    private static List<String> discoveryErrors(Map<String, String> config) {
        EngineTestKit.Builder kit = EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class));
        config.forEach(kit::configurationParameter);
        return List.copyOf(new LinkedHashSet<>(kit.discover().getDiscoveryIssues().stream()
                .filter(i -> i.severity() == DiscoveryIssue.Severity.ERROR).map(DiscoveryIssue::message).toList()));
    }

    private List<String> checked(Map<String, String> config) {
        return SelectionCheck.problems(SelectionCheck.parameters(key -> Optional.ofNullable(config.get(key)), config::keySet),
                module);
    }

    private Map<String, String> selecting(String recipe, String... keyValues) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put(Constants.RECIPES, recipes.toString());
        config.put(Constants.RECIPE_SHORT, recipe);
        for (int i = 0; i < keyValues.length; i += 2) {
            config.put(keyValues[i], keyValues[i + 1]);
        }
        return config;
    }

    @Test
    void theCheckSaysWhatDiscoverySaysForEverySelection() {
        List<Map<String, String>> selections = List.of(
                selecting("demo"), selecting("demo,custom-html"), selecting("all"),
                selecting("nosuch"), selecting("custom-htm"), selecting("../../etc"), selecting("Demo"),
                selecting("demo,nosuch"), selecting("all,demo"), selecting(" "),
                selecting("demo", Constants.PR, "-3"), selecting("demo", Constants.PR, "x"),
                selecting("demo", Constants.REF, "--upload-pack=x"), selecting("demo", Constants.DEADLINE, "0"),
                selecting("demo", Constants.RECIPES, module.resolve("none").toString()),
                selecting("all", Constants.RECIPES, module.resolve("none").toString()),
                selecting("demo,custom-html", Constants.PARALLEL_PARALLELISM, "many"),
                selecting("demo,custom-html,nosuch", Constants.PARALLEL_PARALLELISM, "0"),
                selecting("demo,nosuch", Constants.PARALLEL_PARALLELISM, "many"),
                selecting("demo", Constants.DRIVER, "kubernetes"),
                selecting("demo", "ccci.paralellism", "8"), selecting("nosuch", "ccci.upgrade-from", "last:3"),
                selecting("demo", "ccci.parallel.config.strategy", "fixed", "junit.jupiter.x", "y"),
                selecting("demo", ConfigurationKeys.SUREFIRE_RERUN, "2"),
                selecting("demo", Constants.CHECK_ATTEMPTS, "0"), selecting("demo", Constants.ALLOW_FLAKY, "maybe"),
                selecting("demo", Constants.CHECK_BACKOFF, "soon"));
        int refused = 0;
        for (Map<String, String> selection : selections) {
            List<String> discovery = discoveryErrors(selection);
            assertThat(checked(selection)).as("%s", selection).isEqualTo(discovery);
            refused += discovery.isEmpty() ? 0 : 1;
        }
        // the comparison means something only if most selections are refused, and the valid ones pass
        assertThat(refused).isEqualTo(selections.size() - 4);
        assertThat(checked(selecting("custom-htm"))).singleElement().asString()
                .startsWith("recipe 'custom-htm' not found in " + recipes).contains("custom-html");
    }

    @Test
    void aRelativeRecipesFolderIsReadInTheForksWorkingDirectoryNotMavens() {
        Map<String, String> relative = new LinkedHashMap<>(Map.of(Constants.RECIPE_SHORT, "demo", Constants.RECIPES, "recipes"));
        assertThat(checked(relative)).isEmpty();
        // no recipes setting: the module's own recipes folder, as recipe-suites gives its fork
        assertThat(checked(Map.of(Constants.RECIPE_SHORT, "demo"))).isEmpty();
        relative.put(Constants.RECIPES, "elsewhere");
        assertThat(checked(relative)).singleElement().asString().contains(module.resolve("elsewhere").toString());
    }

    @Test
    void aSettingOnlyMavensOwnJvmWasGivenIsNotJudgedSinceTheForkNeverGetsIt() {
        java.util.Properties system = new java.util.Properties();
        system.setProperty(Constants.PR, "x");
        system.setProperty(Constants.REF, "main");
        system.setProperty(Constants.RECIPE_SHORT, "demo");
        java.util.Properties defaults = new java.util.Properties();
        defaults.setProperty(Constants.REF, "from-the-file");
        // MAVEN_OPTS=-Dccci.pr=x -Dccci.ref: Maven's JVM has them, Surefire's fork does not
        var view = SelectionCheck.forksView(new java.util.Properties(), system,
                List.of("-Xmx1g", "-D" + Constants.PR + "=x", "-D" + Constants.REF + "=main"), defaults);
        assertThat(view.get(Constants.PR)).isEmpty();
        assertThat(view.get(Constants.REF)).contains("from-the-file");
        assertThat(view.get(Constants.RECIPE_SHORT)).contains("demo");
        assertThat(view.keySet()).containsExactlyInAnyOrder(Constants.REF, Constants.RECIPE_SHORT);
        // the command line's -Dccci.pr=7 replaced MAVEN_OPTS' value: the fork gets 7
        system.setProperty(Constants.PR, "7");
        assertThat(view.get(Constants.PR)).contains("7");
    }

    @Test
    void surefiresConfigurationParametersComeFirstAndTheirKeysAreJudgedToo() {
        java.util.Properties explicit = new java.util.Properties();
        explicit.setProperty(Constants.PR, "5");
        explicit.setProperty("ccci.paralellism", "8");
        java.util.Properties system = new java.util.Properties();
        system.setProperty(Constants.PR, "7");
        system.setProperty(Constants.RECIPE_SHORT, "demo");
        system.setProperty(Constants.RECIPES, recipes.toString());
        var view = SelectionCheck.forksView(explicit, system, List.of(), new java.util.Properties());
        assertThat(view.get(Constants.PR)).contains("5");
        assertThat(SelectionCheck.problems(view, module)).singleElement().asString()
                .startsWith("ccci.paralellism is not a setting of ccci").endsWith("Did you mean 'ccci.parallel.parallelism'?");
    }

    @Test
    void noRecipeNamedIsNoProblemAndABlankOneIsDiscoverysSentence() {
        assertThat(checked(Map.of())).isEmpty();
        assertThat(checked(Map.of("ccci.paralellism", "8"))).isEmpty();
        assertThat(checked(Map.of(Constants.RECIPE, "")))
                .isEqualTo(discoveryErrors(Map.of(Constants.RECIPE, ""))).singleElement().asString()
                .startsWith("-D" + Constants.RECIPE + "= was given but names no recipe");
    }
}
