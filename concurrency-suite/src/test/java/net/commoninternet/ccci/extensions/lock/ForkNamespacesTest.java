package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.SecretSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.lifecycle.HostVariables;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.NamespaceSweep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two sets of runs on one engine, each judging liveness by a lock folder of its own, as the
 * concurrency suite's parallel forks do: a janitor reaps a run app whose lock is free in its own
 * folder, so each set's dead app would be the other's to reap. With a run-app namespace each
 * ({@code CCCI_DOMAIN_SUFFIX}), neither janitor takes the other's app for a run app: it is never a
 * candidate, never probed (no lockfile of it appears in the other folder), never reaped; each
 * set's own janitor reaps its own. The control: a janitor of one set's namespace looking from the
 * other's folder does take that app for a candidate, which is the reap the namespaces prevent.
 * Real janitors in helper processes (the namespace is a process's), real swarm objects, real flocks.
 */
@RealEngine
class ForkNamespacesTest {

    private static final String PID = Long.toString(ProcessHandle.current().pid());
    private static final String SUFFIX_A = "ns" + PID + "a.ci.commoninternet.net";
    private static final String SUFFIX_B = "ns" + PID + "b.ci.commoninternet.net";
    private static final String APP_A = "fork-0a0a0a." + SUFFIX_A;
    private static final String APP_B = "fork-0b0b0b." + SUFFIX_B;

    @TempDir
    Path sandbox;

    private DockerEngine docker;

    @BeforeEach
    void twoDeadRunApps() {
        docker = DockerEngine.connect();
        for (String domain : List.of(APP_A, APP_B)) {
            String stack = AppNaming.stackName(domain);
            // what a dead run's stack leaves: an object with the stack's label, its lock free in every folder
            docker.client().createSecretCmd(new SecretSpec().withName(stack + "_token_v1").withData("c2VjcmV0")
                    .withLabels(StackLabels.of(stack))).exec();
        }
    }

    @AfterEach
    void removeWhatThisTestCreated() throws Exception {
        StackTeardown teardown = new StackTeardown(docker.client());
        for (String domain : List.of(APP_A, APP_B)) {
            teardown.teardown(AppNaming.stackName(domain));
        }
        docker.close();
    }

    @Test
    void janitorsOfTwoLockFoldersInTwoNamespacesNeverSeeEachOthersAppsAndEachReapsItsOwn() throws Exception {
        Path locksA = sandbox.resolve("locks-a");
        Path locksB = sandbox.resolve("locks-b");
        Path servers = Files.createDirectories(sandbox.resolve("servers"));
        StackTeardown teardown = new StackTeardown(docker.client());

        assertThat(janitor(SUFFIX_B, locksA, servers, "list")).as("the control: B's namespace seen from A's folder")
                .contains("candidates [" + APP_B + "]");

        List<String> a = janitor(SUFFIX_A, locksA, servers, "sweep");
        assertThat(a).contains("candidates [" + APP_A + "]", "outcomes {" + APP_A + "=REAPED}");
        assertThat(teardown.leftovers(AppNaming.stackName(APP_A))).as("A's dead app, reaped by A").isEmpty();
        assertThat(teardown.leftovers(AppNaming.stackName(APP_B))).as("B's app, left by A").isNotEmpty();
        assertThat(AppDomainLock.path(locksA, APP_B)).as("A never probed B's app").doesNotExist();

        List<String> b = janitor(SUFFIX_B, locksB, servers, "sweep");
        assertThat(b).contains("candidates [" + APP_B + "]", "outcomes {" + APP_B + "=REAPED}");
        assertThat(teardown.leftovers(AppNaming.stackName(APP_B))).as("B's dead app, reaped by B").isEmpty();
    }

    /** One janitor's run in a helper process of the namespace {@code suffix}: its output, once it exited 0. */
    private static List<String> janitor(String suffix, Path locks, Path servers, String mode) throws Exception {
        try (Helper janitor = Helper.start(Helper.java(NamespaceSweep.class, locks.toString(), servers.toString(), mode),
                Map.of(HostVariables.DOMAIN_SUFFIX, suffix))) {
            assertThat(janitor.awaitExit()).as(janitor.output()).isZero();
            return janitor.output().lines().toList();
        }
    }
}
