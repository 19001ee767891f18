package net.commoninternet.ccci.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.commoninternet.ccci.engine.Anchor;
import net.commoninternet.ccci.engine.CcciTestEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A key of ccci's namespace that ccci does not know is refused at discovery, in one sentence with the
 * closest key, as a misspelt recipe is; ccci's own keys (read off {@link Constants}), the keys it passes
 * on under a prefix, its build's keys and every other tool's keys are not.
 */
class ConfigurationKeysTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void recipeFolder() throws IOException {
        Files.createDirectories(recipes.resolve("demo"));
    }

    /** The discovery errors of a run of demo (or of {@code selector}) with {@code keyValues}. */
    private List<String> errors(DiscoverySelector selector, String... keyValues) {
        EngineTestKit.Builder kit = EngineTestKit.engine(CcciTestEngine.ID).selectors(selector)
                .configurationParameter(Constants.RECIPES, recipes.toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            kit.configurationParameter(keyValues[i], keyValues[i + 1]);
        }
        EngineDiscoveryResults results = kit.discover();
        return results.getDiscoveryIssues().stream().filter(i -> i.severity() == DiscoveryIssue.Severity.ERROR)
                .map(DiscoveryIssue::message).toList();
    }

    private List<String> errorsOfDemo(String... keyValues) {
        String[] all = new String[keyValues.length + 2];
        all[0] = Constants.RECIPE_SHORT;
        all[1] = "demo";
        System.arraycopy(keyValues, 0, all, 2, keyValues.length);
        return errors(selectClass(Anchor.class), all);
    }

    @Test
    void aMisspeltKeyIsRefusedInOneSentenceNamingTheKeyItMeant() {
        assertThat(errorsOfDemo("ccci.paralellism", "8")).singleElement().asString()
                .startsWith("ccci.paralellism is not a setting of ccci, so it would be ignored")
                .endsWith("Did you mean 'ccci.parallel.parallelism'?");
        assertThat(errorsOfDemo("ccci.stage", "lint")).singleElement().asString().endsWith("Did you mean 'ccci.stages'?");
        // nothing close: the sentence alone
        assertThat(errorsOfDemo("ccci.rollback-to", "last:3")).singleElement().asString()
                .startsWith("ccci.rollback-to is not a setting of ccci").doesNotContain("Did you mean");
        // each unknown key its own sentence, in key order
        assertThat(errorsOfDemo("ccci.zz", "1", "ccci.aa", "2")).hasSize(2).first().asString().startsWith("ccci.aa ");
    }

    @Test
    void ccciOwnKeysItsPrefixedKeysItsBuildsKeysAndOtherToolsKeysAreLeftAlone() {
        assertThat(errorsOfDemo(Constants.PARALLEL_PARALLELISM, "2", Constants.LEASE_TTL, "90",
                Constants.PARALLEL_CONFIG_PREFIX + "executor-service", "worker_thread_pool",
                Constants.PROJECT_BUILD_PREFIX + "fork", "1", Constants.SKIP_PROJECT_TESTS, "true",
                "junit.jupiter.execution.parallel.enabled", "true", "surefire.reportsDirectory", "x", "cccix.key", "y",
                "recipe.other", "z", Constants.UPGRADE_FROM, "last:3")).isEmpty();
    }

    @Test
    void everyKeyConstantsDocumentsIsKnownAndNothingElseOfIt() {
        ConfigurationKeys known = ConfigurationKeys.known();
        assertThat(known.keys()).contains(Constants.RECIPE, Constants.PR, Constants.REF, Constants.RUN_ID, Constants.STAGES,
                Constants.RECIPES, Constants.DRIVER, Constants.DEADLINE, Constants.HOST_UNCONFINED, Constants.LEASE_HEARTBEAT,
                Constants.PARALLEL_ENABLED, Constants.PARALLEL_PARALLELISM, Constants.PROBE_IMAGE, Constants.LOG_FILE)
                // values that are no keys: a default, the short form, a value of a key
                .doesNotContain(Constants.DEFAULT_DOMAIN_SUFFIX, Constants.DEFAULT_PROBE_IMAGE, Constants.RECIPE_SHORT,
                        Constants.ALL_RECIPES, Constants.PARALLEL_CONFIG_PREFIX);
        assertThat(known.knows(Constants.PARALLEL_CONFIG_PREFIX + "fixed.parallelism")).isTrue();
        assertThat(known.knows("ccci.parallel.configx")).isFalse();
    }

    /** A class of constants as Constants will be once a key is added: read off it, not off a second list. */
    static final class Later {
        public static final String ADDED = "ccci.added-later";
        public static final String ADDED_PREFIX = "ccci.passed-on.";
        public static final String A_DEFAULT = "ccci.local/busybox:1";
        public static final String OTHER = "junit.x";
        public static final int NOT_A_STRING = 4;
        static final String NOT_PUBLIC = "ccci.hidden";
    }

    @Test
    void aKeyAddedToTheConstantsIsKnownWithoutASecondList() {
        assertThat(ConfigurationKeys.declared(Later.class)).containsExactlyInAnyOrder("ccci.added-later", "ccci.passed-on.");
    }

    @Test
    void noRecipeNamedNoRunNoRefusalButARunSelectedByItsUniqueIdIsJudged() {
        assertThat(errors(selectClass(Anchor.class), "ccci.paralellism", "8")).isEmpty();
        assertThat(errors(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:install]"), "ccci.paralellism", "8"))
                .singleElement().asString().startsWith("ccci.paralellism is not a setting of ccci");
    }

    @Test
    void surefiresRerunIsRefusedSinceEveryRerunWouldDeployTheAppAgain() {
        assertThat(errorsOfDemo(ConfigurationKeys.SUREFIRE_RERUN, "2")).singleElement().asString()
                .startsWith("surefire.rerunFailingTestsCount=2 would rerun a failed check by running its recipe again");
        assertThat(errorsOfDemo(ConfigurationKeys.SUREFIRE_RERUN, "0")).isEmpty();
    }
}
