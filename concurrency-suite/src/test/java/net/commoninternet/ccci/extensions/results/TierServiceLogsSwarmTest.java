package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.StandaloneRun;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.ServiceLog;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.TierContext;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-tier service logs on the real local swarm: each tier's file holds what the stack's services
 * logged since the tier before, from every task, with the app's secret values masked. The stack
 * name is outside RUN_APP_RE, so no janitor ever probes it; every test removes it afterwards.
 */
@RealEngine
class TierServiceLogsSwarmTest {

    private static final String DOMAIN = "ccci-servicelogs.test";
    private static final String STACK = "ccci-servicelogs_test";
    private static final String SERVICE = STACK + "_app";
    private static final String SECRET = "Zq81xVbn0PqLr4tWcY7uKs2mHd9fGe3A";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path runs;

    private DockerEngine docker;
    private DockerClient client;
    private final List<Path> attached = new CopyOnWriteArrayList<>();
    private StandaloneRun run;
    private LiveRun live;

    @BeforeEach
    void deploy() throws Exception {
        docker = DockerEngine.connect();
        client = docker.client();
        new StackTeardown(client).teardown(STACK);
        client.createServiceCmd(new ServiceSpec().withName(SERVICE).withLabels(StackLabels.of(STACK))
                .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(2)))
                .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                        .withLabels(StackLabels.of(STACK)).withEnv(List.of("SECRET=" + SECRET))
                        .withCommand(List.of("sh", "-c",
                                "echo \"started with password=$SECRET\"; trap 'exit 0' TERM; sleep 600 & wait")))))
                .exec();
        RunSettings settings = new RunSettings(new RunSettings.Subject("demo", 0, null, "logs-test"),
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), "swarm",
                new RunSettings.HostPaths(runs, new RunSettings.Namespace(runs, AppNaming.DEFAULT_SUFFIX), runs, runs, Optional.empty()),
                new RunSettings.Options(Duration.ofMinutes(5), false, Set.of(), LocalImages.BUSYBOX));
        App app = new App("demo", DOMAIN, runs, runs.resolve("demo.env"), Map.of("demo_pw_v1", SECRET));
        // The log collection reads the deployed app, its dependencies and the engine; nothing else of the run.
        live = new Deployment(new Prepared(CiKeys.defaults(), settings.stages(), null, null, null),
                new RunTools(docker, null, null, null, null), Dependencies.none(), app, null);
        run = StandaloneRun.of(settings, runs);
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(client).teardown(STACK)).isEmpty();
        docker.close();
    }

    @Test
    void eachTierGetsTheLinesOfEveryTaskSinceTheTierBeforeWithSecretsMasked() throws Exception {
        String id = client.inspectServiceCmd(SERVICE).exec().getId();
        awaitLines(id, "started with", 2);
        TierServiceLogs logs = new TierServiceLogs();

        logs.afterTier(tier(Tier.INSTALL), null);

        Path install = runs.resolve("logs-test/logs/install/app.log");
        List<String> installLines = Files.readAllLines(install);
        assertThat(installLines).hasSize(2).allMatch(l -> l.endsWith(" | started with password=********"));
        assertThat(installLines).anyMatch(l -> l.contains(" app.1.")).anyMatch(l -> l.contains(" app.2."));

        // The daemon stamps a line when it reads it: this one comes after INSTALL's window closed.
        ContainerExec exec = new ContainerExec(client);
        assertThat(exec.sh(exec.runningContainer(SERVICE), "echo \"upgrading password=$SECRET\" > /proc/1/fd/1").ok()).isTrue();
        awaitLines(id, "upgrading", 1);

        logs.afterTier(tier(Tier.UPGRADE), new AssertionError("a failed tier still gets its logs"));

        Path upgrade = runs.resolve("logs-test/logs/upgrade/app.log");
        assertThat(Files.readAllLines(upgrade)).singleElement().asString().endsWith(" | upgrading password=********");
        assertThat(attached).containsExactly(install, upgrade);
        assertThat(Files.readString(install) + Files.readString(upgrade)).doesNotContain(SECRET);
    }

    /** The tier's view of the run, as the engine hands it to AfterTier extensions: its attachments recorded. */
    private TierContext tier(Tier tier) {
        return run.tier(tier, live, (file, type) -> attached.add(file));
    }

    /** Polls the service's whole log (a condition awaited, not a sleep) until it holds that many such lines. */
    private void awaitLines(String serviceId, String text, int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        long seen;
        do {
            seen = ServiceLog.read(client, serviceId, "app", Instant.EPOCH, Instant.now()).lines().stream()
                    .filter(l -> l.text().contains(text)).count();
        } while (seen < count && System.nanoTime() < deadline && pause());
        assertThat(seen).as("lines with '%s' in the service log", text).isEqualTo(count);
    }

    private static boolean pause() throws InterruptedException {
        Thread.sleep(200);
        return true;
    }
}
