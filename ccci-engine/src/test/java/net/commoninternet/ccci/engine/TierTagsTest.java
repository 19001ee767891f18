package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.commoninternet.ccci.engine.config.Constants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Tiers are JUnit tags: each tier's id on its node and its checks, a check's own needs beside it, so
 * {@code -Dgroups}, {@code -DexcludedGroups}, a tag expression or an IDE's tag filter select tiers; and
 * the tiers a filter leaves are the run's stages (JUnit prunes the others before the engine executes):
 * a tier left out loses its operation, not only its checks, and a run of LINT alone deploys nothing.
 */
class TierTagsTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void setUp() throws IOException {
        for (String recipe : List.of("demo", "tagged", "badly-tagged")) {
            Files.createDirectories(recipes.resolve(recipe));
        }
        RecordingLifecycle.EVENTS.clear();
        RecordingLifecycle.DEPLOYED.clear();
    }

    private EngineTestKit.Builder kit(String recipe, String stages, Filter<?>... filters) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.STAGES, stages)
                .filters(filters);
    }

    private static Map<String, List<String>> tagsById(TestDescriptor root) {
        return root.getDescendants().stream().collect(Collectors.toMap(d -> d.getUniqueId().toString()
                .replace("[engine:ccci]/", ""), d -> d.getTags().stream().map(TestTag::getName).sorted().toList(),
                (a, b) -> a, TreeMap::new));
    }

    @Test
    void everyTierAndEveryCheckCarriesItsTiersTagAndACheckItsOwnNeedsBesideIt() {
        var discovered = kit("tagged", "install,custom,lint").discover();

        assertThat(discovered.getDiscoveryIssues()).isEmpty();
        assertThat(tagsById(discovered.getEngineDescriptor())).containsExactly(
                Map.entry("[recipe:tagged]", List.of()),
                Map.entry("[recipe:tagged]/[tier:custom]", List.of("custom")),
                Map.entry("[recipe:tagged]/[tier:custom]/[check:answers]", List.of("custom")),
                Map.entry("[recipe:tagged]/[tier:custom]/[check:clicksThrough]", List.of("custom", "needs-browser", "slow")),
                Map.entry("[recipe:tagged]/[tier:install]", List.of("install")),
                Map.entry("[recipe:tagged]/[tier:install]/[check:fails]", List.of("install")),
                Map.entry("[recipe:tagged]/[tier:install]/[check:pageLooksRight]", List.of("install", "needs-browser")),
                Map.entry("[recipe:tagged]/[tier:install]/[check:passes]", List.of("install")),
                Map.entry("[recipe:tagged]/[tier:lint]", List.of("lint")),
                Map.entry("[recipe:tagged]/[tier:lint]/[check:clean]", List.of("lint")));
    }

    @Test
    void aFilterOfTheLintTagRunsLintAloneAndTheRunDeploysNothing() {
        EngineExecutionResults results = kit("demo", "install,backup,lint", TagFilter.includeTags("lint")).execute();

        assertThat(RecordingLifecycle.EVENTS).containsExactly("setup demo [LINT]", "operate lint",
                "after lint failed: lint operation broke", "teardown demo");
        assertThat(RecordingLifecycle.DEPLOYED).containsExactly(Map.entry("demo", false));
        // the tiers left out are not in the report at all, as ccci.stages leaves them out
        assertThat(results.allEvents().started().stream().map(e -> e.getTestDescriptor().getDisplayName()))
                .doesNotContain("install", "backup", "passes", "verified");
    }

    @Test
    void aTierATagFilterLeavesOutLosesItsOperationNotOnlyItsChecks() {
        kit("demo", "install,backup,lint", TagFilter.excludeTags("install")).execute();

        assertThat(RecordingLifecycle.EVENTS).startsWith("setup demo [BACKUP, LINT]").doesNotContain("operate install");
        assertThat(RecordingLifecycle.DEPLOYED).containsExactly(Map.entry("demo", true));
    }

    @Test
    void aTagExpressionSelectsTiersAsWell() {
        kit("demo", "install,backup,lint", TagFilter.includeTags("install | backup")).execute();

        assertThat(RecordingLifecycle.EVENTS).first().isEqualTo("setup demo [INSTALL, BACKUP]");
    }

    @Test
    void aTierWhoseChecksAFilterAllLeftOutIsPrunedAndATierWithOthersLeftRunsItsOperationForThem() {
        kit("tagged", "install,custom", TagFilter.includeTags("needs-browser")).execute();

        assertThat(RecordingLifecycle.EVENTS).containsExactly("setup tagged [INSTALL, CUSTOM]", "operate install",
                "recipe check pageLooksRight", "after install ok", "operate custom", "functional clicksThrough",
                "after custom ok", "teardown tagged");

        RecordingLifecycle.EVENTS.clear();
        kit("tagged", "install,custom", TagFilter.excludeTags("needs-browser | install")).execute();
        assertThat(RecordingLifecycle.EVENTS).containsExactly("setup tagged [CUSTOM]", "operate custom",
                "functional answers", "after custom ok", "teardown tagged");
    }

    @Test
    void aCheckTagNoFilterCouldReadOrThatNamesATierIsRefusedAtDiscovery() {
        var issues = kit("badly-tagged", "custom").discover().getDiscoveryIssues().stream()
                .filter(i -> i.severity() == DiscoveryIssue.Severity.ERROR).map(DiscoveryIssue::message).toList();

        assertThat(issues).singleElement().asString().contains("clicksThrough has the tag(s) 'needs browser', 'upgrade'")
                .contains("never a tier's");
    }
}
