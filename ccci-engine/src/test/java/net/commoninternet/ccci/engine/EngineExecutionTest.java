package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.SkipKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class EngineExecutionTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(recipes.resolve("demo"));
        RecordingLifecycle.EVENTS.clear();
        RecordingLifecycle.STOPS.clear();
    }

    private EngineExecutionResults execute(DiscoverySelector selector, String stages) {
        return execute(selector, "demo", stages);
    }

    /** A run of {@code recipe} (a folder of {@link #recipes}), its tiers {@code stages}. */
    private EngineExecutionResults execute(DiscoverySelector selector, String recipe, String stages) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selector)
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.STAGES, stages)
                .execute();
    }

    @Test
    void tiersRunInsideTheLifecycleInSpecOrderEachOperationOnceThenItsChecks() {
        execute(selectClass(Anchor.class), "lint,install");

        assertThat(RecordingLifecycle.EVENTS).containsExactly(
                "setup demo [INSTALL, LINT]",
                "operate install", "check passes", "check fails", "after install failed: planted failure",
                "operate lint", "after lint failed: lint operation broke",
                "teardown demo");
    }

    @Test
    void checksAreReportedAsTestsAndFailuresCarryTheirMessage() {
        EngineExecutionResults results = execute(selectClass(Anchor.class), "install");

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        results.testEvents().assertThatEvents().haveExactly(1,
                event(test("fails"), finishedWithFailure(message("planted failure"))));
    }

    @Test
    void secretValuesAreMaskedInEveryReportedFailureAndInTheRunRecord() throws IOException {
        Files.createDirectories(recipes.resolve("secretive"));

        EngineExecutionResults results = execute(selectClass(Anchor.class), "secretive", "install,lint");

        results.testEvents().assertThatEvents().haveExactly(1,
                event(test("fails"), finishedWithFailure(instanceOf(AssertionError.class), message("******** failure"))));
        // not an assertion: an error still, under a type that says why its message changed
        results.containerEvents().assertThatEvents().haveExactly(1, event(container("lint"),
                finishedWithFailure(message("java.lang.IllegalStateException: lint operation ********"))));
        assertThat(RecordingLifecycle.lastRecord).extracting(RunRecord.Row::message).filteredOn(Objects::nonNull)
                .isNotEmpty().noneMatch(m -> m.contains("planted") || m.contains("broke"));
    }

    @Test
    void aFailingOperationFailsItsTierAndItsChecksDoNotRun() {
        EngineExecutionResults results = execute(selectClass(Anchor.class), "lint");

        results.containerEvents().assertThatEvents().haveExactly(1,
                event(container("lint"), finishedWithFailure(message("lint operation broke"))));
        assertThat(RecordingLifecycle.EVENTS).doesNotContain("check clean");
    }

    @Test
    void aTierWithoutImplementationIsSkippedNeverPassed() {
        EngineExecutionResults results = execute(selectClass(Anchor.class), "upgrade");

        results.testEvents().assertThatEvents().haveExactly(1,
                event(test("upgrade"), skippedWithReason(r -> r.contains("no implementation"))));
        results.testEvents().assertStatistics(stats -> stats.skipped(1).succeeded(0).failed(0));
    }

    @Test
    void theRunRecordHoldsEveryCheckAndEveryTierThatDidNotPassForTheLifecycleToReport() {
        execute(selectClass(Anchor.class), "install,upgrade,lint");

        assertThat(RecordingLifecycle.lastRecord).containsExactlyInAnyOrder(
                RunRecord.Row.passed(Tier.INSTALL, "passes"),
                RunRecord.Row.failed(Tier.INSTALL, "fails", "planted failure"),
                RunRecord.Row.skipped(Tier.UPGRADE, null, SkipKind.UNVERIFIED,
                        "tier upgrade has no implementation on the class path (unver)"),
                RunRecord.Row.failed(Tier.LINT, null, "lint operation broke"));
    }

    /**
     * A check the host failed (the live run finds a {@link HostFault} in what it threw): JUnit reports it
     * failed with the host fault itself (not an assertion: Surefire's {@code <error>}), and the record keeps
     * it as an infrastructure skip, never a failure of the recipe's.
     */
    @Test
    void aCheckTheHostFailedIsReportedAsTheHostFaultAndRecordedAsInfrastructureNotAsAFailure() throws IOException {
        Files.createDirectories(recipes.resolve("host-refused"));

        EngineExecutionResults results = execute(selectClass(Anchor.class), "host-refused", "install");

        String sentence = HostFault.Cause.ENGINE.describe("it answered HTTP 500: refused");
        results.testEvents().assertThatEvents().haveExactly(1, event(test("fails"),
                finishedWithFailure(instanceOf(HostFault.class), message(sentence))));
        assertThat(RecordingLifecycle.lastRecord).containsExactlyInAnyOrder(RunRecord.Row.passed(Tier.INSTALL, "passes"),
                RunRecord.Row.skipped(Tier.INSTALL, "fails", SkipKind.INFRASTRUCTURE, sentence));
    }

    /**
     * A check the host failed is no look at the app that another try could change the recipe's
     * verdict on: it is said as the host's at once, never tried again (a second try that passed would
     * read the host's failure as the recipe's flake).
     */
    @Test
    void aCheckTheHostFailedIsNotTriedAgain() throws IOException {
        Files.createDirectories(recipes.resolve("host-once-refused"));

        execute(selectClass(Anchor.class), "host-once-refused", "install");

        assertThat(RecordingLifecycle.EVENTS.stream().filter("check passes"::equals)).hasSize(1);
        assertThat(RecordingLifecycle.lastRecord).contains(RunRecord.Row.skipped(Tier.INSTALL, "passes",
                SkipKind.INFRASTRUCTURE, HostFault.Cause.ENGINE.describe("it answered HTTP 500: refused")));
    }

    /**
     * A SIGTERM (the deadline, a lost lease) mid-run: the lifecycle interrupts what runs, and the
     * engine starts nothing after it. Here the stop comes during INSTALL's first check: its second
     * check, BACKUP and LINT are reported skipped with the stop's reason and never run, and the
     * lifecycle's teardown follows at once.
     */
    @Test
    void onceTheRunIsStoppedNoFurtherCheckOrTierStartsAndTheTeardownFollows() throws IOException {
        Files.createDirectories(recipes.resolve("stopped-mid-install"));

        EngineExecutionResults results = execute(selectClass(Anchor.class), "stopped-mid-install", "install,backup,lint");

        assertThat(RecordingLifecycle.EVENTS).containsExactly("setup stopped-mid-install [INSTALL, BACKUP, LINT]",
                "operate install", "check passes", "after install ok", "teardown stopped-mid-install");
        String reason = "not run: the run was stopped by SIGTERM";
        results.testEvents().assertThatEvents().haveExactly(1, event(test("fails"), skippedWithReason(reason)));
        results.containerEvents().assertThatEvents()
                .haveExactly(1, event(container("backup"), skippedWithReason(reason)))
                .haveExactly(1, event(container("lint"), skippedWithReason(reason)));
        assertThat(RecordingLifecycle.lastRecord).containsExactlyInAnyOrder(
                RunRecord.Row.passed(Tier.INSTALL, "passes"),
                RunRecord.Row.skipped(Tier.INSTALL, "fails", SkipKind.UNVERIFIED, reason),
                RunRecord.Row.skipped(Tier.BACKUP, null, SkipKind.UNVERIFIED, reason),
                RunRecord.Row.skipped(Tier.LINT, null, SkipKind.UNVERIFIED, reason));
    }

    /** A check the stop's interrupt ended fails, and its row says the run was stopped, then what it threw. */
    @Test
    void aCheckThatTheStopEndedSaysTheRunWasStopped() throws IOException {
        Files.createDirectories(recipes.resolve("stopped-mid-check-interrupted"));

        execute(selectClass(Anchor.class), "stopped-mid-check-interrupted", "install,backup");

        assertThat(RecordingLifecycle.lastRecord).contains(
                RunRecord.Row.failed(Tier.INSTALL, "passes", "the run was stopped by SIGTERM (sleep interrupted)"),
                RunRecord.Row.skipped(Tier.BACKUP, null, SkipKind.UNVERIFIED, "not run: the run was stopped by SIGTERM"));
    }

    /** A failure of its own that came before the stop is not blamed on it. */
    @Test
    void aFailureBeforeTheStopKeepsItsOwnMessage() throws IOException {
        Files.createDirectories(recipes.resolve("stopped-after-lint"));

        execute(selectClass(Anchor.class), "stopped-after-lint", "lint");

        assertThat(RecordingLifecycle.lastRecord).containsExactly(RunRecord.Row.failed(Tier.LINT, null, "lint operation broke"));
    }

    @Test
    void checksCarrySurefireNamesRecipeTierCheck() {
        EngineExecutionResults results = execute(selectClass(Anchor.class), "install");

        assertThat(results.testEvents().started().stream()
                .map(e -> e.getTestDescriptor().getLegacyReportingName()))
                .containsExactly("demo > install > passes", "demo > install > fails");
    }

    @Test
    void oneCheckFromAnIdeRunsTheTierOperationOnceAndOnlyThatCheck() {
        execute(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:install]/[check:passes]"), "install");

        assertThat(RecordingLifecycle.EVENTS).containsExactly(
                "setup demo [INSTALL]", "operate install", "check passes", "after install ok", "teardown demo");
    }
}
