package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.Network;
import com.github.dockerjava.api.model.NetworkAttachmentConfig;
import com.github.dockerjava.api.model.SecretSpec;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import com.github.dockerjava.api.model.VolumeOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.LockHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The janitor against the real local swarm: candidates discovered from stack-labelled objects
 * and env files, a dead run's objects really removed, a live run's left alone. Only this
 * test's own domains are swept, so nothing else on the engine is ever touched. The live run's
 * lock is held in the host's lock directory: any other janitor on this host (a run started
 * meanwhile) must see it as live too.
 */
@RealEngine
class JanitorSwarmTest {

    private static final String DEAD = "jant-d0d0d0.ci.commoninternet.net";
    private static final String LIVE = "jant-11ee11.ci.commoninternet.net";
    private static final String WARM = "warm-jant.ci.commoninternet.net";
    /** A dead run's app and its cold dependency: the app's domain sorts first, so the sweep reaps it first. */
    private static final String RUN_APP = "jana-a0a0a0.ci.commoninternet.net";
    private static final String RUN_DEP = "jand-d1d1d1.ci.commoninternet.net";

    @TempDir
    Path sandbox;

    private DockerEngine docker;
    private StackTeardown teardown;

    @BeforeEach
    void connect() {
        docker = DockerEngine.connect();
        teardown = new StackTeardown(docker.client());
    }

    @AfterEach
    void removeWhatThisTestCreated() throws Exception {
        for (String domain : List.of(RUN_DEP, DEAD, LIVE, WARM, RUN_APP)) {
            teardown.teardown(AppNaming.stackName(domain));
            Files.deleteIfExists(AppDomainLock.path(Path.of("/run/lock"), domain));
        }
        docker.close();
    }

    @Test
    void discoversRunAppsByStackLabelAndEnvFileButNeverWarmOnes() throws Exception {
        fakeStack(DEAD);
        fakeStack(WARM);
        Path servers = sandbox.resolve("servers");
        Files.createDirectories(servers.resolve("default"));
        Files.writeString(servers.resolve("default/" + LIVE + ".env"), "TYPE=x\n");
        Files.writeString(servers.resolve("default/" + WARM + ".env"), "TYPE=x\n");

        Set<String> candidates = JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX);

