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
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.ForkNamespace;
import net.commoninternet.ccci.testing.HeadlessChromium;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import net.commoninternet.ccci.testing.ResultsSchema;
import net.commoninternet.ccci.testing.RunSpans;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Many recipes in one command, for real: {@code mvn test -Drecipe=all} runs every bundled recipe
 * on the local swarm, never more at once than the parallelism (the canary red, the rest at their
 * levels, exit non-zero, nothing left, a catalogue a person can read in a browser); and a TERM to
 * the whole process group of {@code mvn test -Drecipe=a,b} while both runs are inside their
 * deploys tears both down, each in its own {@code finally}, and ends the command non-zero.
 *
 * <p>The one command of every bundled recipe is made once for the class ({@link AllBundled}), and
 * each recipe's own end-to-end assertions read what its run left (its run.log, results.json, its
 * testcases in the command's Surefire XML, the swarm after it): they only read, so one command
 * serves them all, where each was a command of its own.
 */
@RealEngine
class SeveralRecipesEndToEndTest {

    private static final Duration RUN = Duration.ofMinutes(10);
    private static final int SIGTERM = 15;
    private static final Pattern STARTED = Pattern.compile("== ccci run \\S+ \\(pid \\d+\\): .* app (\\S+), ABRA_DIR");
    private static final Path SCREENSHOTS = Path.of("target/surefire-reports/ccci-screenshots");
    /** The all-run's bound: below the number of bundled recipes, so some of them wait for a slot. */
    private static final int PARALLELISM = 2;

    @TempDir
    Path sandbox;

    @TempDir
    static Path shared;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private final List<String> domains = new ArrayList<>();

    private static AllBundled all;

    @AfterEach
    void leaveNothingOnTheSwarm() throws Exception {
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
    }

    @AfterAll
    static void leaveNothingOfTheAllRun() throws Exception {
        if (all != null) {
            for (String domain : all.domains.values()) {
                MavenRun.removeLeftovers(domain);
            }
        }
    }

    /**
     * {@code mvn test -Drecipe=all} at parallelism {@value #PARALLELISM}, once for the class, on first
     * use: its exit status, console, run domains by recipe, and where its runs and reports are.
     */
    static final class AllBundled {
        final int exit;
        final String output;
        final Map<String, String> domains = new TreeMap<>();
        final Path runs;
        final Path reports;

        private AllBundled(int exit, String output, Path runs, Path reports) {
            this.exit = exit;
            this.output = output;
            this.runs = runs;
            this.reports = reports;
        }

