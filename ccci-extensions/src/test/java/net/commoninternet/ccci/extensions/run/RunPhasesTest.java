package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The spine's order on its own, with phases that record what they are asked and fail where told:
 * the spec's order for a green run, and for a failure (or a stop) in each phase, what still runs.
 * No engine: the real phases have their own tests and the end-to-end suites.
 */
class RunPhasesTest {

    /** Phases that record each call, and throw in the one named {@code failIn}. */
    private static class RecordingPhases implements RunPhases.Phases<RecordingPhases.Engine, String, String> {
        final List<String> calls = new ArrayList<>();
        private final String failIn;
        private final Exception failure;

        RecordingPhases(String failIn, Exception failure) {
            this.failIn = failIn;
            this.failure = failure;
        }

        final class Engine implements AutoCloseable {
            @Override
            public void close() throws Exception {
                step("close");
            }
        }

        private void step(String phase) throws Exception {
            calls.add(phase);
            if (phase.equals(failIn)) {
                throw failure;
            }
        }

        @Override
        public Engine connect() throws Exception {
            step("connect");
            return new Engine();
        }

        @Override
        public String prepare(Engine engine) throws Exception {
            step("prepare");
            return "prepared";
        }

        @Override
        public RunPhases.Claim lock(Engine engine, String prepared) throws Exception {
            step("lock");
            return () -> calls.add("release");
        }

        @Override
        public String deploy(Engine engine, String prepared) throws Exception {
            step("deploy");
            return "deployed";
        }

        @Override
        public void tiers(String deployed) throws Exception {
            assertThat(deployed).isEqualTo("deployed");
            step("tiers");
        }

        @Override
        public void teardown(Engine engine, String prepared) {
            assertThat(prepared).isEqualTo("prepared");
            calls.add("teardown");
        }

        @Override
        public void finished(String prepared) throws Exception {
            step("finished");
        }

        @Override
        public Exception explained(Exception e) {
            calls.add("explained");
            return e;
        }
    }

    private static List<String> run(RecordingPhases phases) throws Exception {
        new RunPhases<>(phases).run();
        return phases.calls;
    }

    @Test
    void aGreenRunGoesInTheSpecsOrderAndReleasesTheDomainAfterItsTeardown() throws Exception {
        RecordingPhases phases = new RecordingPhases("none", null);

        assertThat(run(phases)).containsExactly("connect", "prepare", "lock", "deploy", "tiers", "teardown", "release",
                "finished", "close");
    }

    /**
     * Before the lock nothing of the app exists: a failure there tears nothing down. From the lock
     * on, the teardown runs whatever failed, and the claim goes only after it; a failed run keeps
     * its state files (no {@code finished}); the engine connection always closes last.
     */
    @ParameterizedTest(name = "a failure in {0}")
    @CsvSource(delimiter = '|', value = {
        "connect  | connect",
        "prepare  | connect, prepare, close",
        "lock     | connect, prepare, lock, close",
        "deploy   | connect, prepare, lock, deploy, teardown, release, close",
        "tiers    | connect, prepare, lock, deploy, tiers, teardown, release, close",
        "finished | connect, prepare, lock, deploy, tiers, teardown, release, finished, close",
        "close    | connect, prepare, lock, deploy, tiers, teardown, release, finished, close"})
    void aFailureInAPhaseStopsTheRestButTheTeardownOnceTheDomainIsHeld(String phase, String expected) {
        IllegalStateException failure = new IllegalStateException(phase + " failed");
        RecordingPhases phases = new RecordingPhases(phase, failure);

        assertThatThrownBy(() -> new RunPhases<>(phases).run()).isSameAs(failure);
        List<String> calls = new ArrayList<>(List.of(expected.split(",\\s*")));
        calls.add("explained");
        assertThat(phases.calls).containsExactlyElementsOf(calls);
    }

    @Test
    void aStopDuringTheTiersStillTearsDownThenReleasesAndReportsTheInterrupt() {
        InterruptedException stop = new InterruptedException("stopped by SIGTERM");
        RecordingPhases phases = new RecordingPhases("tiers", stop);

        assertThatThrownBy(() -> new RunPhases<>(phases).run()).isSameAs(stop);
        assertThat(phases.calls).containsSubsequence("tiers", "teardown", "release", "close")
                .doesNotContain("finished");
    }

    @Test
    void whatTheRunReportsIsThePhasesExplanationOfItsFailure() {
        IllegalStateException gone = new IllegalStateException("the engine went away");
        RunPhases.Phases<RecordingPhases.Engine, String, String> explaining = new RecordingPhases("deploy",
                new IOException("Connection refused")) {
            @Override
            public Exception explained(Exception e) {
                return gone;
            }
        };

        assertThatThrownBy(() -> new RunPhases<>(explaining).run()).isSameAs(gone);
    }
}
