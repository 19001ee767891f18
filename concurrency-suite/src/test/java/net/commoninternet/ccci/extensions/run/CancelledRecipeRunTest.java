package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.testing.ChildShims;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Drone cancel, for real: SIGTERM to the whole process group of a real
 * {@code mvn test -Drecipe=custom-html} while the run is inside its upgrade's redeploy. Maven exits
 * at once; its Surefire fork, orphaned, must still tear the stack down and release the app lock,
 * ignoring a second SIGTERM to the group during that teardown, and end non-zero. No tier starts
 * after the stop: backup, restore, custom and lint are reported not run, never begun. What stops the run first
 * is a race the test accepts either way: the fork's SIGTERM handler, or Surefire's own
 * {@code System.exit(1)} on seeing Maven gone (the guards' shutdown hook).
 *
 * <p>Maven runs in its own session (setsid) under an {@link Orphanage}, which adopts the fork
 * when Maven dies and reports how every process of the group ended. The fork's own lines reach
 * no console once Maven is gone: they are read from its {@code -Dccci.log-file}. The run is held
 * inside its second deploy (the upgrade's) by the docker shim's gate ({@link ChildShims}), which is
 * never opened, and signalled once its app is up, so the teardown has a running container to stop.
 */
@RealEngine
class CancelledRecipeRunTest {

    private static final Duration RUN = Duration.ofMinutes(5);
    private static final int SIGTERM = 15;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private String domain;

    @AfterEach
    void leaveNothingOnTheSwarm() throws Exception {
        if (domain != null) {
            MavenRun.removeLeftovers(domain);
        }
    }

    @Test
    void sigtermToTheMavenProcessGroupMidUpgradeStartsNoFurtherTierTearsDownReleasesTheLockAndFails() throws Exception {
        Path runLog = sandbox.resolve("run.log");
        Path childrenLog = sandbox.resolve("children.log");
        Helper tree = MavenRun.startHeldInDeploy(helpers, sandbox, runLog, 2, "-Drecipe=custom-html", "-Dccci.pr=3005",
                "-Dccci.run-id=cancelled-" + ProcessHandle.current().pid());
        long maven = Long.parseLong(tree.awaitLine("orphanage: started ").split(" ")[2]);

        MavenRun.Started run = MavenRun.Started.parse(MavenRun.awaitLine(runLog, "== ccci run ", RUN, tree::isAlive));
        domain = run.domain();
        MavenRun.awaitLine(childrenLog, "deploy held", RUN, tree::isAlive);
        Path lockfile = AppDomainLock.path(MavenRun.LOCK_DIR, domain);
        assertThat(LockProbe.held(lockfile)).isTrue();
        // Its app is up (a running container makes the teardown last: it has to stop it), and
        // the run is still inside its upgrade's redeploy.
        awaitRunningContainer(run.stack());
        assertThat(Helper.Stat.of(maven).orElseThrow().group()).as("maven leads its own process group").isEqualTo(maven);
        assertThat(Helper.Stat.of(run.pid()).orElseThrow().group()).as("the fork is in maven's group").isEqualTo(maven);

        Helper.kill(-maven, SIGTERM);
        MavenRun.awaitLine(runLog, "== tearing down after ", RUN, tree::isAlive);
        Helper.kill(-maven, SIGTERM);

        // The fork's own status: 143 from the guards, or 1 when Surefire's exit on seeing Maven
        // gone begins the JVM shutdown first (its hook then waits for the same teardown).
        assertThat(tree.awaitLine(Orphanage.reaped(run.pid()), RUN)).matches(".* exit (143|1)");
        assertThat(tree.awaitLine(Orphanage.reaped(maven))).doesNotEndWith(" exit 0");
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(Helper.Stat.groupAlive(maven)).isFalse();
        String log = Files.readString(runLog, StandardCharsets.UTF_8);
        assertThat(log).containsSubsequence(
                "lifetime guards armed on thread 'main'",
                "deploying " + run.stack(),
                ">> custom-html upgrade started",
                "deploying " + run.stack(),
                ": stopping the run — tearing down ==",
                "== tearing down after ",
                "== SIGTERM during teardown — ignored",
                "stack " + run.stack() + " removed: no service, container, volume, secret, config or network left",
                "== teardown of " + domain + ": clean ==");
        // by SIGTERM, or by the JVM's shutdown when Surefire's exit on seeing Maven gone came first (see above)
        assertThat(log).as("the summary says why the upgrade failed")
                .containsPattern("upgrade: the run was stopped by (SIGTERM|a JVM shutdown)");
        for (String tier : List.of("backup", "restore", "custom", "lint")) {
            assertThat(log).as("no tier after the stop").doesNotContain(">> custom-html " + tier + " started");
        }
        assertThat(leftovers(run.stack())).isEmpty();
        assertThat(LockProbe.held(lockfile)).isFalse();
        assertThat(new RunAbraDir(run.abraDir(), sandbox.resolve("abra")).envFile(domain)).doesNotExist();
    }

    /** Waits, observing the engine, until a container of the stack is running. */
    private static void awaitRunningContainer(String stack) throws Exception {
        long deadline = System.nanoTime() + RUN.toNanos();
        try (DockerEngine docker = DockerEngine.connect()) {
            while (docker.client().listContainersCmd().withLabelFilter(StackLabels.of(stack)).exec().isEmpty()) {
                assertThat(System.nanoTime()).as("a running container of %s", stack).isLessThan(deadline);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
    }

    private static List<String> leftovers(String stack) throws Exception {
        try (DockerEngine docker = DockerEngine.connect()) {
            return new StackTeardown(docker.client()).leftovers(stack);
        }
    }
}