        assertThat(candidates).contains(DEAD, LIVE).doesNotContain(WARM);
    }

    @Test
    void reapsADeadRunsStackAndEnvFileAndLeavesALiveRunsAlone() throws Exception {
        Path locks = Path.of("/run/lock");
        Path servers = sandbox.resolve("servers");
        Files.createDirectories(servers.resolve("default"));
        for (String domain : List.of(DEAD, LIVE)) {
            fakeStack(domain);
            Files.writeString(servers.resolve("default/" + domain + ".env"), "TYPE=x\n");
        }
        try (Helper liveRun = Helper.jvm(LockHolder.class, locks.toString(), LIVE)) {
            liveRun.awaitLine("held");
            Set<String> mine = new TreeSet<>(JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX));
            mine.retainAll(Set.of(DEAD, LIVE));
            assertThat(mine).containsExactly(LIVE, DEAD);

            Map<String, Janitor.Outcome> outcomes = new Janitor(locks, Duration.ofHours(2),
                    Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers))).sweep(mine);

            assertThat(outcomes).containsEntry(DEAD, Janitor.Outcome.REAPED).containsEntry(LIVE, Janitor.Outcome.LIVE);
            assertThat(teardown.leftovers(AppNaming.stackName(DEAD))).isEmpty();
            assertThat(servers.resolve("default/" + DEAD + ".env")).doesNotExist();
            assertThat(teardown.leftovers(AppNaming.stackName(LIVE)))
                    .contains("service " + AppNaming.stackName(LIVE) + "_app");
            assertThat(servers.resolve("default/" + LIVE + ".env")).exists();
        }
    }

    /**
     * The last thing of a run that died after its stack and env file were gone (abra's {@code app rm}
     * done, the teardown's container pass not yet): its probe container, a plain container with
     * only ccci's probe label. The janitor finds the run by it and reaps it; it is never started
     * here (the label is what counts).
     */
    @Test
    void aDeadRunsLoneProbeContainerIsFoundAndReaped() throws Exception {
        String stack = AppNaming.stackName(DEAD);
        docker.client().createContainerCmd(LocalImages.BUSYBOX).withName(stack + "-probe")
                .withLabels(Map.of(StackLabels.PROBE, stack)).exec();
        Path servers = sandbox.resolve("servers");
        assertThat(teardown.leftovers(stack)).singleElement().asString().startsWith("probe container /" + stack + "-probe");

        Set<String> mine = new TreeSet<>(JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX));
        mine.retainAll(Set.of(DEAD));
        assertThat(mine).containsExactly(DEAD);
        Map<String, Janitor.Outcome> outcomes = new Janitor(Path.of("/run/lock"), Duration.ofHours(2),
                Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers))).sweep(mine);

        assertThat(outcomes).containsEntry(DEAD, Janitor.Outcome.REAPED);
        assertThat(teardown.leftovers(stack)).isEmpty();
    }

    /**
     * A dead run's own network ({@link RunNetwork}) is reaped with its app, though its cold
     * dependency's service still joins it when the app's turn comes (the sweep takes the app first:
     * its domain sorts first): the app's reap removes all else, says the network is held and waits
     * no longer; the dependency is reaped; the app is probed again and its network goes. Without
     * the second probe the network stayed; without the app's reap giving up on it, the sweep took
     * the teardown's whole bound (3 min) first.
     */
    @Test
    void aDeadRunsNetworkIsReapedWithItsAppWhenItsDependencyIsReapedAfterIt() throws Exception {
        String app = AppNaming.stackName(RUN_APP);
        String dep = AppNaming.stackName(RUN_DEP);
        RunNetwork.of(app).create(docker.client());
        String network = docker.client().inspectNetworkCmd().withNetworkId(app + "_proxy").exec().getId();
        service(app, network);
        service(dep, network);
        Path servers = sandbox.resolve("servers");
        Set<String> mine = new TreeSet<>(JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX));
        mine.retainAll(Set.of(RUN_APP, RUN_DEP));
        assertThat(mine).containsExactly(RUN_APP, RUN_DEP);

        long started = System.nanoTime();
        Map<String, Janitor.Outcome> outcomes = new Janitor(Path.of("/run/lock"), Duration.ofHours(2),
                Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers))).sweep(mine);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(90));
        assertThat(outcomes).containsEntry(RUN_APP, Janitor.Outcome.REAPED).containsEntry(RUN_DEP, Janitor.Outcome.REAPED);
        assertThat(teardown.leftovers(app)).as("the run's network, with its app").isEmpty();
        assertThat(teardown.leftovers(dep)).isEmpty();
    }

    /** A labelled service of {@code stack} on {@code network} (by id, where the CLI puts it: the task template). */
    private void service(String stack, String network) {
        Map<String, String> labels = StackLabels.of(stack);
        docker.client().createServiceCmd(new ServiceSpec()
                .withName(stack + "_app")
                .withLabels(labels)
                .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(1)))
                .withTaskTemplate(new TaskSpec().withNetworks(List.of(new NetworkAttachmentConfig().withTarget(network)))
                        .withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                                .withCommand(List.of("sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait")).withLabels(labels))))
                .exec();
    }

    /** What a stack deploy leaves: a labelled service with a named volume, a network and a secret. */
    private void fakeStack(String domain) {
        DockerClient client = docker.client();
        String stack = AppNaming.stackName(domain);
        Map<String, String> labels = StackLabels.of(stack);
        String network = client.createNetworkCmd().withName(stack + "_default").withDriver("overlay")
                .withLabels(labels).exec().getId();
        client.createSecretCmd(new SecretSpec().withName(stack + "_token_v1").withData("c2VjcmV0").withLabels(labels)).exec();
        client.createServiceCmd(new ServiceSpec()
                .withName(stack + "_app")
                .withLabels(labels)
                .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(1)))
                .withNetworks(List.of(new NetworkAttachmentConfig().withTarget(network)))
                .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec()
                        .withImage(LocalImages.BUSYBOX)
                        .withCommand(List.of("sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"))
                        .withLabels(labels)
                        .withMounts(List.of(new Mount().withType(MountType.VOLUME).withSource(stack + "_data")
                                .withTarget("/data").withVolumeOptions(new VolumeOptions().withLabels(labels))))))).exec();
    }
}
