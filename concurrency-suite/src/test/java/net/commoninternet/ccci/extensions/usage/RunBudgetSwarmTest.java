package net.commoninternet.ccci.extensions.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunBudget;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's budget while it runs, on the real swarm under gVisor: a service that prints as fast as it
 * can keeps its log within the rotation ccci sets (its own larger one lowered); a service that writes
 * into its volume as fast as the disk takes it is paused and its run stopped close to the run's disk
 * share; and a real run of such a recipe is torn down and fails with the one sentence. Domains
 * outside RUN_APP_RE, so no janitor probes them.
 */
@RealEngine
class RunBudgetSwarmTest {

    private static final Logger LOG = LoggerFactory.getLogger(RunBudgetSwarmTest.class);
    private static final String DOMAIN = "budget-test.ccci.invalid";
    /** A service's command that writes 8 MiB files into its volume at /data as fast as the disk takes them. */
    private static final String WRITER = "command: [\"sh\", \"-c\", \"i=0; while true; do dd if=/dev/zero of=/data/f$$i bs=1M"
            + " count=8 2>/dev/null; i=$$((i+1)); done\"]";

    @TempDir
    Path runDir;

    private final ChildProcesses processes = new ChildProcesses(Map.of());
    private DockerEngine docker;
    private SwarmDriver driver;
    private RunAbraDir abra;
    private String e2eDomain;

    @BeforeEach
    void connect() throws Exception {
        docker = DockerEngine.connect();
        abra = RunAbraDir.create(runDir, runDir.resolve("canonical"));
    }

    @AfterEach
    void remove() throws Exception {
        try {
            if (driver != null) {
                assertThat(driver.remove(DOMAIN)).isEmpty();
            }
            if (e2eDomain != null) {
                MavenRun.removeLeftovers(e2eDomain);
            }
        } finally {
            docker.close();
        }
    }

    private App deployed(RunBudget budget, String compose) throws Exception {
        DeployPolicy policy = new DeployPolicy(new RunSettings.HostTrust(Set.of(), DeployAllowance.NONE, Duration.ofMinutes(10),
                Set.of(), budget), processes);
        driver = new SwarmDriver(docker, processes, runDir.resolve("backup"), runDir.resolve("canonical/servers"), policy);
        Path recipe = Files.createDirectories(runDir.resolve("recipe"));
        Files.writeString(recipe.resolve("compose.yml"), compose.replace("IMAGE", LocalImages.BUSYBOX));
        Files.writeString(recipe.resolve(".env.sample"), "");
        return driver.newApp("budget", DOMAIN, recipe, abra);
    }

    /**
     * About 20 MB of 4 KiB lines, then a marker: with the host's rotation at 256 KiB x 2 files (the
     * recipe asked for 1g), the container's log files together hold at most two files and a line each.
     * Without ccci's log options the one file held all 20 MB.
     */
    @Test
    void aServicePrintingFastKeepsItsLogWithinTheHostsRotation() throws Exception {
        RunBudget.Logs rotation = new RunBudget.Logs(256L << 10, 2);
        App app = deployed(new RunBudget(RunBudget.Limits.DEFAULT, RunBudget.DEFAULT.disk(), rotation), """
                version: "3.8"
                services:
                  chatty:
                    image: IMAGE
                    command: ["sh", "-c", "l=x; i=0; while [ $$i -lt 12 ]; do l=$$l$$l; i=$$((i+1)); done; i=0; while [ $$i -lt 5000 ]; do echo $$l; i=$$((i+1)); done; echo chatty-done; exec sleep 600"]
                    logging: {driver: json-file, options: {max-size: 1g}}
                """);
        driver.deploy(app);
        String container = awaitLastLine(app.stack() + "_chatty", "chatty-done");

        JsonNode inspected = EngineLists.get(docker.http(), "/containers/" + container + "/json", Map.of());
        Path log = Path.of(inspected.path("LogPath").asText());
        long held;
        try (Stream<Path> files = Files.list(log.getParent())) {
            held = files.filter(f -> f.getFileName().toString().startsWith(log.getFileName().toString()))
                    .mapToLong(f -> f.toFile().length()).sum();
        }

        LOG.info("about 20 MB printed; its log files hold {} bytes", held);
        assertThat(held).as("bytes of %s*", log).isPositive().isLessThanOrEqualTo(2 * ((256L << 10) + (8 << 10)));
        assertThat(inspected.at("/HostConfig/LogConfig/Config").toString()).contains("\"max-size\":\"256k\"", "\"max-file\":\"2\"");
    }

