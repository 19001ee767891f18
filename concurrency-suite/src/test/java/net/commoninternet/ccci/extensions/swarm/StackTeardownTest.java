package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.ServicePlacement;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import com.github.dockerjava.api.model.Volume;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.testing.EngineRestart;
import net.commoninternet.ccci.testing.ForkShares.AloneOnTheEngine;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LogCapture;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.RefusingEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Teardown on the real engine when swarm has lost track of a task: its container, stopped, still
 * carries the stack's label and holds the stack's volume, but no service or task of the stack
 * exists any more (what a dockerd restart mid-run can leave). Swarm never removes such a
 * container; the teardown must, or the volume stays "in use" and every janitor pass after it
 * spends its whole time limit on the stack.
 */
@RealEngine
class StackTeardownTest {

    private final String stack = "ccciteardown_" + Long.toHexString(System.nanoTime());
    private DockerEngine docker;

    @BeforeEach
    void connect() {
        docker = DockerEngine.connect();
    }

    @AfterEach
    void removeWhatThisTestCreated() throws Exception {
        DockerClient client = docker.client();
        new StackTeardown(client).teardown(stack);
        client.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(c -> client.removeContainerCmd(c.getId()).withForce(true).exec());
        client.listVolumesCmd().withFilter("label", List.of(StackLabels.filter(stack))).exec().getVolumes()
                .forEach(v -> client.removeVolumeCmd(v.getName()).exec());
        docker.close();
    }

