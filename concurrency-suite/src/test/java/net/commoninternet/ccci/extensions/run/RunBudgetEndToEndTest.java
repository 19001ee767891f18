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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
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
 * A run's own clock, for real: a recipe whose convergence never ends (its healthcheck never passes
 * inside an hour's start period) and whose timeout label asks for a day. The label is clamped to the
 * host's most, in one line; the run's budget ({@code -Dccci.run-budget}) stops that run alone, as a
 * SIGTERM would but for it only: its wait interrupted, its stack torn down, its app lock freed, and
 * it fails in one sentence naming the budget and the key. The command goes on: the next run of it
 * (one after the other, so it starts only once the first is over) starts, passes, and the command
 * ends 1, not 142 or 143. The time from the stuck run's start to the next run's start is measured
 * here, from outside, against the budget. Its exit 1 is ccci's verdict: Surefire, whose
 * {@code rerunFailingTestsCount} recipe-suites sets, counts the stopped run's class-level failure as a
 * flake once the next run's checks passed, and its own result alone would end the command 0.
 */
@RealEngine
class RunBudgetEndToEndTest {

    /**
     * Each run's budget: the stuck run waits it out, and the steady run's whole install (deploy, a gVisor
     * start, its checks' probe container) must fit in it on a machine busy with the suite's other forks.
     */
    private static final int BUDGET_SECONDS = 75;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothing() throws Exception {
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
    }

    private void recipe(String name, String healthcheck, String label) throws IOException {
        Path dir = Files.createDirectories(sandbox.resolve("recipes").resolve(name));
        Files.writeString(dir.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: ["sh", "-c", "mkdir -p /srv && echo ok > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                    networks: [proxy]
                %s    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                %snetworks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX, healthcheck, label), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(".env.sample"), "TYPE=" + name + "\n", StandardCharsets.UTF_8);
    }

    @Test
    void aRunWhoseConvergenceNeverEndsIsStoppedAloneAtItsBudgetTornDownAndTheCommandsNextRunStartsAndPasses()
            throws Exception {
        recipe("stuck", """
                    healthcheck:
                      test: ["CMD", "false"]
                      interval: 30s
                      start_period: 1h
                """, """
                        - "coop-cloud.${STACK_NAME}.timeout=86400"
                """);
        recipe("steady", "", "");
        Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
        MavenRun run = MavenRun.start(sandbox.resolve("budget.log"), env, "-Drecipe=stuck,steady",
                "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.stages=install", "-Dccci.run-id=budget",
                "-Dccci.parallel.enabled=false", "-Dccci.run-budget=" + BUDGET_SECONDS, "-Dccci.max-deploy-timeout=600");
        String stuck;
        String steady;
        Duration stuckFor;
        int exit;
        try {
            stuck = MavenRun.Started.parse(run.awaitLine("== ccci run budget-stuck ", Duration.ofMinutes(5))).domain();
            long stuckSeen = System.nanoTime();
            domains.add(stuck);
            // one run after the other: the next starts only once the stuck one is over (torn down, lock and slot freed);
            // without the budget it would wait out its clamped 600 s deploy timeout
            steady = MavenRun.Started.parse(run.awaitLine("== ccci run budget-steady ",
                    Duration.ofSeconds(BUDGET_SECONDS + 180))).domain();
            stuckFor = Duration.ofNanos(System.nanoTime() - stuckSeen);
            domains.add(steady);
            exit = run.waitFor(Duration.ofMinutes(5));
        } finally {
            if (run.process.isAlive()) {
                run.kill(); // a failed wait leaves no run going; the stacks go in leaveNothing
            }
        }

        String out = run.output();
        assertThat(exit).as(out).isEqualTo(1);
        // measured from outside: past the budget (the wait never ends by itself) by no more than a teardown
        assertThat(stuckFor).as(out).isBetween(Duration.ofSeconds(BUDGET_SECONDS - 10), Duration.ofSeconds(BUDGET_SECONDS + 90));
        String stack = AppNaming.stackName(stuck);
        assertThat(out).contains("deploy timeout 600 s, this host's most (-Dccci.max-deploy-timeout=600): the recipe's coop-cloud."
                + stack + ".timeout label asks for 86400 s, and a recipe may shorten the wait, never lengthen it");
        String sentence = "it exceeded its " + BUDGET_SECONDS + "-second budget, which this host sets with -Dccci.run-budget="
                + BUDGET_SECONDS;
        assertThat(out).contains("!! stuck: " + sentence + ": stopping the run — tearing down !!",
                "== teardown of " + stuck + ": clean ==",
                "install > deploy: failed — the run was stopped: " + sentence,
                "the run was stopped and torn down: " + sentence);
        assertThat(out).doesNotContain("not started: the command was stopped", "hard deadline —");
        // Surefire (rerunFailingTestsCount=1) counts the stuck run's class-level failure as a flake once the
        // steady run's checks passed: the build fails on ccci's verdict, read after Surefire (CommandVerdict)
        assertThat(out).contains("[ERROR] ccci: run budget-stuck failed (its RUN SUMMARY says why)");

        JsonNode catalogue = new ObjectMapper().readTree(sandbox.resolve("runs/budget/catalogue.json").toFile());
        Map<String, Integer> levels = new HashMap<>();
        catalogue.path("recipes").forEach(r -> levels.put(r.path("recipe").asText(), r.path("level").asInt()));
        assertThat(levels).as(catalogue.toPrettyString()).containsEntry("stuck", 0).containsEntry("steady", 1);
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(stack)).isEmpty();
        }
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, stuck))).isFalse();
    }
}
