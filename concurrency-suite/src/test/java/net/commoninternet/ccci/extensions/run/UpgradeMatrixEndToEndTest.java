package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upgrade from several bases ({@code -Dccci.upgrade-from}) on the real swarm, with recipes of
 * several releases: a head that cannot read the data format only its oldest base wrote fails the
 * upgrade from that base alone, and the command fails naming it; a base whose image is not on this
 * engine is a skip with its reason. Every base's app is gone after the command.
 */
@RealEngine
class UpgradeMatrixEndToEndTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    /**
     * A compose of one busybox service serving a page and keeping a data format in a volume;
     * {@code start} runs first in its shell. Its healthcheck makes a task that cannot start never
     * healthy, so the upgrade's rollout fails at once rather than a probe waiting out its timeout
     * (a {@code start} that exits ends its task at once); its start period and timeout leave a loaded
     * machine's gVisor room to answer the first checks: a check missed there would kill a healthy task.
     */
    private static String compose(String version, String image, String start) {
        return """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: ["sh", "-c", "%s mkdir -p /srv/www && echo ok > /srv/www/index.html && trap 'exit 0' TERM && httpd -f -p 8000 -h /srv/www & wait"]
                    volumes:
                      - data:/data
                    networks:
                      - proxy
                    healthcheck:
                      test: ["CMD", "wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8000/"]
                      interval: 2s
                      timeout: 10s
                      retries: 3
                      start_period: 120s
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`)"
                        - "coop-cloud.${STACK_NAME}.version=%s"
                volumes:
                  data:
                networks:
                  proxy:
                    external: true
                """.formatted(image, start, version);
    }

    /** A git recipe {@code name} of the releases {@code versions}, in order, each with the compose and .env.sample given. */
    private Path recipe(String name, List<String> versions, UnaryOperator<String> composeOf, UnaryOperator<String> envOf)
            throws IOException, InterruptedException {
        Path recipe = Files.createDirectories(sandbox.resolve("recipes").resolve(name));
        git(recipe, "init", "-q", "-b", "main");
        for (String version : versions) {
            Files.writeString(recipe.resolve("compose.yml"), composeOf.apply(version), StandardCharsets.UTF_8);
            Files.writeString(recipe.resolve(".env.sample"), "TYPE=" + name + "\nDOMAIN=" + name + ".example.com\n"
                    + envOf.apply(version));
            git(recipe, "add", "-A");
            git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "commit", "-q", "-m", version);
            git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "tag", "-a", "-m", version, version);
        }
        return recipe;
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (git.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
    }

    /** The command's exit and output; every app it names is checked gone from the engine (and reaped if not). */
    private String run(String runId, String recipe, String upgradeFrom) throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve(runId + ".log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=" + recipe, "-Dccci.recipes=" + sandbox.resolve("recipes"),
                "-Dccci.stages=install,upgrade", "-Dccci.upgrade-from=" + upgradeFrom, "-Dccci.run-id=" + runId);
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        Set<String> apps = new LinkedHashSet<>();
        Matcher named = APP.matcher(output);
        while (named.find()) {
            apps.add(named.group(1));
        }
        List<String> left = new ArrayList<>();
        try (DockerEngine docker = DockerEngine.connect()) {
            StackTeardown stacks = new StackTeardown(docker.client());
            for (String app : apps) {
                left.addAll(stacks.leftovers(AppNaming.stackName(app)));
                MavenRun.removeLeftovers(app);
            }
        }
        assertThat(left).as("what the command left on the engine").isEmpty();
        assertThat(apps).as("the run's app and each other base's").hasSizeGreaterThanOrEqualTo(2);
        Path results = sandbox.resolve("runs").resolve(runId).resolve("results.json");
        assertThat(results).as("the command's results; its output ends:%n%s", output.substring(Math.max(0, output.length() - 4000)))
                .exists();
        ResultsSchema.assertValid(results);
        return exit + "\n" + output;
    }

    private JsonNode upgrades(String runId) throws IOException {
        return new ObjectMapper().readTree(sandbox.resolve("runs").resolve(runId).resolve("results.json").toFile()).get("upgrades");
    }

    private static List<String> cells(JsonNode upgrades) {
        List<String> cells = new ArrayList<>();
        upgrades.forEach(u -> cells.add(u.get("base").asText() + " " + u.get("status").asText()));
        return cells;
    }

    @Test
    void lastThreeOfFourReleasesShowsOnlyTheUpgradeFromTheOldestRedAndTheCommandFailsNamingIt() throws Exception {
        // 0.1.0 writes the v1 format, 0.2.0 and 0.3.0 migrate it to v2, the head refuses v1; MAIL_FROM comes in 0.2.0
        recipe("matrixsite", List.of("0.1.0+1.0", "0.2.0+1.0", "0.3.0+1.0", "0.4.0+1.0"), v -> compose(v, "ccci.local/busybox:1",
                v.startsWith("0.1.") ? "echo v1 > /data/format;" : v.startsWith("0.4.")
                        ? "if [ \\\"$$(cat /data/format 2>/dev/null)\\\" = v1 ]; then echo cannot read the v1 format; exit 1; fi;"
                        : "echo v2 > /data/format;"),
                v -> v.startsWith("0.1.") ? "" : "MAIL_FROM=noreply@example.com\n");

        String result = run("matrix1", "matrixsite", "last:3");

        assertThat(result).doesNotStartWith("0\n").contains("the upgrade to the head failed from 0.1.0+1.0 (");
        JsonNode upgrades = upgrades("matrix1");
        assertThat(cells(upgrades)).containsExactly("0.3.0+1.0 pass", "0.2.0+1.0 pass", "0.1.0+1.0 fail");
        assertThat(upgrades.get(2).get("operator_actions").toString()).contains("MAIL_FROM");
        assertThat(upgrades.get(1).get("operator_actions")).isEmpty();
        assertThat(sandbox.resolve("runs/matrix1/summary.md")).content().contains("| `0.1.0+1.0` | fail: ");
    }

    @Test
    void aBaseWhoseImageIsNotOnThisEngineIsASkipWithItsReasonNeverAFailure() throws Exception {
        recipe("gonesite", List.of("0.1.0+1.0", "0.2.0+1.0", "0.3.0+1.0"), v -> compose(v,
                v.startsWith("0.1.") ? "ccci.local/no-such-image-of-ccci:1" : "ccci.local/busybox:1", ""), v -> "");

        String result = run("matrix2", "gonesite", "all");

        assertThat(result).startsWith("0\n");
        JsonNode upgrades = upgrades("matrix2");
        assertThat(cells(upgrades)).containsExactly("0.2.0+1.0 pass", "0.1.0+1.0 skip");
        assertThat(upgrades.get(1).get("reason").asText()).startsWith("the base could not be deployed here: ")
                .contains("no-such-image-of-ccci");
    }

    /**
     * A Drone cancel mid-matrix: SIGTERM to the Maven process group while the run's own deploy and
     * the other base's are both held inside {@code docker stack deploy} (the shim's gate, never
     * opened). The run's teardown stops the base's upgrade and waits for it: both apps are removed
     * and both domains' locks released.
     */
    @Test
    void aCancelMidMatrixTearsDownEveryBasesApp() throws Exception {
        recipe("cancelsite", List.of("0.1.0+1.0", "0.2.0+1.0", "0.3.0+1.0"), v -> compose(v, "ccci.local/busybox:1", ""), v -> "");
        Path runLog = sandbox.resolve("run.log");
        Path childrenLog = sandbox.resolve("children.log");
        Helper tree = MavenRun.startHeldInDeploy(helpers, sandbox, runLog, 1, "-Drecipe=cancelsite",
                "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.stages=install,upgrade", "-Dccci.upgrade-from=all",
                "-Dccci.run-id=matrix3-" + ProcessHandle.current().pid());
        long maven = Long.parseLong(tree.awaitLine("orphanage: started ").split(" ")[2]);
        Duration wait = Duration.ofMinutes(5);
        String own = MavenRun.Started.parse(MavenRun.awaitLine(runLog, "== ccci run ", wait, tree::isAlive)).domain();
        String base = MavenRun.awaitLine(runLog, "== upgrade from 0.1.0+1.0: app ", wait, tree::isAlive)
                .replaceAll(".*: app (\\S+) ==.*", "$1");
        try {
            // both deploys held: the run's own and the base's
            MavenRun.awaitLine(childrenLog, "deploy held", wait, tree::isAlive);
            awaitLines(childrenLog, "deploy held", 2, wait);

            Helper.kill(-maven, 15);

            tree.awaitLine("orphanage: done", wait);
            String log = Files.readString(runLog, StandardCharsets.UTF_8);
            assertThat(log).contains("== teardown of " + base + " (upgrade from 0.1.0+1.0): clean ==",
                    "== teardown of " + own + ": clean ==");
            try (DockerEngine docker = DockerEngine.connect()) {
                StackTeardown stacks = new StackTeardown(docker.client());
                assertThat(stacks.leftovers(AppNaming.stackName(own))).isEmpty();
                assertThat(stacks.leftovers(AppNaming.stackName(base))).isEmpty();
            }
            assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, own))).isFalse();
            assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, base))).isFalse();
        } finally {
            MavenRun.removeLeftovers(own);
            MavenRun.removeLeftovers(base);
        }
    }

    /** Waits until {@code file} holds {@code count} lines containing {@code text}. */
    private static void awaitLines(Path file, String text, int count, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> l.contains(text)).count() < count) {
            assertThat(System.nanoTime()).as("%d lines of %s in %s", count, text, file).isLessThan(deadline);
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(200));
        }
    }
}
