package net.commoninternet.ccci.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import net.commoninternet.ccci.engine.Anchor;
import net.commoninternet.ccci.engine.CcciTestEngine;
import net.commoninternet.ccci.engine.RecordingLifecycle;
import net.commoninternet.ccci.engine.config.Constants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The command's verdict for Maven's build result, as the engine writes it into the reporting output
 * folder once its runs have ended: a failed check, a tier whose operation threw (a class-level
 * failure, which Surefire may count as a flake) and a passing run each read as ccci judged them, and
 * a verdict older than the reading JVM is an earlier build's.
 */
class CommandVerdictTest {

    @TempDir
    Path recipes;

    @TempDir
    Path outputRoot;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(recipes.resolve("demo"));
        RecordingLifecycle.EVENTS.clear();
    }

    private String verdictOf(String stages) throws IOException {
        EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, "demo")
                .configurationParameter(Constants.RUN_ID, "v1")
                .configurationParameter(Constants.STAGES, stages)
                .outputDirectoryCreator(new Root(outputRoot))
                .execute();
        return Files.readString(outputRoot.resolve(CommandVerdict.FILE), StandardCharsets.UTF_8);
    }

    @Test
    void aFailedCheckFailsTheCommand() throws IOException {
        assertThat(verdictOf("install")).isEqualTo("failed v1\nruns 1\n");
        assertThat(CommandVerdict.failedIn(outputRoot, 0)).containsExactly("v1");
    }

    @Test
    void aTierWhoseOperationThrewFailsTheCommandThoughNoCheckFailed() throws IOException {
        assertThat(verdictOf("lint")).isEqualTo("failed v1\nruns 1\n");
    }

    @Test
    void aRunWhoseChecksAllPassedPassesTheCommand() throws IOException {
        assertThat(verdictOf("backup")).isEqualTo("passed\nruns 1\n");
        assertThat(CommandVerdict.failedIn(outputRoot, 0)).isEmpty();
    }

    @Test
    void aVerdictWrittenBeforeTheReadingJvmStartedIsAnEarlierBuildsAndIsNotRead() throws IOException {
        verdictOf("install");
        Path file = outputRoot.resolve(CommandVerdict.FILE);
        long written = Files.getLastModifiedTime(file).toMillis();
        assertThat(CommandVerdict.failedIn(outputRoot, written)).containsExactly("v1");
        Files.setLastModifiedTime(file, FileTime.fromMillis(written - 60_000));
        assertThat(CommandVerdict.failedIn(outputRoot, written)).isEmpty();
        assertThat(CommandVerdict.failedIn(outputRoot.resolve("none"), 0)).isEqualTo(List.of());
    }

    @Test
    void aFailedRunFailsTheBuildInOneSentenceUnlessTheBuildIsToldToIgnoreTestFailures() {
        assertThat(CommandVerdict.judge(List.of(), false)).isEmpty();
        CommandVerdict.Verdict failing = CommandVerdict.judge(List.of("v1", "v2"), false).orElseThrow();
        assertThat(failing.failsTheBuild()).isTrue();
        assertThat(failing.line()).startsWith("[ERROR] ccci: runs v1, v2 failed (their RUN SUMMARYs say why)");
        CommandVerdict.Verdict ignored = CommandVerdict.judge(List.of("v1"), true).orElseThrow();
        assertThat(ignored.failsTheBuild()).isFalse();
        assertThat(ignored.line()).startsWith("[WARNING] ccci: run v1 failed (its RUN SUMMARY says why)")
                .contains("-Dmaven.test.failure.ignore=true");
    }

    private record Root(Path root) implements OutputDirectoryCreator {
        @Override
        public Path getRootDirectory() {
            return root;
        }

        @Override
        public Path createOutputDirectory(TestDescriptor node) throws IOException {
            return Files.createDirectories(root.resolve(node.getUniqueId().getLastSegment().getValue()));
        }
    }
}
