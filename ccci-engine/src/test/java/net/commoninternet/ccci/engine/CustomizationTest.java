package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.EventConditions.uniqueIdSubstring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.spi.RunRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class CustomizationTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void recipeFolders() throws IOException {
        Files.createDirectories(recipes.resolve("tuned"));
        Files.createDirectories(recipes.resolve("mistyped"));
        Files.createDirectories(recipes.resolve("unacted"));
        Files.createDirectories(recipes.resolve("depends"));
        RecordingLifecycle.EVENTS.clear();
    }

    private EngineTestKit.Builder kit(String recipe, String stages, DiscoverySelector selector) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selector)
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.STAGES, stages)
                .configurationParameter(Constants.CHECK_ATTEMPTS, "1"); // each check judged once (CheckAttemptsTest tries again)
    }

    @Test
    void recipeAssertionsJoinTheirTierAfterTheGenericChecksAndFunctionalTestsMakeUpCustom() {
        TestDescriptor engine = kit("tuned", "install,custom", selectClass(Anchor.class)).discover().getEngineDescriptor();

        List<String> ids = engine.getDescendants().stream().map(d -> d.getUniqueId().toString()).sorted().collect(Collectors.toList());
        assertThat(ids).contains(
                "[engine:ccci]/[recipe:tuned]/[tier:install]/[check:titleNamesTheDomain]",
                "[engine:ccci]/[recipe:tuned]/[tier:custom]/[check:loginWorks]",
                "[engine:ccci]/[recipe:tuned]/[tier:custom]/[check:searchFindsNothing]");
        TestDescriptor login = engine.getDescendants().stream()
                .filter(d -> d.getUniqueId().toString().endsWith("[check:loginWorks]")).findFirst().orElseThrow();
        assertThat(login.getSource()).get().isInstanceOf(MethodSource.class)
                .satisfies(s -> assertThat(((MethodSource) s).getMethodName()).isEqualTo("loginWorks"));
    }

    @Test
    void recipeChecksRunAgainstTheLiveAppWithTheRecipesKeysAndAreReportedOneByOne() {
        EngineExecutionResults results = kit("tuned", "install,custom", selectClass(Anchor.class)).execute();

        assertThat(RecordingLifecycle.EVENTS).contains("recipe check on tuned.test with /health", "functional loginWorks");
        results.testEvents().assertThatEvents().haveExactly(1,
                event(test("searchFindsNothing"), finishedWithFailure()));
        assertThat(RecordingLifecycle.lastRecord).contains(
                RunRecord.Row.passed(Tier.CUSTOM, "loginWorks"));
    }

    @Test
    void oneFunctionalTestRunsAloneFromItsUniqueId() {
        kit("tuned", "install", selectUniqueId("[engine:ccci]/[recipe:tuned]/[tier:custom]/[check:loginWorks]")).execute();

        assertThat(RecordingLifecycle.EVENTS).containsExactly(
                "setup tuned [CUSTOM]", "operate custom", "functional loginWorks", "after custom ok", "teardown tuned");
    }

    @Test
    void expectedNotApplicableIsAnIntentionalSkipWithItsReason() {
        EngineExecutionResults results = kit("tuned", "install,backup", selectClass(Anchor.class)).execute();

        // The tier gets no checks, so it is a plain test, which Surefire reports as skipped.
        results.testEvents().assertThatEvents().haveExactly(1, event(uniqueIdSubstring("backup"),
                skippedWithReason("intentional skip (EXPECTED_NA): the app keeps no data")));
        assertThat(RecordingLifecycle.EVENTS).doesNotContain("operate backup", "check verified");
    }

    @Test
    void aMistypedKeyAValueOfTheWrongShapeAndAMethodOfTheWrongShapeEachGetOneSentence() {
        EngineDiscoveryResults results = kit("mistyped", "install", selectClass(Anchor.class)).discover();

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(results.getDiscoveryIssues()).extracting(DiscoveryIssue::message).satisfiesExactlyInAnyOrder(
                m -> assertThat(m).startsWith("unknown CI key 'HEALT_PATH' in the customization of mistyped")
                        .endsWith("Did you mean 'HEALTH_PATH'?"),
                m -> assertThat(m).isEqualTo("CI key DEPLOY_TIMEOUT of mistyped must be a positive number of seconds, not ten minutes."),
                m -> assertThat(m).contains("takesNothing must be an instance method taking one LiveApp parameter"));
        assertThat(results.getDiscoveryIssues()).allMatch(i -> i.severity() == DiscoveryIssue.Severity.ERROR);
    }

    @Test
    void keysThisCcciActsOnAreNoWarningAndTheRunIsDiscoveredAndRun() {
        EngineDiscoveryResults discovered = kit("unacted", "install", selectClass(Anchor.class)).discover();

        assertThat(ids(discovered.getEngineDescriptor())).contains("[engine:ccci]/[recipe:unacted]/[tier:install]");
        // SCREENSHOT (the run's pictures) and WARM_CANONICAL (by runs that depend on this recipe) are acted on
        assertThat(discovered.getDiscoveryIssues()).isEmpty();

        kit("unacted", "install", selectClass(Anchor.class)).execute();
        assertThat(RecordingLifecycle.EVENTS).startsWith("setup unacted [INSTALL]", "operate install");
    }

    @Test
    void aDependencyThatIsNoRecipeIsADiscoveryErrorNamingTheRecipesThereAre() {
        EngineDiscoveryResults discovered = kit("depends", "install", selectClass(Anchor.class)).discover();

        assertThat(discovered.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(discovered.getDiscoveryIssues()).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.message()).isEqualTo("CI key DEPS of depends names 'mariadb', which is not a recipe in "
                    + recipes + ": available are depends, mistyped, tuned, unacted.");
        });
    }

    @Test
    void aDependencyThatIsARecipeIsAccepted() throws Exception {
        Files.createDirectories(recipes.resolve("mariadb"));

        EngineDiscoveryResults discovered = kit("depends", "install", selectClass(Anchor.class)).discover();

        assertThat(discovered.getDiscoveryIssues()).isEmpty();
        assertThat(discovered.getEngineDescriptor().getChildren()).hasSize(1);
    }

    private static List<String> ids(TestDescriptor root) {
        return root.getDescendants().stream().map(d -> d.getUniqueId().toString()).sorted().collect(Collectors.toList());
    }
}
