package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import net.commoninternet.ccci.testing.LocalImages;
import org.junit.jupiter.api.Test;

/**
 * Teardown on the real engine when swarm has lost track of a task: its container, stopped, still
 * carries the stack's label and holds the stack's volume, but no service or task of the stack
 * exists any more (what a dockerd restart mid-run can leave). Swarm never removes such a
 * container; the teardown must, or the volume stays "in use" and every janitor pass after it
 * spends its whole time limit on the stack.
 */
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
        client.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(c -> client.removeContainerCmd(c.getId()).withForce(true).exec());
        client.listVolumesCmd().withFilter("label", java.util.List.of(StackLabels.filter(stack))).exec().getVolumes()
                .forEach(v -> client.removeVolumeCmd(v.getName()).exec());
        docker.close();
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
}