    /**
     * A writer of 8 MiB files into its volume in a loop (about 300 MB/s here) against a share of
     * 512 MiB: the watch pauses its container and stops the run with the sentence; what the stack
     * holds then is its share plus the overshoot (10 to 136 MiB here), within half the share. Without the watch nothing
     * stops it: the test fails once the stack holds twice the share.
     */
    @Test
    void aVolumeWriterIsPausedAndItsRunStoppedCloseToItsDiskShare() throws Exception {
        long share = 512L << 20;
        App app = deployed(RunBudget.DEFAULT, """
                version: "3.8"
                services:
                  writer:
                    image: IMAGE
                    WRITER
                    volumes: [data:/data]
                volumes:
                  data:
                """.replace("WRITER", WRITER));
        CompletableFuture<String> stopped = new CompletableFuture<>();
        DiskWatch watch = new DiskWatch(docker.client(), app.stack(), share, stopped::complete);
        Thread watching = new Thread(watch::watch, "disk-watch-test");
        watching.start();
        try {
            driver.deploy(app);

            String why = awaitStop(stopped, app.stack(), 2 * share);

            long held = held(app.stack());
            LOG.info("disk share {} MiB; held when the writer was paused: {} MiB (overshoot {} MiB)", share >> 20, held >> 20,
                    (held - share) >> 20);
            assertThat(why).startsWith("the volumes and containers of " + app.stack() + " hold ")
                    .contains("more than one run's share (512 MiB, ccci.budget.disk): volume " + app.stack() + "_data ",
                            "its containers were paused and the run is torn down", "(-Dccci.budget.disk)");
            for (JsonNode container : EngineLists.get(docker.http(), "/containers/json",
                    EngineLists.label(StackLabels.filter(app.stack())))) {
                assertThat(container.path("State").asText()).as(container.path("Names").toString()).isEqualTo("paused");
            }
            assertThat(held).isGreaterThan(share).isLessThan(share + share / 2);
        } finally {
            watch.close();
            watching.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(watching.isAlive()).isFalse();
    }

    /**
     * A real run of a recipe that fills its volume (and says it is healthy only past 2 GiB, so the run
     * waits in its convergence while it writes), with the host's disk share at 256 MiB: stopped, torn
     * down, failed with the sentence, nothing of it left.
     */
    @Test
    void aRecipeThatFillsItsDiskIsStoppedTornDownAndFailsInOneSentence() throws Exception {
        Path recipes = Files.createDirectories(runDir.resolve("recipes/i40disk"));
        Files.writeString(recipes.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: %s
                    WRITER
                    volumes: [data:/data]
                    networks: [proxy]
                    healthcheck:
                      test: ["CMD", "sh", "-c", "[ $$(du -sm /data | cut -f1) -gt 2048 ]"]
                      interval: 2s
                      retries: 1000
                volumes:
                  data:
                networks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX).replace("WRITER", WRITER), StandardCharsets.UTF_8);
        Files.writeString(recipes.resolve(".env.sample"), "TYPE=i40disk\n", StandardCharsets.UTF_8);
        MavenRun run = MavenRun.start(runDir.resolve("disk.log"), Map.of("CCCI_RUNS_DIR", runDir.resolve("runs").toString(),
                "ABRA_DIR", runDir.resolve("abra").toString()), "-Drecipe=i40disk", "-Dccci.recipes=" + runDir.resolve("recipes"),
                "-Dccci.stages=install", "-Dccci.run-id=i40-disk", "-Dccci.budget.disk=256m");
        e2eDomain = MavenRun.Started.parse(run.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain();
        String stack = AppNaming.stackName(e2eDomain);

        int exit = run.waitFor(Duration.ofMinutes(10));

        assertThat(exit).as(run.output()).isNotZero();
        assertThat(run.output()).contains("the volumes and containers of " + stack + " hold ",
                "more than one run's share (256 MiB, ccci.budget.disk)",
                "install > deploy: the run was stopped: the volumes and containers of " + stack);
        assertThat(new StackTeardown(docker.client()).leftovers(stack)).isEmpty();
    }

    /**
     * The sentence the watch stopped the run with, once it did; a failure as soon as the stack holds
     * more than {@code never} (nothing stopped the writer: the test ends before the disk fills).
     */
    private String awaitStop(CompletableFuture<String> stopped, String stack, long never) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!stopped.isDone()) {
            long held = held(stack);
            assertThat(held).as("bytes %s holds while the watch has not stopped it", stack).isLessThan(never);
            assertThat(System.nanoTime()).as("the watch stopped the writer").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return stopped.get();
    }

    /** What the stack's volumes, writable layers and logs hold on this host, as the watch counts it. */
    private long held(String stack) throws IOException {
        long held = 0;
        for (Path place : new RunFiles(docker.client(), stack).places().keySet()) {
            held += DiskUsage.allocated(place);
        }
        return held;
    }

    /** The id of the service's container once its last log line holds {@code marker} (observed, not timed). */
    private String awaitLastLine(String service, String marker) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (true) {
            for (JsonNode container : EngineLists.get(docker.http(), "/containers/json",
                    EngineLists.label("com.docker.swarm.service.name=" + service))) {
                String id = container.path("Id").asText();
                Process tail = new ProcessBuilder("docker", "logs", "--tail", "1", id).redirectErrorStream(true).start();
                String last = new String(tail.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tail.waitFor() == 0 && last.contains(marker)) {
                    return id;
                }
            }
            assertThat(System.nanoTime()).as("%s printed %s", service, marker).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
    }
}
