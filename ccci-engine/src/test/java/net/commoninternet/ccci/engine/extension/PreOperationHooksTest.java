package net.commoninternet.ccci.engine.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.Anchor;
import net.commoninternet.ccci.engine.CcciTestEngine;
import net.commoninternet.ccci.engine.RecordingLifecycle;
import net.commoninternet.ccci.engine.TestCustomizations;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.spi.RunRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A recipe's {@code @BeforeOperation} hooks, run by the engine right before their tier's operation. */
class PreOperationHooksTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void recipeFolders() throws IOException {
        for (String recipe : new String[] {"hooked", "hookfails", "badhook"}) {
            Files.createDirectories(recipes.resolve(recipe));
        }
        RecordingLifecycle.EVENTS.clear();
    }

    private EngineTestKit.Builder kit(String recipe, String stages) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.STAGES, stages);
    }

    @Test
    void aBackupHookRunsOnceRightBeforeTheBackupOperationAndForNoOtherTier() {
        kit("hooked", "install,backup,lint").execute();

        // The install hook is the lifecycle's (before the deploy, no live app yet): the engine
        // must not run it a second time before the install tier's operation.
        assertThat(RecordingLifecycle.EVENTS).containsExactly(
                "setup hooked [INSTALL, BACKUP, LINT]",
                "hook install, live app false",
                "setEnv GREETING=hello before install",
                "operate install", "check passes", "check fails", "after install failed: planted failure",
                "hook backup on hooked.test, live app true",
                "operate backup", "check verified", "check settled", "after backup ok",
                "operate lint", "after lint failed: lint operation broke",
                "teardown hooked");
    }

    @Test
    void aThrowingHookFailsItsTierAndTheOperationAndChecksDoNotRun() {
        EngineExecutionResults results = kit("hookfails", "backup,lint").execute();

        results.containerEvents().assertThatEvents().haveExactly(1, event(container("backup"),
                finishedWithFailure(instanceOf(IllegalStateException.class), message("backup hook broke"))));
        assertThat(RecordingLifecycle.EVENTS).containsExactly(
                "setup hookfails [BACKUP, LINT]",
                "after backup failed: backup hook broke",
                "operate lint", "after lint failed: lint operation broke",
                "teardown hookfails");
        assertThat(RecordingLifecycle.lastRecord).contains(
                RunRecord.Row.failed(Tier.BACKUP, null, "backup hook broke"));
    }

    @Test
    void aHookOfTheWrongShapeIsADiscoveryErrorNamingTheFixAndNothingRuns() {
        EngineDiscoveryResults discovered = kit("badhook", "backup,restore").discover();

        assertThat(discovered.getEngineDescriptor().getChildren()).isEmpty();
        String owner = TestCustomizations.BadHook.class.getName();
        assertThat(discovered.getDiscoveryIssues()).extracting(DiscoveryIssue::message).containsExactlyInAnyOrder(
                owner + ".noContext must be an instance method taking one HookContext parameter,"
                        + " e.g. void noContext(HookContext context).",
                owner + ".staticHook must be an instance method taking one HookContext parameter,"
                        + " e.g. void staticHook(HookContext context).");
        assertThat(discovered.getDiscoveryIssues()).allSatisfy(issue -> {
            assertThat(issue.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(issue.source()).contains(ClassSource.from(TestCustomizations.BadHook.class));
        });
    }
}
