package net.commoninternet.ccci.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.Anchor;
import net.commoninternet.ccci.engine.CcciTestEngine;
import net.commoninternet.ccci.engine.RecordingLifecycle;
import net.commoninternet.ccci.engine.RecordingTiers;
import net.commoninternet.ccci.engine.config.Constants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** Files attached through the run context reach the execution listener on the node that attached them. */
class ReportAttachmentsTest {

    private static final String RECIPE = "[engine:ccci]/[recipe:demo]";

    @TempDir
    Path recipes;

    @TempDir
    Path outputRoot;

    @TempDir
    Path files;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(recipes.resolve("demo"));
        RecordingLifecycle.EVENTS.clear();
    }

    @AfterEach
    void forgetFiles() {
        RecordingTiers.Attacher.FILES.clear();
        RecordingLifecycle.attachAtEnd = null;
    }

    private List<Event> execute(String stages) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, "demo")
                .configurationParameter(Constants.STAGES, stages)
                .outputDirectoryCreator(new UnderRoot(outputRoot))
                .execute().allEvents().list();
    }

    @Test
    void whatAnAfterTierCallbackAttachesIsPublishedOnThatTierWhileItRunsFailedOrNot() throws IOException {
        RecordingTiers.Attacher.FILES.put(Tier.INSTALL, Files.writeString(files.resolve("app.log"), "install log\n"));
        RecordingTiers.Attacher.FILES.put(Tier.LINT, Files.writeString(files.resolve("lint.log"), "lint log\n"));

        List<Event> events = execute("install,lint");

        List<Event> published = events.stream().filter(e -> e.getType() == EventType.FILE_ENTRY_PUBLISHED).toList();
        assertThat(published).extracting(e -> e.getTestDescriptor().getUniqueId().toString())
                .containsExactly(RECIPE + "/[tier:install]", RECIPE + "/[tier:lint]");
        assertPublishedWhileRunning(events, published.get(0));
        assertPublishedWhileRunning(events, published.get(1));

        FileEntry install = published.get(0).getRequiredPayload(FileEntry.class);
        assertThat(install.getMediaType()).contains("text/plain");
        assertThat(install.getPath()).startsWith(outputRoot).hasFileName("app.log").hasContent("install log");
    }

    @Test
    void whatTheLifecycleAttachesAfterTheTiersIsPublishedOnTheRecipe() throws IOException {
        RecordingLifecycle.attachAtEnd = Files.writeString(files.resolve("results.json"), "{}");

        List<Event> events = execute("install");

        List<Event> published = events.stream().filter(e -> e.getType() == EventType.FILE_ENTRY_PUBLISHED).toList();
        assertThat(published).extracting(e -> e.getTestDescriptor().getUniqueId().toString()).containsExactly(RECIPE);
        assertPublishedWhileRunning(events, published.get(0));
        assertThat(published.get(0).getRequiredPayload(FileEntry.class).getMediaType()).contains("application/json");
    }

    /** JUnit's contract: an entry is published between the node's start and its finish. */
    private static void assertPublishedWhileRunning(List<Event> events, Event entry) {
        UniqueId node = entry.getTestDescriptor().getUniqueId();
        int at = events.indexOf(entry);
        int started = indexOf(events, EventType.STARTED, node);
        int finished = indexOf(events, EventType.FINISHED, node);
        assertThat(started).isNotNegative().isLessThan(at);
        assertThat(finished).isGreaterThan(at);
    }

    private static int indexOf(List<Event> events, EventType type, UniqueId node) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).getType() == type && events.get(i).getTestDescriptor().getUniqueId().equals(node)) {
                return i;
            }
        }
        return -1;
    }

    /** One directory per node under a root, as the launcher's own creator does. */
    private record UnderRoot(Path root) implements OutputDirectoryCreator {
        @Override
        public Path getRootDirectory() {
            return root;
        }

        @Override
        public Path createOutputDirectory(TestDescriptor node) throws IOException {
            Path dir = root;
            for (UniqueId.Segment segment : node.getUniqueId().getSegments()) {
                dir = dir.resolve(segment.getValue());
            }
            return Files.createDirectories(dir);
        }
    }
}
