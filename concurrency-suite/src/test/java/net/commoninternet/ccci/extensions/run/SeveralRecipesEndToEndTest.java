package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
import net.commoninternet.ccci.testing.HeadlessChromium;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.ResultsSchema;
import net.commoninternet.ccci.testing.Orphanage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many recipes in one command, for real: {@code mvn test -Drecipe=all} runs every bundled recipe
 * in parallel on the local swarm (the canary red, the rest at their levels, exit non-zero,
 * nothing left, a catalogue a person can read in a browser); and a TERM to the whole process group
 * of {@code mvn test -Drecipe=a,b} while both runs are inside their deploys tears both down, each
 * in its own {@code finally}, and ends the command non-zero.
 */
class SeveralRecipesEndToEndTest {

    private static final Duration RUN = Duration.ofMinutes(10);
    private static final int SIGTERM = 15;
    private static final Pattern STARTED = Pattern.compile("== ccci run \\S+ \\(pid \\d+\\): .* app (\\S+), ABRA_DIR");
    private static final Path SCREENSHOTS = Path.of("target/surefire-reports/ccci-screenshots");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothingOnTheSwarm() throws Exception {
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
    }

    /** The recipe's run summary from its run.log, so a wrong level says which check failed and why. */
    private String summary(String recipe) throws IOException {
        Path log = sandbox.resolve("runs/e2e-all-" + recipe + "/run.log");
        if (!Files.exists(log)) {
            return recipe + " (no run.log)";
        }
        String text = Files.readString(log, StandardCharsets.UTF_8);
        int from = text.indexOf("== RUN SUMMARY ==");
        return recipe + ": " + (from < 0 ? "no run summary; its log ends: " + text.substring(Math.max(0, text.length() - 4000))
                : text.substring(from));
    }

    private Map<String, String> env() {
        return new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
    }