        static synchronized AllBundled run() throws Exception {
            if (all == null) {
                Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", shared.resolve("runs").toString(),
                        "ABRA_DIR", shared.resolve("abra").toString()));
                MavenRun run = MavenRun.start(shared.resolve("all.log"), env, "-Drecipe=all", "-Dccci.run-id=e2e-all",
                        "-Dccci.pr=3030", "-Dccci.parallel.parallelism=" + PARALLELISM);
                int exit = run.waitFor(RUN);
                AllBundled made = new AllBundled(exit, run.output(), shared.resolve("runs"), run.reports());
                Matcher started = Pattern.compile("== ccci run e2e-all-(\\S+) \\(pid \\d+\\): .* app (\\S+), ABRA_DIR")
                        .matcher(made.output);
                while (started.find()) {
                    made.domains.put(started.group(1), started.group(2));
                }
                all = made;
                assertThat(ResultsSchema.assertEveryValid(made.runs)).as(made.output).isEqualTo(made.domains.size());
            }
            return all;
        }

        /** The run folder of {@code recipe}'s run. */
        Path dir(String recipe) {
            return runs.resolve("e2e-all-" + recipe);
        }

        String runLog(String recipe) throws IOException {
            return Files.readString(dir(recipe).resolve("run.log"), StandardCharsets.UTF_8);
        }

        String results(String recipe) throws IOException {
            return Files.readString(dir(recipe).resolve("results.json"), StandardCharsets.UTF_8);
        }

        /** The command's Surefire XML: every run's testcases. */
        String report() throws IOException {
            return Files.readString(reports.resolve(REPORT), StandardCharsets.UTF_8);
        }

        /** The names of {@code recipe}'s testcases that failed or erred. */
        List<String> failedChecks(String recipe) throws Exception {
            NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(reports.resolve(REPORT).toFile())
                    .getElementsByTagName("testcase");
            List<String> failed = new ArrayList<>();
            for (int i = 0; i < cases.getLength(); i++) {
                Element testcase = (Element) cases.item(i);
                String name = testcase.getAttribute("name");
                if (name.startsWith(recipe + " > ") && (testcase.getElementsByTagName("failure").getLength() > 0
                        || testcase.getElementsByTagName("error").getLength() > 0)) {
                    failed.add(name);
                }
            }
            return failed;
        }

        /** Nothing of {@code recipe}'s app is left on the swarm, and its lock is free. */
        void assertNothingLeftOf(String recipe) throws Exception {
            String domain = domains.get(recipe);
            assertThat(domain).as(output).isNotNull();
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).as(domain).isEmpty();
            }
            assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).as(domain).isFalse();
        }
    }

    private static final String REPORT = "TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml";

    /** The recipe's run summary from its run.log, so a wrong level says which check failed and why. */
    private static String summary(String recipe) throws IOException {
        Path log = all.dir(recipe).resolve("run.log");
        if (!Files.exists(log)) {
            return recipe + " (no run.log)";
        }
        String text = Files.readString(log, StandardCharsets.UTF_8);
        int from = text.indexOf("== RUN SUMMARY ");
        return recipe + ": " + (from < 0 ? "no run summary; its log ends: " + text.substring(Math.max(0, text.length() - 4000))
                : text.substring(from));
    }

    @Test
    void allBundledRecipesRunInParallelTheCanaryRedTheRestAtTheirLevelsAndNothingIsLeft() throws Exception {
        AllBundled run = AllBundled.run();
        String output = run.output;
        List<String> bundled;
        try (Stream<Path> recipes = Files.list(MavenRun.ROOT.resolve("recipe-suites/recipes"))) {
            bundled = recipes.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        }

        assertThat(run.exit).as("the canary is red: the command fails").isNotZero();
        assertThat(run.domains.keySet()).as(output).containsExactlyElementsOf(bundled);
        assertThat(output).contains("== ccci command e2e-all: " + bundled.size() + " recipes",
                "== progress: " + bundled.size() + "/" + bundled.size() + " done, ", "red (", "custom-html-broken",
                ", 0 running ==");
        JsonNode catalogue = new ObjectMapper().readTree(run.runs.resolve("e2e-all/catalogue.json").toFile());
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
        // Each run has its own folder, results, report and badge; they went on at the same time, never
        // more at once than the parallelism, and each run beyond it said once that it waited for a slot.
        List<Instant[]> spans = new ArrayList<>();
        for (String recipe : bundled) {
            Path runDir = run.dir(recipe);
            for (String file : List.of("results.json", "report.html", "badge.svg", "run.log")) {
                assertThat(runDir.resolve(file)).as(recipe).isRegularFile();
            }
            JsonNode timings = new ObjectMapper().readTree(runDir.resolve("results.json").toFile()).get("timings");
            Instant start = Instant.parse(timings.get("started_at").asText());
            spans.add(new Instant[] {start, start.plusMillis(timings.get("total_ms").asLong())});
            assertThat(run.runLog(recipe)).as("run.log of " + recipe)
                    .contains("== RUN SUMMARY ", "recipe " + recipe + " ").doesNotContain("== ccci run e2e-all-"
                            + bundled.stream().filter(r -> !r.equals(recipe)).findFirst().orElseThrow() + " ");
        }
        assertThat(RunSpans.mostAtOnce(spans)).as("most runs at once (parallelism %d)", PARALLELISM).isEqualTo(PARALLELISM);
        assertThat(output.lines().filter(l -> l.contains(" waits for a run slot: " + PARALLELISM + " run(s) at once")))
                .as(output).hasSize(bundled.size() - PARALLELISM);
        // The Open Test Reporting XML carries each run's report and the command's catalogue.
        String otr = Files.readString(run.reports.resolve("open-test-report.xml"), StandardCharsets.UTF_8);
        assertThat(otr).contains("path=\"ccci/catalogue.html\"", "path=\"ccci/catalogue.json\"",
                "path=\"ccci/custom-html-broken/report.html\"", "path=\"ccci/custom-html/badge.svg\"");
        // The command ended once every run had: each run's RUN SUMMARY and its clean teardown are in its console,
        // the red ones' too, none cut off by Surefire's end of the command (its rerun of the failed checks included).
        assertThat(output.lines().filter(l -> l.startsWith("== END RUN SUMMARY ")).distinct()).as(output).hasSize(bundled.size());
        for (String domain : run.domains.values()) {
            assertThat(output).as(output).contains("== teardown of " + domain + ": clean ==");
        }
        for (String recipe : bundled) {
            run.assertNothingLeftOf(recipe);
        }
        // What a person sees: the catalogue and the canary's report, in a real browser, at a phone's
        // and a laptop's width, readable (axe-core) and fitting the screen.
        try (HeadlessChromium browser = HeadlessChromium.start(sandbox.resolve("chromium-profile"))) {
            String shown = browser.visibleText(run.runs.resolve("e2e-all/catalogue.html"));
            assertThat(shown).contains("ccci command e2e-all", red + " red", "custom-html-broken", "level 1", "level 4");
            browser.assertReadableOnEveryScreen("e2e-all-catalogue", SCREENSHOTS);
            Path canary = run.dir("custom-html-broken");
            JsonNode results = new ObjectMapper().readTree(canary.resolve("results.json").toFile());
            shown = browser.visibleText(canary.resolve("report.html"));
            // said in the maintainer's words: the head under test in the title, the check's sentence in the recipe's terms
            assertThat(shown).contains("custom-html-broken 1.1.0+1.36.1", "level 1", "failed", "Where it broke",
                    "upgrade > moved-to-head", "level 1, not 2: upgrade fail — upgrade > moved-to-head: the upgrade left"
                            + " 1.0.0+1.36.0 running with the same images; the head under test is 1.1.0+1.36.1,",
                    "Upgrade: from " + results.get("upgrade").get("base").asText() + " to "
                            + results.get("upgrade").get("head").asText() + ".",
                    "Checks: " + results.get("tests").size() + " in all: " + results.get("counts").get("passed") + " passed, 1 failed, ",
                    "sandbox runtime", results.get("environment").get("default_runtime").asText());
            assertThat(browser.hrefsOf("tr.check:has(td.failed) td.logs a")).containsExactly("logs/upgrade/app.log");
            assertThat(canary.resolve("logs/upgrade/app.log")).isRegularFile();
            // the busybox app logs nothing: its empty log gives way to what ccci logged of the upgrade
            assertThat(browser.textOf("tr.check:has(td.failed) + tr.evidence")).contains(
                    "The service logs of the upgrade are empty (logs/upgrade/app.log).", "the end of run.log, its lines of the upgrade",
                    "custom-html-broken upgrade started", "deploying " + AppNaming.stackName(run.domains.get("custom-html-broken")));
            browser.assertReadableOnEveryScreen("e2e-all-report-custom-html-broken", SCREENSHOTS);
            assertThat(canary.resolve("summary.md")).content().contains("### ccci: `custom-html-broken` `1.1.0+1.36.1`",
                    "level 1, failed", "**Failing checks**", "`upgrade > moved-to-head`: `the upgrade left 1.0.0+1.36.0 running");
        }
    }

    /** AssertJ's phrasing, an Optional's and a record's toString: what no maintainer-facing text of a built-in check carries. */
    private static final Pattern NOT_WORDS = Pattern.compile("Expecting actual|Optional\\[|\\b[A-Z][A-Za-z0-9]*\\[[a-z][A-Za-z0-9]*=");

    /** Every run's report.html, summary.md, results.json and RUN SUMMARY, the canary's red one included, in words. */
    @Test
    void noRunsReportSummaryResultsOrRunSummaryCarriesAssertJsPhrasingOrJavasToString() throws Exception {
        AllBundled run = AllBundled.run();
        for (String recipe : run.domains.keySet()) {
            String log = run.runLog(recipe);
            int summary = log.indexOf("== RUN SUMMARY ");
            assertThat(summary).as(summary(recipe)).isNotNegative();
            Map<String, String> texts = Map.of("RUN SUMMARY", log.substring(summary), "results.json", run.results(recipe),
                    "report.html", Files.readString(run.dir(recipe).resolve("report.html")),
                    "summary.md", Files.readString(run.dir(recipe).resolve("summary.md")));
            texts.forEach((what, text) -> {
                Matcher leak = NOT_WORDS.matcher(text);
                assertThat(leak.find() ? text.substring(Math.max(0, leak.start() - 200), Math.min(text.length(), leak.end() + 200))
                        : "").as("%s of %s", what, recipe).isEmpty();
            });
        }
        assertThat(run.runLog("custom-html-broken")).contains("recipe custom-html-broken 1.1.0+1.36.1 (pr ",
                "upgrade > moved-to-head: failed (deterministic: failed 3 of 3 attempts) — the upgrade left 1.0.0+1.36.0"
                        + " running with the same images; the head under test is 1.1.0+1.36.1, but its compose.yml still"
                        + " labels the version 1.0.0+1.36.0");
    }

    @Test
    void theBrokenCanaryComesOutRedOnTheUpgradeRungAndStillLeavesNothing() throws Exception {
        AllBundled run = AllBundled.run();
        assertThat(run.failedChecks("custom-html-broken")).as(summary("custom-html-broken"))
                .containsExactly("custom-html-broken > upgrade > moved-to-head");
        assertThat(run.runLog("custom-html-broken")).contains("level 1: install pass, upgrade fail");
        assertThat(run.results("custom-html-broken")).contains("\"level\" : 1", "\"upgrade\" : \"fail\"",
                "\"clean_teardown\" : true");
        run.assertNothingLeftOf("custom-html-broken");
    }

    /** The canary that forgot to bump a config version: RED on the upgrade rung, with one line naming the bump. */
    @Test
    void theCanaryThatForgotToBumpItsConfigVersionIsRedOnTheUpgradeRungWithTheVariableToBump() throws Exception {
        AllBundled run = AllBundled.run();
        String domain = run.domains.get("custom-html-unbumped");
        String line = "upgrade: failed — config nginx_conf of custom-html-unbumped changed (nginx.conf.tmpl) but kept its"
                + " name " + AppNaming.stackName(domain) + "_nginx_conf_v1, and swarm never updates a config in place:"
                + " bump NGINX_CONF_VERSION in abra.sh.";
        assertThat(run.runLog("custom-html-unbumped")).contains("level 1: install pass, upgrade fail", line)
                .doesNotContain("only updates to Labels are allowed");
        assertThat(run.results("custom-html-unbumped")).contains("\"level\" : 1", "\"upgrade\" : \"fail\"",
                "\"clean_teardown\" : true", "bump NGINX_CONF_VERSION in abra.sh");
        run.assertNothingLeftOf("custom-html-unbumped");
    }

    /**
     * The app+database corpus recipe: guestbook on Debian's PostgreSQL, chosen by COMPOSE_FILE in
     * its .env.sample, reaches level 5. Its customization proves what the generic tiers cannot: the
     * generated password has the 48 characters its length hint asks for, an entry written before the
     * backup is in the pre-hook's dump, deleted, and back after the restore's post-hook loaded it.
     */
    @Test
    void anAppWithARealPostgresqlBacksUpAndRestoresItsRowsThroughBackupbotHooks() throws Exception {
        AllBundled run = AllBundled.run();
        String domain = run.domains.get("guestbook");
        String log = run.runLog("guestbook");
        // COMPOSE_FILE's chain in .env.sample chose the postgres overlay, and the commented smtp one stayed out
        assertThat(log).as(summary("guestbook")).contains("1 secret(s) generated",
                "deploying " + AppNaming.stackName(domain) + " (the judged compose of compose.yml, compose.postgres.yml)",
                "level 5: install pass, upgrade pass, backup_restore pass, functional pass, lint pass")
                .doesNotContain("compose.smtp.yml");
        assertThat(run.failedChecks("guestbook")).isEmpty();
        assertThat(run.report()).contains(
                "name=\"guestbook &gt; install &gt; theGeneratedPasswordIsAsLongAsItsLengthHintSays\"",
                "name=\"guestbook &gt; install &gt; theOverlayChosenInTheEnvSampleIsDeployedAndTheCommentedOneIsNot\"",
                "name=\"guestbook &gt; backup &gt; thePreHooksDumpHoldsTheEntry\"",
                "name=\"guestbook &gt; restore &gt; theEntryWrittenBeforeTheBackupIsBackAfterTheRestore\"",
                "name=\"guestbook &gt; upgrade &gt; theUpgradedPageCountsTheEntriesAndKeptTheirs\"");
        assertThat(log).contains("backup of " + AppNaming.stackName(domain) + ": snapshot")
                .contains("of [/volumes/" + AppNaming.stackName(domain) + "_postgres/backup.sql]");
        assertThat(run.results("guestbook")).contains("\"level\" : 5", "\"clean_teardown\" : true",
                "\"no_secret_leak\" : true");
        run.assertNothingLeftOf("guestbook");
    }

    @Test
    void aTwoServiceRecipeWithASecretAHealthcheckAndStopFirstUpdatesReachesLevelThree() throws Exception {
        AllBundled run = AllBundled.run();
        String domain = run.domains.get("notes-demo");
        String log = run.runLog("notes-demo");
        assertThat(log).as(summary("notes-demo")).contains("1 secret(s) generated",
                "level 4: install pass, upgrade pass, backup_restore pass, functional pass");
        assertThat(run.results("notes-demo")).contains("\"level\" : 4", "\"clean_teardown\" : true",
                "\"no_secret_leak\" : true");
        // The functional test printed the generated password: the console filter masked it
        // everywhere it went (the CI log, run.log), and the test saw a real value (>= 16 chars).
        assertThat(log).contains("db_password as the front sees it: ********");
        assertThat(run.output).contains("db_password as the front sees it: ********");
        // No warm custom-html is live, so its cold dependency (custom-html) was deployed first,
        // counted, and removed after it.
        assertThat(log).contains("dependency custom-html: its warm app warm-custom-html." + ForkNamespace.SUFFIX + " is not"
                + " usable");
        Matcher dep = Pattern.compile("== dependency custom-html of notes-demo: app (\\S+) ").matcher(log);
        assertThat(dep.find()).as(log).isTrue();
        assertThat(log).contains("deploy 2 of this run's app " + domain);
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(dep.group(1)))).isEmpty();
        }
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, dep.group(1)))).isFalse();
        // The dependency's service logs are kept beside the app's, per tier.
        assertThat(run.dir("notes-demo").resolve("logs/install/custom-html/app.log")).isRegularFile();
        assertThat(run.dir("notes-demo").resolve("logs/install/db.log")).isRegularFile();
        run.assertNothingLeftOf("notes-demo");
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
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }
}
