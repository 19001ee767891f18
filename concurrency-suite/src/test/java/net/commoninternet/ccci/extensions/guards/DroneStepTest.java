package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Drone step wrapper, {@code scripts/drone-step}, run for real by bash around a stand-in
 * build shaped like {@code mvn test}: on TERM its "maven" exits 143 at once while its "fork"
 * child goes on tearing down until the test releases it. The wrapper must forward TERM to the
 * build's whole process group, wait until every process of it has exited, and pass the build's
 * exit status through unchanged.
 */
@RealProcesses
class DroneStepTest {

    private static final Path DRONE_STEP = MavenRun.ROOT.resolve("scripts/drone-step");
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;
    private static final String GRACE = "CCCI_DRONE_STEP_GRACE";

    /** "maven" and its "fork", as Surefire runs them: the fork outlives maven on TERM. */
    private static final String FAKE_BUILD = """
            #!/usr/bin/env bash
            bash -c 'trap "echo fork: teardown begin; while [ ! -e \\"$0\\" ]; do sleep 0.05; done; \\
                echo fork: teardown end; exit 0" TERM
              echo "fork: ready pid=$$"
              while :; do sleep 60 & wait $!; done' "$1" &
            trap 'echo "maven: TERM, exiting 143"; exit 143' TERM
            echo "maven: ready pid=$$"
            while :; do sleep 60 & wait $!; done
            """;

    @TempDir
    Path sandbox;

    private Path fakeBuild;
    private Path release;
    @RegisterExtension
    final Helpers helpers = new Helpers();

