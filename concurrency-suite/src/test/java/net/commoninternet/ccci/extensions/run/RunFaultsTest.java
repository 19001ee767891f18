package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.ChildShims;
import net.commoninternet.ccci.testing.EngineRestart;
import net.commoninternet.ccci.testing.ForkShares.AloneOnTheEngine;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults a busy CI host really sees, each forced for real on real {@code mvn test -Drecipe=...}
 * runs: the first run of a double-!testme SIGKILLed while the second waits at the app lock; the
 * Docker engine stopped mid-deploy; the disk under the runs folder full mid-run.
 */
@RealEngine
class RunFaultsTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothingOnTheSwarm() throws Exception {
        if (!EngineRestart.swarmActive()) {
            EngineRestart.start();
        }
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
    }

    private Map<String, String> env() {
        return new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
    }

    /** A small recipe of its own with a generated secret: a second app of its domain meets the first's secret. */
    private Path recipeWithASecret() throws IOException {
        Path recipe = Files.createDirectories(sandbox.resolve("recipes/faultsite"));
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  web:
                    image: %s
                    command: ["sh", "-c", "mkdir -p /srv && echo ok > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                    networks: [proxy]
                    secrets: [db_password]
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                secrets:
                  db_password:
                    external: true
                    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}
                networks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX), StandardCharsets.UTF_8);
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=faultsite\nSECRET_DB_PASSWORD_VERSION=v1\n",
                StandardCharsets.UTF_8);
        return recipe.getParent();
    }

    private MavenRun start(String name, Map<String, String> env, String... properties) throws IOException {
        return MavenRun.start(sandbox.resolve(name + ".log"), env, properties);
    }

    private String domainOf(MavenRun run) throws IOException {
        String domain = MavenRun.Started.parse(run.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain();
        domains.add(domain);
        return domain;
    }

    /**
     * A double-!testme whose first run dies mid-deploy: the second run, parked at the app lock while the
     * first was live (so its janitor left that app alone), wins the lock and must reap what the
     * first left before it creates its own app, or its secret "already exists".
     */
    @Test
    void theRunThatWinsTheAppLockAfterAKilledFirstRunReapsWhatItLeftAndPasses() throws Exception {
        Path recipes = recipeWithASecret();
        String[] same = {"-Drecipe=faultsite", "-Dccci.recipes=" + recipes, "-Dccci.pr=3101", "-Dccci.stages=install"};
        // The first run is held inside its deploy (its stack and secret created) until it is killed.
        Path children = sandbox.resolve("children.log");
        Map<String, String> held = env();
        held.putAll(ChildShims.install(sandbox.resolve("bin"), children));
        held.put(ChildShims.GATE, sandbox.resolve("never-opened").toString());
        MavenRun first = start("first", held, concat(same, "-Dccci.run-id=dup-first"));
        String domain = domainOf(first);
        MavenRun.awaitLine(children, "deploy held", Duration.ofMinutes(5), first.process::isAlive);
        MavenRun second = start("second", env(), concat(same, "-Dccci.run-id=dup-second"));
        second.awaitLine("== app lock: another run of " + domain + " is in flight — waiting ==", Duration.ofMinutes(5));

        first.killGroup();

        assertThat(second.waitFor(Duration.ofMinutes(10))).as(second.output()).isZero();
        assertThat(second.output()).containsSubsequence("janitor: " + domain + " is live (its lock is held): left alone",
                "== app lock: " + domain + " is ours; a run of it that died left its app behind — reaping it first ==",
                "janitor: " + domain + " reaped", "deploying " + AppNaming.stackName(domain), "== RUN SUMMARY ")
                .doesNotContain("already exists");
        assertThat(leftovers(domain)).isEmpty();
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).isFalse();
    }

    /**
     * dockerd stopped while the run is inside its deploy (held there by the docker shim's gate):
     * the run fails with one line naming the engine, its teardown says the engine is not answering
     * and retries, and once the engine is started again (as the set-up starts it) the teardown
     * removes the app within its bound.
     */
    @Test
    @AloneOnTheEngine
    void theEngineStoppedMidDeployFailsTheRunWithOneLineAndTheTeardownFinishesOnceItIsBack() throws Exception {
        Path recipes = recipeWithASecret();
        Path children = sandbox.resolve("children.log");
        Path gate = sandbox.resolve("gate");
        Map<String, String> env = env();
        env.putAll(ChildShims.install(sandbox.resolve("bin"), children));
        env.put(ChildShims.GATE, gate.toString());
        MavenRun run = start("engine", env, "-Drecipe=faultsite", "-Dccci.recipes=" + recipes, "-Dccci.pr=3102",
                "-Dccci.stages=install", "-Dccci.run-id=engine-gone");
        String domain = domainOf(run);
        MavenRun.awaitLine(children, "deploy held", Duration.ofMinutes(5), run.process::isAlive);

        EngineRestart.stop();
        Files.createFile(gate);
        run.awaitLine("the Docker engine is not answering", Duration.ofMinutes(5));
        EngineRestart.start();

        assertThat(run.waitFor(Duration.ofMinutes(10))).as(run.output()).isNotZero();
        String output = run.output();
        assertThat(output).contains("the Docker engine at unix:///var/run/docker.sock stopped answering during the run (",
                "): the run cannot go on; check that dockerd is running",
                "stack " + AppNaming.stackName(domain) + " removed: no service, container, volume, secret, config or"
                        + " network left", "== teardown of " + domain + ": clean ==", "== RUN SUMMARY ",
                // an empty pass right after the outage is not believed until the swarm lists its networks again
                "the engine is back; one more pass once its swarm lists its networks again");
        assertThat(leftovers(domain)).isEmpty();
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).isFalse();
    }

    /**
     * The runs folder on a real tmpfs that fills up once the app is deployed: the service logs,
     * run.log, the state files and results.json can no longer be written, and none of that changes
     * the verdict (a passing run stays green) or hides the RUN SUMMARY.
     */
    @Test
    void aFullDiskUnderTheRunsFolderChangesNoVerdictAndTheRunSummaryIsStillPrinted() throws Exception {
        Path runs = Files.createDirectories(sandbox.resolve("full-runs"));
        mount(runs);
        try {
            Map<String, String> env = env();
            env.put("CCCI_RUNS_DIR", runs.toString());
            MavenRun run = start("full", env, "-Drecipe=custom-html", "-Dccci.pr=3103", "-Dccci.stages=install,custom",
                    "-Dccci.run-id=disk-full");
            String domain = domainOf(run);
            run.awaitLine("converged", Duration.ofMinutes(5));

            fill(runs);

            assertThat(run.waitFor(Duration.ofMinutes(10))).as(run.output()).isZero();
            String output = run.output();
            Matcher summary = Pattern.compile("level \\d: install pass").matcher(output);
            assertThat(summary.find()).as(output).isTrue();
            assertThat(output).contains("== RUN SUMMARY ", "results not written (", "No space left on device",
                    "== teardown of " + domain + ": clean ==");
            assertThat(runs.resolve("disk-full/results.json")).doesNotExist();
            assertThat(leftovers(domain)).isEmpty();
        } finally {
            umount(runs);
        }
    }

    private static void mount(Path dir) throws Exception {
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=24m", "ccci-i13-full", dir.toString())
                .redirectErrorStream(true).start();
        assertThat(mount.waitFor()).as(new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }

    private static void umount(Path dir) throws Exception {
        new ProcessBuilder("umount", dir.toString()).inheritIO().start().waitFor();
    }

    /** Writes until the file system says it is full (ENOSPC), then checks it is. */
    private static void fill(Path dir) throws IOException {
        byte[] block = new byte[1 << 16];
        try (var out = Files.newOutputStream(dir.resolve("filler"))) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            assertThat(full.getMessage()).contains("No space left on device");
        }
        assertThat(dir.toFile().getUsableSpace()).isZero();
    }

    private static List<String> leftovers(String domain) throws Exception {
        try (DockerEngine docker = DockerEngine.connect()) {
            return new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain));
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