    @Test
    void allBundledRecipesRunInParallelTheCanaryRedTheRestAtTheirLevelsAndNothingIsLeft() throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve("all.log"), env(), "-Drecipe=all", "-Dccci.run-id=e2e-all",
                "-Dccci.pr=3030");
        int exit = run.waitFor(RUN);
        String output = run.output();
        Matcher started = STARTED.matcher(output);
        while (started.find()) {
            domains.add(started.group(1));
        }
        List<String> bundled;
        try (Stream<Path> recipes = Files.list(MavenRun.ROOT.resolve("recipe-suites/recipes"))) {
            bundled = recipes.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }

        assertThat(exit).as("the canary is red: the command fails").isNotZero();
        assertThat(domains).as(output).hasSameSizeAs(bundled);
        assertThat(output).contains("== ccci command e2e-all: " + bundled.size() + " recipes",
                "== progress: " + bundled.size() + "/" + bundled.size() + " done, ", "red (", "custom-html-broken",
                ", 0 running ==");
        JsonNode catalogue = new ObjectMapper().readTree(sandbox.resolve("runs/e2e-all/catalogue.json").toFile());
        Map<String, JsonNode> rows = new HashMap<>();
        catalogue.get("recipes").forEach(r -> rows.put(r.get("recipe").asText(), r));
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(bundled);
        // The canaries are red on their upgrade rung; the rest reach their designed levels.
        for (String canary : List.of("custom-html-broken", "custom-html-unbumped")) {
            String why = summary(canary);
            assertThat(rows.get(canary).get("status").asText()).as(why).isEqualTo("failed");
            assertThat(rows.get(canary).get("level").asInt()).as(why).isEqualTo(1);
            assertThat(rows.get(canary).get("rungs").get("upgrade").asText()).as(why).isEqualTo("fail");
        }
        for (Map.Entry<String, Integer> green : Map.of("custom-html", 4, "notes-demo", 4, "guestbook", 5).entrySet()) {
            String why = summary(green.getKey());
            assertThat(rows.get(green.getKey()).get("status").asText()).as(why).isEqualTo("passed");
            assertThat(rows.get(green.getKey()).get("level").asInt()).as(why).isEqualTo(green.getValue());
        }
        long red = rows.values().stream().filter(r -> r.get("status").asText().equals("failed")).count();
        assertThat(catalogue.get("flags").get("no_secret_leak").asBoolean()).isTrue();
        // Each run has its own folder, results, report and badge; they went on at the same time.
        List<Instant[]> spans = new ArrayList<>();
        for (String recipe : bundled) {
            Path runDir = sandbox.resolve("runs/e2e-all-" + recipe);
            for (String file : List.of("results.json", "report.html", "badge.svg", "run.log")) {
                assertThat(runDir.resolve(file)).as(recipe).isRegularFile();
            }
            JsonNode timings = new ObjectMapper().readTree(runDir.resolve("results.json").toFile()).get("timings");
            Instant start = Instant.parse(timings.get("started_at").asText());
            spans.add(new Instant[] {start, start.plusMillis(timings.get("total_ms").asLong())});
            assertThat(Files.readString(runDir.resolve("run.log"), StandardCharsets.UTF_8)).as("run.log of " + recipe)
                    .contains("== RUN SUMMARY ==", "recipe " + recipe + " ").doesNotContain("== ccci run e2e-all-"
                            + bundled.stream().filter(r -> !r.equals(recipe)).findFirst().orElseThrow() + " ");
        }
        assertThat(overlapping(spans)).as("at least two runs went on at once").isTrue();
        // The Open Test Reporting XML carries each run's report and the command's catalogue.
        String otr = Files.readString(MavenRun.ROOT.resolve("recipe-suites/target/surefire-reports/open-test-report.xml"),
                StandardCharsets.UTF_8);
        assertThat(otr).contains("path=\"ccci/catalogue.html\"", "path=\"ccci/catalogue.json\"",
                "path=\"ccci/custom-html-broken/report.html\"", "path=\"ccci/custom-html/badge.svg\"");
        try (DockerEngine docker = DockerEngine.connect()) {
            for (String domain : domains) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).as(domain).isEmpty();
                assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).as(domain).isFalse();
            }
        }
        // What a person sees: the catalogue and the canary's report, in a real browser, at a phone's
        // and a laptop's width, readable (axe-core) and fitting the screen.
        try (HeadlessChromium browser = HeadlessChromium.start(sandbox.resolve("chromium-profile"))) {
            String shown = browser.visibleText(sandbox.resolve("runs/e2e-all/catalogue.html"));
            assertThat(shown).contains("ccci command e2e-all", red + " red", "custom-html-broken", "level 1", "level 4");
            browser.assertReadableOnEveryScreen("e2e-all-catalogue", SCREENSHOTS);
            Path canary = sandbox.resolve("runs/e2e-all-custom-html-broken");
            JsonNode results = new ObjectMapper().readTree(canary.resolve("results.json").toFile());
            shown = browser.visibleText(canary.resolve("report.html"));
            assertThat(shown).contains("level 1", "failed", "Where it broke", "upgrade > moved-to-head",
                    "level 1, not 2: upgrade fail — upgrade > moved-to-head: ",
                    "Upgrade: from " + results.get("upgrade").get("base").asText() + " to "
                            + results.get("upgrade").get("head").asText() + ".",
                    "Checks: " + results.get("tests").size() + " in all: " + results.get("counts").get("passed") + " passed, 1 failed, ",
                    "sandbox runtime", results.get("environment").get("default_runtime").asText());
            assertThat(browser.hrefsOf("tr.check:has(td.failed) td.logs a")).containsExactly("logs/upgrade/app.log");
            assertThat(canary.resolve("logs/upgrade/app.log")).isRegularFile();
            assertThat(browser.textOf("tr.check:has(td.failed) + tr.evidence")).contains("the end of logs/upgrade/app.log");
            browser.assertReadableOnEveryScreen("e2e-all-report-custom-html-broken", SCREENSHOTS);
            assertThat(canary.resolve("summary.md")).content().contains("level 1, failed", "**Failing checks**",
                    "upgrade \\> moved-to-head");
        }
    }

    private static boolean overlapping(List<Instant[]> spans) {
        for (int i = 0; i < spans.size(); i++) {
            for (int j = i + 1; j < spans.size(); j++) {
                if (spans.get(i)[0].isBefore(spans.get(j)[1]) && spans.get(j)[0].isBefore(spans.get(i)[1])) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A Drone cancel of a command of two recipes: SIGTERM to the whole process group while both runs
     * are held inside their deploys (the docker shim's gate, never opened), each with its app up.
     * Maven exits at once; the orphaned fork must tear both apps down, each in its own run's
     * {@code finally}, ignore a second SIGTERM, release both locks, and end non-zero (143 from the
     * guards, or 1 when Surefire's own exit on seeing Maven gone starts the shutdown first).
     */
    @Test
    void sigtermToTheProcessGroupTearsDownEveryLiveRunAndTheCommandFails() throws Exception {
        Path log = sandbox.resolve("command.log");
        Path childrenLog = sandbox.resolve("children.log");
        Helper tree = MavenRun.startHeldInDeploy(helpers, sandbox, log, "-Drecipe=custom-html,custom-html-broken",
                "-Dccci.pr=3031", "-Dccci.run-id=cancelled-several-" + ProcessHandle.current().pid());
        long maven = Long.parseLong(tree.awaitLine("orphanage: started ").split(" ")[2]);
        for (String recipe : List.of("custom-html", "custom-html-broken")) {
            String line = MavenRun.awaitLine(log, "-" + recipe + " (pid ", RUN, tree::isAlive);
            Matcher m = STARTED.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            domains.add(m.group(1));
        }
        long fork = MavenRun.Started.parse(MavenRun.awaitLine(log, "== ccci run ", RUN, tree::isAlive)).pid();
        awaitLines(childrenLog, "deploy held", 2, tree);
        for (String domain : domains) {
            assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).as(domain).isTrue();
        }

        Helper.kill(-maven, SIGTERM);
        awaitLines(log, "== tearing down after ", 2, tree);
        Helper.kill(-maven, SIGTERM);

        assertThat(tree.awaitLine(Orphanage.reaped(fork), RUN)).matches(".* exit (143|1)");
        assertThat(tree.awaitLine(Orphanage.reaped(maven))).doesNotEndWith(" exit 0");
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(Helper.Stat.groupAlive(maven)).isFalse();
        String written = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(written).contains("stopping 2 runs (custom-html, custom-html-broken) — tearing down ==",
                "== SIGTERM during teardown — ignored");
        try (DockerEngine docker = DockerEngine.connect()) {
            for (String domain : domains) {
                assertThat(written).contains("== teardown of " + domain + ": clean ==");
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).as(domain).isEmpty();
                assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).as(domain).isFalse();
            }
        }
    }

    /** Waits until {@code file} holds {@code count} lines with {@code fragment} (observed, not timed). */
    private static void awaitLines(Path file, String fragment, int count, Helper writer) throws Exception {
        long deadline = System.nanoTime() + RUN.toNanos();
        while (true) {
            long seen = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains(fragment)).count() : 0;
            if (seen >= count) {
                return;
            }
            assertThat(writer.isAlive() && System.nanoTime() < deadline)
                    .as("%d lines with '%s' in %s (saw %d)", count, fragment, file, seen).isTrue();
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }
}
