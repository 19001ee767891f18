package net.commoninternet.ccci.extensions.driver.abra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AbraDriverTest {

    @TempDir
    Path bin;

    @Test
    void withoutAbraOnThePathTheRunStopsWithOneSentenceNamingBothWaysOut() {
        assertThatThrownBy(() -> AbraDriver.requireBinary(bin + ":/nonexistent"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("ccci.driver=abra needs the abra CLI on PATH: install abra, or run with"
                        + " -Dccci.driver=swarm (the embedded driver).");
    }

    @Test
    void anExecutableAbraOnThePathIsEnough() throws Exception {
        Files.createFile(bin.resolve("abra"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));

        assertThatCode(() -> AbraDriver.requireBinary("/nonexistent:" + bin)).doesNotThrowAnyException();
    }

    @Test
    void aNonExecutableAbraDoesNotCount() throws Exception {
        Files.createFile(bin.resolve("abra"));

        assertThatThrownBy(() -> AbraDriver.requireBinary(bin.toString())).isInstanceOf(IllegalStateException.class);
    }

    /**
     * A run whose lease lapsed (its JVM paused past the lease's life, another host took the domain
     * and deployed) must not let abra undeploy the new holder's app: abra's calls are fenced as the
     * engine-level teardown's passes are. Here the lease lapses after the undeploy: the rm is not
     * run, and the teardown removes nothing and says why. No engine is needed: the fence stops the
     * teardown before its first pass.
     */
    @Test
    void abraRemovesNothingOnceTheRunsLeaseIsNoLongerConfirmed() throws Exception {
        List<String> left = removeFenced(new AtomicInteger(1));

        assertThat(bin.resolve("fake-abra-log")).as("abra was never called").doesNotExist();
        assertThat(left).singleElement().asString().contains("lease on it is no longer confirmed");
    }

    @Test
    void aLeaseThatLapsesAfterTheUndeployStopsAbrasRm() throws Exception {
        List<String> left = removeFenced(new AtomicInteger());

        assertThat(Files.readAllLines(bin.resolve("fake-abra-log")))
                .as("abra's last call: the undeploy, while the lease was confirmed")
                .first().isEqualTo("argv: [app] [undeploy] [-n] [" + DOMAIN + "]");
        assertThat(left).singleElement().asString().contains("lease on it is no longer confirmed");
    }

    /**
     * abra reads the app's env itself, where ccci cannot keep a DOCKER_HOST or LD_PRELOAD from steering
     * it: with this driver such a name is refused in one sentence naming the embedded driver, before
     * abra is called (the swarm driver only interpolates the compose with it).
     */
    @Test
    void aValueThatWouldSteerAbraIsRefusedBeforeAbraSeesIt() throws Exception {
        FakeAbra fake = FakeAbra.install(bin);
        AbraCommands commands = new AbraCommands(new AbraCli(fake.executable().toString()),
                new ChildProcesses(fake.answering("", 0)), Duration.ofSeconds(30));
        net.commoninternet.ccci.extensions.recipe.App app = net.commoninternet.ccci.extensions.recipe.TempApp.create(
                bin.resolve("run"), "proxied", java.util.Map.of(), "TYPE=proxied", "DOCKER_HOST=tcp://socket-proxy:2375");

        assertThatThrownBy(() -> new AbraDriver(commands, commands, null, bin.resolve("servers"), null).deploy(app))
                .isInstanceOf(IllegalStateException.class).hasMessage("proxied: its env sets DOCKER_HOST, and with the abra"
                        + " driver abra reads the app's env itself, where DOCKER_HOST could steer abra rather than feed the"
                        + " compose: run it with the embedded driver (-Dccci.driver=swarm), which only interpolates the"
                        + " compose with it, or rename it in .env.sample and the compose.");
        assertThat(bin.resolve("fake-abra-log")).as("abra was never called").doesNotExist();
    }

    private static final String DOMAIN = "fenced-1a2b3c.ci.commoninternet.net";

    /**
     * {@link AbraDriver#remove} of an app whose lease is confirmed only while {@code asked} is 0 on
     * the fence's question, with the stand-in abra: a run whose lease lapsed (its JVM paused past the
     * lease's life, another host took the domain and deployed) must not let abra undeploy the new
     * holder's app. No engine is needed: the fence stops the teardown before its first pass.
     */
    private List<String> removeFenced(AtomicInteger asked) throws Exception {
        FakeAbra fake = FakeAbra.install(bin);
        AbraCommands commands = new AbraCommands(new AbraCli(fake.executable().toString()),
                new ChildProcesses(fake.answering("", 0)), Duration.ofSeconds(30));
        String stack = AppNaming.stackName(DOMAIN);
        BooleanSupplier confirmedAtFirst = () -> asked.getAndIncrement() == 0;
        DomainFence.guard(stack, confirmedAtFirst);
        DefaultDockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost("unix://" + bin.resolve("no-engine.sock")).build();
        try (DockerClient nowhere = DockerClientImpl.getInstance(config,
                new ApacheDockerHttpClient.Builder().dockerHost(config.getDockerHost()).build())) {
            return new AbraDriver(commands, commands, new StackTeardown(nowhere), bin.resolve("servers"), null)
                    .remove(DOMAIN);
        } finally {
            DomainFence.unguard(stack, confirmedAtFirst);
        }
    }
}
