package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.ArmedExtensions.Point;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.spi.RunRecord;
import org.assertj.core.api.Condition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * How the engine calls the run's extensions, whatever the lifecycle does: every extension of a
 * point is called though an earlier one threw, the first failure is the one reported (the others
 * suppressed in it), and a teardown's failure never hides the failure that caused the teardown.
 * Two extensions of each point, the first one called throwing ({@link ArmedExtensions}).
 */
class ExtensionCallsTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void clear() {
        RecordingLifecycle.EVENTS.clear();
        ArmedExtensions.CALLS.clear();
    }

    @AfterEach
    void disarm() {
        ArmedExtensions.ARMED.clear();
    }

    private static void arm(Point... points) {
        ArmedExtensions.ARMED.addAll(List.of(points));
    }

    private EngineExecutionResults run(String recipe, String stages) throws IOException {
        Files.createDirectories(recipes.resolve(recipe));
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.STAGES, stages)
                .execute();
    }

    /** The recipe node's failure, as JUnit reported it. */
    private static Throwable runFailure(EngineExecutionResults results, String recipe) {
        Event finished = results.containerEvents().finished().filter(e -> e.getTestDescriptor().getDisplayName().equals(recipe))
                .findFirst().orElseThrow();
        return finished.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    @Test
    void bothTeardownExtensionsRunWhenTheFirstThrowsAndTheRunStillReportsItsTierFailure() throws IOException {
        arm(Point.TEARDOWN);

        EngineExecutionResults results = run("demo", "install");

        assertThat(ArmedExtensions.CALLS).containsExactly("first teardown threw", "second teardown ran");
        // the tier's own failure is reported, on its check and in the run's record (what results.json is made of)
        results.testEvents().assertThatEvents().haveExactly(1, event(test("fails"), finishedWithFailure(message("planted failure"))));
        assertThat(RecordingLifecycle.lastRecord).contains(RunRecord.Row.failed(Tier.INSTALL, "fails", "planted failure"));
        // and the teardown's failure is the run's, not swallowed
        assertThat(runFailure(results, "demo")).hasMessage("first teardown of demo broke");
    }

    @Test
    void aTeardownFailureNeverHidesTheFailureThatCausedTheTeardown() throws IOException {
        arm(Point.TEARDOWN);

        EngineExecutionResults results = run("deploy-fails", "install");

        assertThat(ArmedExtensions.CALLS).containsExactly("first teardown threw", "second teardown ran");
        Throwable failure = runFailure(results, "deploy-fails");
        assertThat(failure).hasMessage("the deploy of deploy-fails broke");
        assertThat(failure.getSuppressed()).extracting(Throwable::getMessage).containsExactly("first teardown of deploy-fails broke");
        assertThat(RecordingLifecycle.EVENTS).doesNotContain("operate install");
    }

    @Test
    void everyBeforeRunExtensionIsCalledTheFirstFailureStopsTheRunAndTheTeardownStillComes() throws IOException {
        arm(Point.BEFORE_RUN, Point.TEARDOWN);

        EngineExecutionResults results = run("demo", "install");

        assertThat(ArmedExtensions.CALLS).containsExactly("first before-run threw", "second before-run ran",
                "first teardown threw", "second teardown ran");
        Throwable failure = runFailure(results, "demo");
        assertThat(failure).hasMessage("first before-run of demo broke");
        assertThat(failure.getSuppressed()).extracting(Throwable::getMessage).containsExactly("first teardown of demo broke");
        assertThat(RecordingLifecycle.EVENTS).containsExactly("setup demo [INSTALL]", "teardown demo");
    }

    @Test
    void everyAfterTierExtensionRunsWhenOneThrowsAndTheTiersOwnFailureStaysFirst() throws IOException {
        arm(Point.AFTER_TIER);

        EngineExecutionResults results = run("demo", "lint");

        // the recorder, called after the thrower, still heard of the tier
        assertThat(RecordingLifecycle.EVENTS).contains("after lint failed: lint operation broke");
        results.containerEvents().assertThatEvents().haveExactly(1, event(container("lint"), finishedWithFailure(
                message("lint operation broke"),
                new Condition<>(t -> t.getSuppressed().length == 1
                        && t.getSuppressed()[0].getMessage().equals("first after-lint of demo broke"), "after-tier suppressed"))));
    }

    @Test
    void beforeChecksComesAfterEachOperationAndBeforeItsChecksAndALastCheckAfterTheRecipesOwnAssertions() throws IOException {
        arm(Point.BEFORE_CHECKS);

        run("ordered", "install,backup");

        assertThat(RecordingLifecycle.EVENTS).containsSubsequence(
                "operate install", "before checks install", "check passes", "check fails", "after install failed: planted failure",
                "operate backup", "before checks backup", "check verified", "recipe check backupKept", "check settled",
                "after backup ok");
    }

    @Test
    void aFailingBeforeChecksFailsItsTierWhoseChecksDoNotRunAndAFailedOperationGetsNone() throws IOException {
        arm(Point.BEFORE_CHECKS, Point.BEFORE_CHECKS_THROWS);

        EngineExecutionResults results = run("demo", "backup,lint");

        results.containerEvents().assertThatEvents().haveExactly(1, event(container("backup"),
                finishedWithFailure(message("before-checks of backup of demo broke"))));
        assertThat(RecordingLifecycle.EVENTS).contains("operate backup", "before checks backup",
                "after backup failed: before-checks of backup of demo broke", "operate lint")
                .doesNotContain("check verified", "check settled", "before checks lint");
    }

    @Test
    void aLifecycleThatNeverCallsTheTeardownStepStillHasItsTeardownExtensionsCalledOnce() throws IOException {
        arm(Point.TEARDOWN);

        EngineExecutionResults results = run("forgets-teardown", "install");

        assertThat(RecordingLifecycle.EVENTS).contains("operate install", "teardown forgets-teardown");
        assertThat(ArmedExtensions.CALLS).containsExactly("first teardown threw", "second teardown ran");
        assertThat(runFailure(results, "forgets-teardown")).hasMessage("first teardown of forgets-teardown broke");
    }

    @Test
    void aStepOutOfOrderIsRefusedAndTheTiersNeverRun() throws IOException {
        EngineExecutionResults results = run("skips-before-deploy", "install");

        assertThat(runFailure(results, "skips-before-deploy")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("called tiers for skips-before-deploy before beforeDeploy");
        assertThat(RecordingLifecycle.EVENTS).doesNotContain("operate install");
    }

    @Test
    void aRunWhoseLifecycleEndsWithoutItsTiersFails() throws IOException {
        EngineExecutionResults results = run("runs-no-tiers", "install");

        assertThat(runFailure(results, "runs-no-tiers")).hasMessageContaining("without running its tiers (it got to beforeDeploy)");
    }
}
