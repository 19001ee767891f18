package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.engine;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A rerun is refused: Surefire's {@code rerunFailingTestsCount} executes the failed checks again in the
 * same JVM, which would run the recipe, and deploy its app, again over the first run's folder. Here, as
 * a rerun does, the real engine and lifecycle execute one command twice in this JVM (its LINT tier, which
 * deploys nothing): the second is refused in one sentence before it runs anything.
 */
@RealEngine
class RerunRefusedTest {

    private static final String RUN_ID = "rerun-refused";

    @TempDir
    Path sandbox;

    private EngineExecutionResults lintOfCustomHtml() {
        return EngineTestKit.engine("ccci")
                .selectors(selectUniqueId("[engine:ccci]/[recipe:custom-html]/[tier:lint]"))
                .configurationParameter("ccci.recipes", MavenRun.ROOT.resolve("recipe-suites/recipes").toString())
                .configurationParameter("ccci.run-id", RUN_ID)
                .configurationParameter("ccci.runs-dir", sandbox.resolve("runs").toString())
                .configurationParameter("ccci.abra-dir", sandbox.resolve("abra").toString())
                .execute();
    }

    @Test
    void aSecondExecutionOfACommandInOneJvmIsRefusedBeforeItRunsAnything() throws Exception {
        EngineExecutionResults first = lintOfCustomHtml();
        first.testEvents().assertStatistics(stats -> stats.failed(0));
        assertThat(first.testEvents().started().count()).isPositive();
        Path results = sandbox.resolve("runs").resolve(RUN_ID).resolve("results.json");
        FileTime written = Files.getLastModifiedTime(results);
        String content = Files.readString(results);

        EngineExecutionResults again = lintOfCustomHtml();

        again.allEvents().assertThatEvents().haveExactly(1, event(engine(), finishedWithFailure(message(m -> m.startsWith(
                "command " + RUN_ID + " already ran in this JVM: ccci never runs a command twice")))));
        assertThat(again.testEvents().started().count()).as("no check of the rerun started").isZero();
        assertThat(Files.getLastModifiedTime(results)).isEqualTo(written);
        assertThat(Files.readString(results)).isEqualTo(content);
    }
}
