package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.engine;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;

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
 * A rerun runs nothing: Surefire's {@code rerunFailingTestsCount} executes the failed checks again in the
 * same JVM, which would run the recipe, and deploy its app, again over the first run's folder (ccci tries
 * a failed check again on the live app itself). Here, as a rerun does, the real engine and lifecycle
 * execute one command twice in this JVM (its LINT tier, which deploys nothing): the second is discovered
 * empty, so it starts nothing, fails nothing, and leaves the first run's folder as it was.
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
    void aSecondExecutionOfACommandInOneJvmRunsNothing() throws Exception {
        EngineExecutionResults first = lintOfCustomHtml();
        first.testEvents().assertStatistics(stats -> stats.failed(0));
        assertThat(first.testEvents().started().count()).isPositive();
        Path results = sandbox.resolve("runs").resolve(RUN_ID).resolve("results.json");
        FileTime written = Files.getLastModifiedTime(results);
        String content = Files.readString(results);

        EngineExecutionResults again = lintOfCustomHtml();

        again.allEvents().assertThatEvents().haveExactly(1, event(engine(), finishedSuccessfully()));
        assertThat(again.allEvents().failed().count()).as("the rerun fails nothing").isZero();
        assertThat(again.containerEvents().started().count()).as("no run of the rerun started, only the engine").isOne();
        assertThat(again.testEvents().started().count()).as("no check of the rerun started").isZero();
        assertThat(Files.getLastModifiedTime(results)).isEqualTo(written);
        assertThat(Files.readString(results)).isEqualTo(content);
    }
}
