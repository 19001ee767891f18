package net.commoninternet.ccci.extensions.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceRestartCondition;
import com.github.dockerjava.api.model.ServiceRestartPolicy;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.RecipeSaid;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.RefusingEngine;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a swarm task says of an image it could not get, judged on the real engine: the task's error
 * is "No such image: ..." whether the registry is out of reach or the image does not exist, so the
 * verdict comes from asking the engine to reach the registry again. This machine reaches no
 * registry: a public image is the host's fault; an image under ccci's local name, never pulled, the
 * recipe's. (The swarm driver pulls an app's images before its deploy, so under it the task path is
 * met on the other nodes of a multi-node swarm, and under the abra driver.)
 */
@RealEngine
class HostFaultsSwarmTest {

    private static final String STACK = "ccci-hostfaults-test";

    private DockerEngine docker;

    @BeforeEach
    void connect() {
        docker = DockerEngine.connect();
        new StackTeardown(docker.client()).teardown(STACK);
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(docker.client()).teardown(STACK)).isEmpty();
        docker.close();
    }

    @Test
    void aTaskWhoseImageTheEngineCannotPullIsTheHostsAndOneWhoseLocalImageIsMissingIsTheRecipes() throws Exception {
        service("public", "docker.io/library/nginx:1.27");
        service("local", "ccci.local/no-such-image:1");

        // until swarm has tried both (a loaded machine may take longer than one short wait): never converged meanwhile
        AtomicReference<SwarmConvergence.Report> seen = new AtomicReference<>();
        Awaitility.await("swarm's task errors of both services").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    SwarmConvergence.Report now = new SwarmConvergence(docker).await(STACK, Duration.ofSeconds(2));
                    assertThat(now.converged()).as(now.describe()).isFalse();
                    seen.set(now);
                    return problem(now, STACK + "_public").contains("No such image")
                            && problem(now, STACK + "_local").contains("No such image");
                });
        SwarmConvergence.Report report = seen.get();

        String publicProblem = problem(report, STACK + "_public");
        String localProblem = problem(report, STACK + "_local");
        assertThat(publicProblem).contains("No such image: nginx:1.27");
        assertThat(localProblem).contains("No such image: ccci.local/no-such-image:1");
        Optional<HostFault> hosts = HostFaults.on(docker).of(new AssertionError(publicProblem));
        assertThat(hosts.map(HostFault::kind)).contains(HostFault.Cause.IMAGE_PULL);
        assertThat(hosts.orElseThrow().getMessage()).contains("nginx:1.27 was not found on the engine, and the engine cannot"
                + " reach Docker Hub: Get \"https://registry-1.docker.io/v2/\": dial tcp");
        assertThat(HostFaults.on(docker).of(new AssertionError(localProblem))).isEmpty();
    }

    private static String problem(SwarmConvergence.Report report, String service) {
        return report.problems().stream().filter(p -> p.startsWith(service + ":")).findFirst().orElseThrow(
                () -> new AssertionError("no problem of " + service + " in " + report.problems()));
    }

    private void service(String name, String image) {
        docker.client().createServiceCmd(new ServiceSpec().withName(STACK + "_" + name).withLabels(StackLabels.of(STACK))
                .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(1)))
                .withTaskTemplate(new TaskSpec()
                        .withRestartPolicy(new ServiceRestartPolicy().withCondition(ServiceRestartCondition.NONE))
                        .withContainerSpec(new ContainerSpec().withImage(image).withLabels(StackLabels.of(STACK))
                                .withCommand(List.of("sleep", "600"))))).exec();
    }

    /**
     * The recipe's words alone say ENOSPC (an app's page): the host's full disk only when the engine's
     * own disk is full now. This machine's engine has room, so the recipe's; an engine whose data root
     * (as its {@code /info} says, through a proxy in front of the real engine) is a full 1 MiB tmpfs
     * makes the same failure the host's.
     */
    @Test
    void theRecipesWordsSayingTheDiskIsFullAreTheHostsOnlyWhenTheEnginesDiskIsFull(@TempDir Path dir) throws Exception {
        String page = "write /data/cache: no space left on device";
        AssertionError quoted = RecipeSaid.quotedIn(new AssertionError("GET / answered 500 " + page), page);
        assertThat(HostFaults.on(docker).of(quoted)).as("this machine's engine has room").isEmpty();

        Path root = Files.createDirectories(dir.resolve("engine-root"));
        assertThat(new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", root.toString()).inheritIO().start()
                .waitFor()).isZero();
        ObjectNode info = (ObjectNode) EngineLists.get(EngineLists.http(docker.client()), "/info", Map.of());
        info.put("DockerRootDir", root.toString());
        // filled to the last byte (cat ends on ENOSPC)
        new ProcessBuilder("sh", "-c", "cat /dev/zero > " + root.resolve("fill")).inheritIO().start().waitFor();
        try (RefusingEngine engine = RefusingEngine.answering(dir.resolve("engine.sock"),
                Pattern.compile("^GET (/v[0-9.]+)?/info[?\\s]"), "200 OK", info.toString());
                DockerEngine full = DockerEngine.connect(engine.dockerHost())) {
            Optional<HostFault> fault = HostFaults.on(full).of(quoted);
            assertThat(fault.map(HostFault::kind)).contains(HostFault.Cause.DISK);
            assertThat(fault.orElseThrow().getMessage()).contains("the engine's disk (" + root + ") has 0 MiB left of 1 MiB",
                    "the recipe's output said: write /data/cache: no space left on device");
        } finally {
            new ProcessBuilder("umount", root.toString()).inheritIO().start().waitFor();
        }
    }
}
