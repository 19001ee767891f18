package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.testing.HeadlessChromium;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report a person looks at, in a real browser: report.html and catalogue.html of a command of
 * two recipes, one of them red with a failing check whose reason held a secret, opened in Debian's
 * headless chromium. The test reads what the browser shows (its visible text), checks the page
 * loaded nothing beside itself, and keeps a screenshot of each page in
 * {@code target/surefire-reports/ccci-screenshots/} (a CI artifact).
 */
class ReportInBrowserTest {

    private static final String SECRET = "Zq8vK2pLm9xW-db";
    private static final Path SCREENSHOTS = Path.of("target/surefire-reports/ccci-screenshots");

    @TempDir
    static Path sandbox;

    private static HeadlessChromium browser;
    private static Path runs;
    private static RunPlan plan;

    @BeforeAll
    static void aCommandOfTwoRecipesOneOfThemRed() throws Exception {
        runs = sandbox.resolve("runs");
        RunSettings green = settings("custom-html", "77-custom-html");
        RunSettings red = settings("custom-html-broken", "77-custom-html-broken");
        write(green, false);
        write(red, true);
        plan = new RunPlan("77", List.of(green, red), (file, type) -> { });
        Catalogue.write(plan, List.of(Catalogue.Entry.of(green, false, null), Catalogue.Entry.of(red, true, null)),
                List.of(SECRET));
        browser = HeadlessChromium.start(sandbox.resolve("chromium-profile"));
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theRunReportShowsTheLevelWhereItBrokeAndWhyEachRungAndWhereTheMinutesWent() throws Exception {
        Path report = runs.resolve("77-custom-html-broken").resolve(RunReport.HTML);

        String shown = browser.visibleText(report);
        browser.screenshot(SCREENSHOTS.resolve("report-custom-html-broken.png"));

        assertThat(shown).contains("custom-html-broken 1.1.0+1.36.1", "level 1", "failed", "Where it broke",
                "upgrade > moved-to-head", "the version label did not move: still 1.0.0+1.36.0 (db " + SecretMasking.MASK + ")",
                "install", "pass", "upgrade", "fail", "lint finding (verdict-neutral): services without a healthcheck: app",
                "Where the minutes went", "janitor", "convergence", "teardown", "run.log", "logs/install/app.log")
                .doesNotContain(SECRET);
        assertThat(browser.resourcesLoaded()).as("self-contained: no style, script, image or font fetched").isZero();
    }

    @Test
    void theCatalogueShowsEveryRecipeItsLevelAndWhichAreRed() throws Exception {
        String shown = browser.visibleText(runs.resolve("77").resolve("catalogue.html"));
        browser.screenshot(SCREENSHOTS.resolve("catalogue.png"));

        assertThat(shown).contains("ccci command 77", "2 recipes: 1 red, 1 green", "custom-html", "level 4",
                "custom-html-broken", "level 1", "failed", "broke at upgrade > moved-to-head", "passed", "report")
                .doesNotContain(SECRET);
        assertThat(browser.resourcesLoaded()).isZero();
    }

    private static RunSettings settings(String recipe, String runId) {
        return new RunSettings(new RunSettings.Subject(recipe, 0, null, runId), EnumSet.allOf(Tier.class), "swarm",
                new RunSettings.HostPaths(runs, runs, runs, runs, Optional.empty()),
                new RunSettings.Options(Duration.ofMinutes(60), false, Set.of(), "ccci.local/busybox:1"));
    }

    /** A run's results as its teardown writes them: the canary fails on the upgrade rung. */
    private static void write(RunSettings settings, boolean red) throws Exception {
        Path runDir = settings.runDir();
        Files.createDirectories(runDir.resolve("logs/install"));
        Files.writeString(runDir.resolve("logs/install/app.log"), "httpd started\n");
        Files.writeString(runDir.resolve("run.log"), "== RUN SUMMARY ==\n");
        RunRecord record = new RunRecord();
        record.add(RunRecord.Row.passed(Tier.INSTALL, "converged"));
        record.add(RunRecord.Row.passed(Tier.INSTALL, "serves-http"));
        record.add(red ? RunRecord.Row.failed(Tier.UPGRADE, "moved-to-head",
                "the version label did not move: still 1.0.0+1.36.0 (db " + SECRET + ")")
                : RunRecord.Row.passed(Tier.UPGRADE, "moved-to-head"));
        for (Tier tier : List.of(Tier.BACKUP, Tier.RESTORE, Tier.CUSTOM)) {
            record.add(RunRecord.Row.passed(tier, "converged"));
        }
        record.add(RunRecord.Row.skipped(Tier.LINT, "healthchecks", SkipKind.LINT_FINDING,
                SkipKind.LINT_FINDING.describe("services without a healthcheck: app")));
        RunTimeline timeline = new RunTimeline();
        // Phases of a few milliseconds each, in proportions like a real run's, so the bar has something to show.
        Map<String, Integer> phases = new java.util.LinkedHashMap<>();
        for (String phase : List.of("janitor:1", "fetch:4", "lock:1", "deploy:4", "convergence:14", "install:20",
                "upgrade:50", "backup:19", "restore:15", "custom:8", "lint:1", "teardown:30")) {
            phases.put(phase.split(":")[0], Integer.parseInt(phase.split(":")[1]));
        }
        for (Map.Entry<String, Integer> phase : phases.entrySet()) {
            RunTimeline.Span span = timeline.start(phase.getKey());
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(phase.getValue()).toNanos());
            span.end(red && phase.getKey().equals("upgrade") ? RunTimeline.Outcome.FAILED : RunTimeline.Outcome.DONE);
        }
        RunResults.write(runDir, new RunResults.Run(new RunResults.Tested(settings.recipe(), "1.1.0+1.36.1", "dc3aff7",
                        settings.recipe().substring(0, 4) + "-abcdef.ci.commoninternet.net"), 0, settings.runId(),
                EnumSet.allOf(Tier.class), new RunResults.Evidence(true, List.of(SECRET), Map.of(), timeline)), record);
    }
}
