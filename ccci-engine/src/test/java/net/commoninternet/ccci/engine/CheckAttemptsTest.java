package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.CheckAttempts;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunRecord.Attempt;
import net.commoninternet.ccci.spi.RunRecord.Status;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EventType;

/**
 * A failed check is tried again against the same live app, a bounded number of times, and reads
 * {@code flaky} (failed, then passed) or {@code deterministic} (failed every time); its tier's
 * operation is never repeated, and a flaky check fails its tier unless the host allows flakes.
 * The recipe "flaky" ({@link TestCustomizations.Flaky}) has a functional test that fails one time in
 * two, one that always fails, and one that skips.
 */
class CheckAttemptsTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(recipes.resolve("flaky"));
        RecordingLifecycle.EVENTS.clear();
        TestCustomizations.Flaky.TRIES.clear();
    }

    private EngineExecutionResults run(String attempts, String allowFlaky) {
        return run(selectClass(Anchor.class), attempts, allowFlaky);
    }

    /**
     * The flaky check and the one that skips (by their unique ids, as an IDE reruns them): the flaky one
     * is the only failure of its tier, and a skip beside it is none.
     */
    private EngineExecutionResults runFlakyAlone(String attempts, String allowFlaky) {
        return run(new DiscoverySelector[] {selectUniqueId("[engine:ccci]/[recipe:flaky]/[tier:custom]/[check:skipsOnce]"),
                selectUniqueId("[engine:ccci]/[recipe:flaky]/[tier:custom]/[check:failsOneTimeInTwo]")}, attempts, allowFlaky);
    }

    private EngineExecutionResults run(DiscoverySelector selector, String attempts, String allowFlaky) {
        return run(new DiscoverySelector[] {selector}, attempts, allowFlaky);
    }

    private EngineExecutionResults run(DiscoverySelector[] selectors, String attempts, String allowFlaky) {
        return EngineTestKit.engine(CcciTestEngine.ID).selectors(selectors)
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, "flaky")
                .configurationParameter(Constants.STAGES, "custom")
                .configurationParameter(Constants.CHECK_ATTEMPTS, attempts)
                .configurationParameter(Constants.CHECK_BACKOFF, "0")
                .configurationParameter(Constants.ALLOW_FLAKY, allowFlaky)
                .execute();
    }

    private static RunRecord.Row row(String check) {
        return RecordingLifecycle.lastRecord.stream().filter(r -> check.equals(r.check())).findFirst().orElseThrow();
    }

    /** How many events of {@code type} and {@code status} (any, if null) one check's test node sent. */
    private static long count(EngineExecutionResults results, String check, EventType type, TestExecutionResult.Status status) {
        return results.testEvents().list().stream().filter(e -> e.getTestDescriptor().getDisplayName().equals(check))
                .filter(e -> e.getType() == type)
                .filter(e -> status == null || e.getPayload(TestExecutionResult.class).map(TestExecutionResult::getStatus)
                        .orElse(null) == status)
                .count();
    }

    @Test
    void aCheckThatFailsOneTimeInTwoReadsFlakyAndFailsItsTierWithoutAnotherOperation() {
        EngineExecutionResults results = runFlakyAlone("3", "false");

        // each failed attempt is this test's execution ending in its failure, the next one starting it again
        assertThat(count(results, "failsOneTimeInTwo", EventType.STARTED, null)).isEqualTo(2);
        results.testEvents().assertThatEvents()
                .haveExactly(1, event(test("failsOneTimeInTwo"), finishedWithFailure(message("GET / answered 502 (try 1)"))))
                .haveExactly(1, event(test("failsOneTimeInTwo"), finishedSuccessfully()));
        RunRecord.Row row = row("failsOneTimeInTwo");
        assertThat(row.status()).isEqualTo(Status.PASSED);
        assertThat(row.outcome()).contains(RunRecord.Outcome.FLAKY);
        assertThat(row.outcomeLine()).contains("flaky: passed on attempt 2 of 3");
        assertThat(row.attempts()).containsExactly(new Attempt(1, 3, Status.FAILED, "GET / answered 502 (try 1)"),
                new Attempt(2, 3, Status.PASSED, null));

        // the tier, the rung's, fails naming the flaky check: a flake is not green on this host
        results.containerEvents().assertThatEvents().haveExactly(1, event(container("custom"),
                finishedWithFailure(message(m -> m.startsWith("flaky: failsOneTimeInTwo passed on attempt 2 of 3 (attempt 1:"
                        + " GET / answered 502 (try 1))") && m.contains("-Dccci.allow-flaky=true")))));
        assertThat(RecordingLifecycle.lastRecord).anyMatch(r -> r.tier() == Tier.CUSTOM && r.check() == null
                && r.status() == Status.FAILED && r.message().startsWith("flaky: failsOneTimeInTwo"));
        assertThat(TestCustomizations.Flaky.TRIES.get("skipsOnce").get()).as("the skip beside it ran").isEqualTo(1);
        // the tier's operation ran once: only the checks were tried again
        assertThat(RecordingLifecycle.EVENTS).containsOnlyOnce("operate custom");
    }

    @Test
    void aCheckThatAlwaysFailsReadsDeterministicAfterTheBoundWithEveryAttemptsReason() {
        EngineExecutionResults results = run("3", "false");

        assertThat(count(results, "alwaysFails", EventType.STARTED, null)).isEqualTo(3);
        assertThat(count(results, "alwaysFails", EventType.FINISHED, TestExecutionResult.Status.FAILED)).isEqualTo(3);
        RunRecord.Row row = row("alwaysFails");
        assertThat(row.status()).isEqualTo(Status.FAILED);
        assertThat(row.message()).isEqualTo("GET / answered 500 (try 3)");
        assertThat(row.outcome()).contains(RunRecord.Outcome.DETERMINISTIC);
        assertThat(row.outcomeLine()).contains("deterministic: failed 3 of 3 attempts");
        assertThat(row.attempts()).extracting(Attempt::message).containsExactly("GET / answered 500 (try 1)",
                "GET / answered 500 (try 2)", "GET / answered 500 (try 3)");
        // a skip is no failure: it is not tried again
        assertThat(TestCustomizations.Flaky.TRIES.get("skipsOnce").get()).isEqualTo(1);
        assertThat(row("skipsOnce").attempts()).isEmpty();
    }

    @Test
    void aHostThatAllowsFlakesLetsTheFlakyCheckPassItsTierAndStillSaysFlaky() {
        EngineExecutionResults results = runFlakyAlone("3", "true");

        results.containerEvents().assertStatistics(stats -> stats.failed(0));
        assertThat(row("failsOneTimeInTwo").outcomeLine()).contains("flaky: passed on attempt 2 of 3");
        assertThat(RecordingLifecycle.lastRecord).noneMatch(r -> r.check() == null && r.status() == Status.FAILED
                && r.message() != null && r.message().startsWith("flaky"));
    }

    @Test
    void oneAttemptNeverTriesAgain() {
        EngineExecutionResults results = run("1", "false");

        assertThat(count(results, "failsOneTimeInTwo", EventType.STARTED, null)).isEqualTo(1);
        assertThat(row("failsOneTimeInTwo").status()).isEqualTo(Status.FAILED);
        assertThat(row("failsOneTimeInTwo").outcome()).isEmpty();
        assertThat(row("alwaysFails").attempts()).isEmpty();
    }

    @Test
    void attemptsOutOfBoundsAreRefusedInOneSentence() {
        EngineExecutionResults results = run("0", "maybe");

        results.allEvents().assertThatEvents().haveAtLeastOne(event(finishedWithFailure(message(m ->
                m.contains("ccci.check-attempts=0 is out of bounds") && m.contains("ccci.allow-flaky='maybe' is neither true nor false")))));
        assertThat(results.testEvents().started().count()).isZero();
    }

    @Test
    void thePauseDoublesBeforeEachLaterAttempt() {
        CheckAttempts attempts = new CheckAttempts(4, Duration.ofSeconds(1), false);
        assertThat(List.of(attempts.pauseBefore(2), attempts.pauseBefore(3), attempts.pauseBefore(4)))
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    }
}