    @BeforeEach
    void writeFakeBuild() throws Exception {
        fakeBuild = sandbox.resolve("fake-build");
        Files.writeString(fakeBuild, FAKE_BUILD, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(fakeBuild, PosixFilePermissions.fromString("rwxr-xr-x"));
        release = sandbox.resolve("release-the-fork");
    }

    @ParameterizedTest(name = "build exits {0}")
    @ValueSource(ints = {0, 1, 3})
    void theBuildsExitStatusPassesThroughUnchanged(int status) throws Exception {
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), "sh", "-c", "exit " + status));

        assertThat(step.awaitExit()).as(step.describe()).isEqualTo(status);
        assertThat(step.output()).isEmpty();
    }

    @Test
    void aGreenBuildStaysGreenWhenTheWrapperStopsProcessesItLeftInTheGroup() throws Exception {
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), "bash", "-c",
                "sleep 600 & echo \"straggler $!\"; exit 0"));
        long straggler = Long.parseLong(step.awaitLine("straggler ").split(" ")[1]);

        assertThat(step.awaitExit()).as(step.describe()).isZero();
        assertThat(step.output()).contains("the build exited 0; waiting for the rest of its process group",
                "TERM: forwarding to the build's process group");
        assertThat(Helper.Stat.of(straggler).filter(s -> s.state() != 'Z')).isEmpty();
    }

    @Test
    void onTermTheWholeGroupIsStoppedAndWaitedForAndTheBuildsStatusIsKept() throws Exception {
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), fakeBuild.toString(), release.toString()));
        long maven = Long.parseLong(step.awaitLine("maven: ready pid=").split("=")[1]);
        step.awaitLine("fork: ready");
        assertThat(Helper.Stat.of(maven).orElseThrow().group()).as("the build leads its own group").isEqualTo(maven);

        step.signal(SIGTERM);
        step.awaitLine("maven: TERM, exiting 143");
        step.awaitLine("fork: teardown begin");
        step.awaitLine("drone-step: the build exited 143; waiting for the rest of its process group " + maven);
        assertThat(step.isAlive()).isTrue();
        step.signal(SIGTERM);
        step.awaitLine("TERM again: already forwarded");
        Files.createFile(release);

        assertThat(step.awaitExit()).as(step.describe()).isEqualTo(143);
        assertThat(Helper.Stat.groupAlive(maven)).isFalse();
        assertThat(step.output()).containsSubsequence("forwarding to the build's process group " + maven,
                "fork: teardown end");
    }

    /**
     * A cancel in the build's first milliseconds: TERM at moments swept over the wrapper's whole start
     * (from before its trap to after the build began). Whenever it comes, the build never runs to its
     * end and the step ends 143. Before the fix, a TERM after the build's fork and before its setsid
     * was forwarded to a group that did not exist yet (ESRCH, ignored): the build ran to its end and
     * the cancelled step ended 0 (30 of 100 trials with a TERM 15-30 ms after a shell started the
     * wrapper; 18 of these 48 once).
     */
    @Test
    void aTermInTheBuildsFirstMillisecondsIsNeverLost() throws Exception {
        long start = calibratedStartNanos();
        // the build outlasts the sweep: a TERM the wrapper received is always one it had to forward
        long buildMillis = Math.max(1000, 3 * start / 1_000_000);
        int trials = 48;
        List<String> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
        // four at a time: each trial's wrapper waits out its group in 0.2 s polls once its build ended
        java.util.concurrent.ExecutorService four = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> all = new java.util.ArrayList<>();
            for (int t = 0; t < trials; t++) {
                int trial = t;
                all.add(four.submit(() -> {
                    cancelAt(trial, start * 2 * trial / trials, buildMillis).ifPresent(lost::add);
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> trial : all) {
                trial.get();
            }
        } finally {
            four.shutdownNow();
        }
        Thread.sleep(buildMillis + 200); // a build the cancel missed touches its file once its time is up
        for (int trial = 0; trial < trials; trial++) {
            if (Files.exists(sandbox.resolve("ran-" + trial))) {
                lost.add("trial " + trial + "'s build ran to its end");
            }
        }
        assertThat(lost).as("cancels lost (the wrapper's start: %d ms)", start / 1_000_000).isEmpty();
    }

    /** One wrapped build of {@code buildMillis}, TERMed {@code delay} ns after its start: why the cancel was lost, if it was. */
    private java.util.Optional<String> cancelAt(int trial, long delay, long buildMillis) throws Exception {
        Path ran = sandbox.resolve("ran-" + trial);
        Path log = sandbox.resolve("step-" + trial + ".log");
        Process step = new ProcessBuilder("bash", DRONE_STEP.toString(), "sh", "-c",
                "sleep " + buildMillis / 1000.0 + "; touch " + ran)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        java.util.concurrent.locks.LockSupport.parkNanos(delay);
        step.destroy(); // SIGTERM, as the step shell's death sends it
        assertThat(step.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("trial %d ended", trial).isTrue();
        return step.exitValue() == 143 ? java.util.Optional.empty()
                : java.util.Optional.of("trial " + trial + " ended " + step.exitValue() + ": " + Files.readString(log).strip());
    }

    /** How long the wrapper takes to start a build here and now, the slowest of three. */
    private long calibratedStartNanos() throws Exception {
        long slowest = 0;
        for (int i = 0; i < 3; i++) {
            long before = System.nanoTime();
            Process step = new ProcessBuilder("bash", DRONE_STEP.toString(), "true").start();
            assertThat(step.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            slowest = Math.max(slowest, System.nanoTime() - before);
        }
        return slowest;
    }

    /** A build that ignores TERM, and a grandchild of it that does too: the step still ends, after the grace it printed. */
    @Test
    void aCancelledBuildThatIgnoresTermIsKilledAfterThePrintedGraceSoTheStepEnds() throws Exception {
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), "bash", "-c",
                "trap '' TERM; sleep 600 & echo \"ready pid=$$\"; while :; do wait; done"), Map.of(GRACE, "2"));
        long build = Long.parseLong(step.awaitLine("ready pid=").split("=")[1]);

        step.signal(SIGTERM);

        assertThat(step.awaitExit()).as(step.describe()).isEqualTo(128 + SIGKILL);
        assertThat(step.output()).containsSubsequence(
                "drone-step: TERM: forwarding to the build's process group " + build
                        + ", then waiting until all of it has exited (KILL after 2 s)",
                "drone-step: the build's process group " + build + " is still alive 2 s after the TERM: sending KILL");
        assertThat(Helper.Stat.groupAlive(build)).isFalse();
    }

    /** After a normal end, a straggler that ignores TERM is killed after the grace, and the build's 0 stays 0. */
    @Test
    void aStragglerThatIgnoresTermAfterAGreenBuildIsKilledAndTheBuildStaysGreen() throws Exception {
        // The build ends only once its straggler ignores TERM (it writes its pid after the trap).
        Path ready = sandbox.resolve("straggler.pid");
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), "bash", "-c",
                "(trap '' TERM; echo $BASHPID > " + ready + ".new && mv " + ready + ".new " + ready + "; exec sleep 600) &"
                        + " while [ ! -s " + ready + " ]; do :; done; echo \"straggler $(cat " + ready + ")\"; exit 0"),
                Map.of(GRACE, "2"));
        long straggler = Long.parseLong(step.awaitLine("straggler ").split(" ")[1]);

        assertThat(step.awaitExit()).as(step.describe()).isZero();
        assertThat(step.output()).containsSubsequence("the build exited 0; waiting for the rest of its process group",
                "(KILL after 2 s)", "is still alive 2 s after the TERM: sending KILL");
        assertThat(Helper.Stat.of(straggler).filter(s -> s.state() != 'Z')).isEmpty();
    }

    @Test
    void aGraceThatIsNotANumberIsRefusedBeforeTheBuildStarts() throws Exception {
        Helper step = helpers.start(List.of("bash", DRONE_STEP.toString(), "sh", "-c", "echo the build ran"),
                Map.of(GRACE, "ten"));

        assertThat(step.awaitExit()).isEqualTo(2);
        assertThat(step.output()).contains("CCCI_DRONE_STEP_GRACE='ten' is not a number of seconds")
                .doesNotContain("the build ran");
    }

    @Test
    void whenDroneKillsTheStepShellTheBuildIsCancelledAndWaitedFor() throws Exception {
        Helper tree = helpers.start(Helper.java(Orphanage.class, "sh", "-c", "\"$0\" \"$@\"; echo the step shell went on",
                "bash", DRONE_STEP.toString(), fakeBuild.toString(), release.toString()));
        long stepShell = Long.parseLong(tree.awaitLine("orphanage: started ").split(" ")[2]);
        long maven = Long.parseLong(tree.awaitLine("maven: ready pid=").split("=")[1]);
        tree.awaitLine("fork: ready");
        long wrapper = ProcessHandle.of(maven).flatMap(ProcessHandle::parent).orElseThrow().pid();
        assertThat(Helper.Stat.of(wrapper).orElseThrow().parent()).isEqualTo(stepShell);

        Helper.kill(stepShell, SIGKILL);

        tree.awaitLine("maven: TERM, exiting 143");
        tree.awaitLine("fork: teardown begin");
        tree.awaitLine("drone-step: the build exited 143; waiting for the rest");
        Files.createFile(release);
        assertThat(tree.awaitLine(Orphanage.reaped(wrapper))).endsWith("exit 143");
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(tree.output()).doesNotContain("the step shell went on").containsSubsequence(
                "forwarding to the build's process group " + maven, "fork: teardown end", Orphanage.reaped(wrapper));
        assertThat(Helper.Stat.groupAlive(maven)).isFalse();
    }
}