    /**
     * The engine goes away mid-teardown, for real: dockerd is stopped with the stack deployed
     * (swarm's state outlives it), the teardown starts against no engine, says so in one line and
     * retries; the engine is started again as the set-up starts it, and the same teardown call
     * removes everything, within its bound.
     */
    @Test
    @AloneOnTheEngine
    void aTeardownWhileTheEngineIsDownSaysSoRetriesWithinItsBoundAndRemovesTheStackOnceItIsBack(@TempDir Path dir)
            throws Exception {
        Path compose = dir.resolve("compose.yml");
        Files.writeString(compose, """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"]
                    volumes: ["data:/data"]
                volumes:
                  data:
                """.formatted(LocalImages.BUSYBOX), StandardCharsets.UTF_8);
        Process deploy = new ProcessBuilder("/usr/local/bin/docker", "stack", "deploy", "--detach=true", "--resolve-image",
                "never", "-c", compose.toString(), stack).redirectErrorStream(true).start();
        assertThat(deploy.waitFor()).as(new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        DockerClient client = docker.client();
        awaitRunningContainer(client);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (LogCapture log = new LogCapture(StackTeardown.class)) {
            EngineRestart.stop();
            Future<List<String>> teardown = thread.submit(() -> new StackTeardown(client).teardown(stack));
            awaitLine(log, "the Docker engine is not answering", teardown);

            EngineRestart.start();

            assertThat(teardown.get(4, TimeUnit.MINUTES)).isEmpty();
            assertThat(log.lines()).filteredOn(l -> l.contains("not answering")).hasSize(1).first().asString()
                    .startsWith("!! teardown of " + stack + ": the Docker engine is not answering (");
        } finally {
            thread.shutdownNow();
            if (!EngineRestart.swarmActive()) {
                EngineRestart.start();
            }
        }
        assertThat(new StackTeardown(client).leftovers(stack)).isEmpty();
    }

    private void awaitRunningContainer(DockerClient client) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (client.listContainersCmd().withLabelFilter(StackLabels.of(stack)).exec().isEmpty()) {
            assertThat(System.nanoTime()).as("a running container of " + stack).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    /** Waits until the teardown has said {@code fragment} (observed, not timed), or fails if it ended without. */
    private static void awaitLine(LogCapture log, String fragment, Future<?> writer) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (log.lines().stream().noneMatch(l -> l.contains(fragment))) {
            if (writer.isDone()) {
                throw new AssertionError("the teardown ended without saying '" + fragment + "': " + writer.get() + " " + log.lines());
            }
            assertThat(System.nanoTime()).as("the teardown said " + fragment).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    @Test
    void anOrphanedStoppedTaskContainerAndTheVolumeItHoldsAreRemoved() throws Exception {
        DockerClient client = docker.client();
        Map<String, String> labels = StackLabels.of(stack);
        String volume = client.createVolumeCmd().withName(stack + "_content").withLabels(labels).exec().getName();
        String container = client.createContainerCmd(LocalImages.BUSYBOX)
                .withName(stack + "_app.1.orphaned")
                .withCmd("true")
                .withLabels(Map.of("com.docker.stack.namespace", stack, "com.docker.swarm.task.id", "orphaned"))
                .withHostConfig(HostConfig.newHostConfig().withBinds(new Bind(volume, new Volume("/var/www"))))
                .exec().getId();
        client.startContainerCmd(container).exec();
        assertThat(client.waitContainerCmd(container).start().awaitStatusCode(30, TimeUnit.SECONDS)).isZero();
        StackTeardown teardown = new StackTeardown(client);
        assertThat(teardown.leftovers(stack)).as("the orphan and its volume are there to begin with")
                .hasSize(2).anyMatch(l -> l.startsWith("container ")).anyMatch(l -> l.startsWith("volume "));

        assertThat(teardown.teardown(stack)).isEmpty();
        assertThat(teardown.leftovers(stack)).isEmpty();
        assertThat(teardown.teardown(stack)).as("a second teardown is a no-op").isEmpty();
    }

    /**
     * moby's network list leaves the swarm's networks out, without an error, when its swarm part
     * does not answer: seen on a loaded CI host as a teardown that said "clean" and left the run's
     * {@code <stack>_proxy}. An engine that answers the list so (a proxy in front of the real one,
     * with the stack's overlay network really there) is not believed: the stack is not called gone.
     */
    @Test
    void aNetworkListWithoutTheSwarmsNetworksIsNotBelieved(@TempDir Path dir) throws Exception {
        DockerClient client = docker.client();
        client.createNetworkCmd().withName(stack + "_proxy").withDriver("overlay").withAttachable(true)
                .withLabels(StackLabels.of(stack)).exec();
        String localOnly = "[{\"Name\":\"bridge\",\"Id\":\"0123\",\"Scope\":\"local\",\"Driver\":\"bridge\",\"Labels\":{}}]";
        try (RefusingEngine engine = RefusingEngine.answering(dir.resolve("engine.sock"),
                Pattern.compile("^GET (/v[0-9.]+)?/networks[?\\s]"), "200 OK", localOnly);
                DockerEngine halfAnswering = DockerEngine.connect(engine.dockerHost())) {
            StackTeardown teardown = new StackTeardown(halfAnswering.client());
            assertThat(teardown.leftovers(stack)).containsExactly(StackTeardown.NETWORKS_UNKNOWN);
            // the bound: a manager that answers and lists no swarm network for a minute is taken to have none
            try (LogCapture log = new LogCapture(StackTeardown.class)) {
                long started = System.nanoTime();
                assertThat(teardown.teardown(stack)).isEmpty();
                assertThat(System.nanoTime() - started).as("not believed before a minute").isGreaterThanOrEqualTo(
                        TimeUnit.SECONDS.toNanos(60));
                assertThat(log.lines()).anyMatch(l -> l.contains("has listed no swarm-scoped network for 60 s though its"
                        + " manager answers"));
            }
        }
        assertThat(new StackTeardown(client).leftovers(stack)).as("the real engine's list").containsExactly(
                "network " + stack + "_proxy");
    }

    /**
     * A task swarm has not started yet (no node can take it: a constraint no node meets) is part of
     * the stack: a task still being prepared makes its volumes and its node's copy of its networks,
     * even after its service is gone.
     */
    @Test
    void aTaskSwarmStillMeansToStartIsLeftOfTheStack() {
        DockerClient client = docker.client();
        client.createServiceCmd(new ServiceSpec().withName(stack + "_app").withLabels(StackLabels.of(stack))
                .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                                .withCommand(List.of("sleep", "600")).withLabels(StackLabels.of(stack)))
                        .withPlacement(new ServicePlacement().withConstraints(List.of("node.labels.ccci-no-such-node==1")))))
                .exec();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<String> left;
        while ((left = new StackTeardown(client).leftovers(stack)).stream().noneMatch(l -> l.startsWith("task "))) {
            assertThat(System.nanoTime()).as("a task of %s in %s", stack, left).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        assertThat(left).contains("service " + stack + "_app").anyMatch(l -> l.matches("task \\w+ \\(pending\\)"));
    }
}
