package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.testing.Axe;
import net.commoninternet.ccci.testing.HeadlessChromium;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report a person looks at, in a real browser: report.html of the canary (custom-html-broken,
 * red on its upgrade rung, its failing reason and its upgrade log holding a secret) and
 * catalogue.html of a command of every bundled recipe, as {@code -Drecipe=all} leaves them, written
 * by the real writers and opened in Debian's headless chromium at a phone's width (360 px) and a
 * laptop's (1280 px). The test reads what the browser shows, follows the failing check's row to its
 * log, runs axe-core (WCAG 2.1 AA and best practices) on each page at each width and fails on any
 * serious or critical violation, checks that nothing is wider than the screen and that the page
 * loaded nothing beside itself, and keeps a full-page screenshot of each page at each width in
 * {@code concurrency-suite/target/surefire-reports/ccci-screenshots/} (a CI artifact).
 */
@RealEngine
class ReportInBrowserTest {

    private static final String SECRET = "Zq8vK2pLm9xW-db";
    private static final Path SCREENSHOTS = Path.of("target/surefire-reports/ccci-screenshots");
    /** The bundled recipes and the levels a {@code -Drecipe=all} run reaches (SeveralRecipesEndToEndTest). */
    private static final Map<String, Integer> ALL = new TreeMap<>(Map.of("custom-html", 4,
            "custom-html-broken", 1, "custom-html-unbumped", 1, "guestbook", 5, "notes-demo", 4));
    private static final Set<String> CANARIES = Set.of("custom-html-broken", "custom-html-unbumped");

    @TempDir
    static Path sandbox;

    private static HeadlessChromium browser;
    private static Path runs;

    @BeforeAll
    static void aCommandOfEveryBundledRecipeTheCanariesRed() throws Exception {
        runs = sandbox.resolve("runs");
        List<RunSettings> settings = new ArrayList<>();
        List<Catalogue.Entry> entries = new ArrayList<>();
        for (Map.Entry<String, Integer> recipe : ALL.entrySet()) {
            RunSettings run = settings(recipe.getKey(), "77-" + recipe.getKey());
            boolean red = CANARIES.contains(recipe.getKey());
            write(run, red, recipe.getValue());
            settings.add(run);
            entries.add(Catalogue.Entry.of(run, red, null));
        }
        Catalogue.write(new RunPlan("77", settings, (file, type) -> { }), entries, List.of(SECRET));
        browser = HeadlessChromium.start(sandbox.resolve("chromium-profile"));
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theCanarysReportSaysWhyItIsAtLevelOneLinksTheFailingCheckToItsLogAndShowsItsEnd() throws Exception {
        Path runDir = runs.resolve("77-custom-html-broken");
        ResultsSchema.assertValid(runDir.resolve("results.json"));

        String shown = browser.visibleText(runDir.resolve(RunReport.HTML));

        assertThat(shown).contains("custom-html-broken 1.1.0+1.36.1", "level 1", "failed",
                "level 1, not 2: upgrade fail — upgrade > moved-to-head: the version label did not move: still 1.0.0+1.36.0 (db "
                        + SecretMasking.MASK + ")",
                "Checks: 7 in all: 5 passed, 1 failed, 1 skipped, 0 unverified.",
                "Upgrade: from 1.0.0+1.36.0 to 1.1.0+1.36.1.",
                "Where it broke", "upgrade > moved-to-head", "lint finding (verdict-neutral): services without a healthcheck: app",
                "Where the minutes went", "janitor", "convergence", "teardown",
                "ccci", "Docker engine", "20.10.24+dfsg1", "swarm", "1 node", "sandbox runtime", "runsc", "run.log", "summary.md")
                .doesNotContain(SECRET);
        // the failing check's row: its tier's log, linked, and its end shown inline once opened
        String failing = "tr.check:has(td.failed)";
        assertThat(browser.hrefsOf(failing + " td.logs a")).containsExactly("logs/upgrade/app.log");
        assertThat(browser.textOf(failing + " + tr.evidence")).contains("the end of logs/upgrade/app.log",
                "nginx: [emerg] unknown directive \"sever\"",
                "line 22 of the upgrade log").doesNotContain("line 21 of the upgrade log", SECRET)
                .contains("password " + SecretMasking.MASK);
        assertThat(shown).as("the log held the secret: the page masks it, and the leak scan says so").contains(
                "no secret leak: false");
        assertThat(browser.hrefsOf("tr.check:has(td.passed) td.logs a")).contains("logs/install/app.log");
        assertThat(browser.hrefsOf("tr.check:has(td.passed) + tr.evidence")).as("only a failed check shows its logs' ends").isEmpty();
        assertThat(browser.resourcesLoaded()).as("self-contained: no style, script, image or font fetched").isZero();
        // the app as a browser showed it: the install's picture embedded, the upgrade's absence said in one line
        assertThat(shown).contains("The app, as a browser shows it", "after the install", "after the upgrade",
                "did not render: net::ERR_CONNECTION_REFUSED");
        assertThat(browser.hrefsOf("figure a")).containsExactly("screenshots/install.png");
        browser.assertReadableOnEveryScreen("report-custom-html-broken", SCREENSHOTS);
    }

    @Test
    void theCatalogueOfEveryBundledRecipeShowsEachLevelAndWhichAreRed() throws Exception {
        String shown = browser.visibleText(runs.resolve("77").resolve("catalogue.html"));

        assertThat(shown).contains("ccci command 77", "5 recipes: 2 red, 3 green", "custom-html", "level 4",
                "custom-html-broken", "level 1", "failed", "broke at upgrade > moved-to-head", "guestbook", "level 5", "passed",
                "report of custom-html-broken").doesNotContain(SECRET);
        assertThat(browser.hrefsOf("a")).contains("../77-custom-html-broken/report.html");
        assertThat(browser.resourcesLoaded()).isZero();
        browser.assertReadableOnEveryScreen("catalogue", SCREENSHOTS);
    }

    /**
     * The checks can fail: the report as it was before it was made readable (white on light green,
     * about 2:1, no viewport, a wide table) is caught by axe and by the width check at 360 px.
     */
    @Test
    void axeAndTheWidthCheckCatchWhatTheReportUsedToGetWrong() throws Exception {
        Path page = Files.writeString(sandbox.resolve("old-report.html"), "<!DOCTYPE html><html lang=\"en\"><head>"
                + "<meta charset=\"utf-8\"><title>old</title></head><body><main><p><span style=\"background: #97ca00; color: #fff\">"
                + "level 4</span></p><table><tr><th>recipe</th>" + "<th>a rung</th>".repeat(12) + "</tr></table></main></body></html>");
        browser.visibleText(page);
        browser.screen(360);

        assertThat(Axe.check(browser)).filteredOn(Axe.Violation::seriousOrWorse).extracting(Axe.Violation::rule)
                .contains("color-contrast");
        assertThat(browser.widerThanTheScreen()).as("no viewport: laid out 980 px wide and scaled")
                .doesNotContain("viewport 360 px");
    }

    private static RunSettings settings(String recipe, String runId) {
        return new RunSettings(new RunSettings.Subject(recipe, 0, null, runId), EnumSet.allOf(Tier.class), "swarm",
                new RunSettings.HostPaths(runs, new RunSettings.Namespace(runs, AppNaming.DEFAULT_SUFFIX), runs, runs, Optional.empty()),
                new RunSettings.Options(Duration.ofMinutes(60), false, Set.of(), "ccci.local/busybox:1"));
    }

    /** A run's results as its teardown writes them: a canary fails on the upgrade rung, the rest reach {@code level}. */
    private static void write(RunSettings settings, boolean red, int level) throws Exception {
        Path runDir = settings.runDir();
        for (Tier tier : Tier.values()) {
            Files.createDirectories(runDir.resolve("logs").resolve(tier.id()));
            Files.writeString(runDir.resolve("logs").resolve(tier.id()).resolve("app.log"), "httpd started\n");
        }
        StringBuilder upgradeLog = new StringBuilder();
        for (int line = 1; line <= 60; line++) {
            upgradeLog.append("2026-01-01T00:00:").append(line).append(" app.1 line ").append(line).append(" of the upgrade log\n");
        }
        upgradeLog.append("app.1 nginx: [emerg] unknown directive \"sever\" in /etc/nginx/conf.d/default.conf:3 (password ")
                .append(SECRET).append(")\n");
        Files.writeString(runDir.resolve("logs/upgrade/app.log"), upgradeLog);
        Files.writeString(runDir.resolve("run.log"), "== RUN SUMMARY ==\n");
        // the pictures of the app: after the install a page, after a red upgrade the one line of why there is none
        Files.createDirectories(runDir.resolve("screenshots"));
        java.awt.image.BufferedImage page = new java.awt.image.BufferedImage(1280, 960, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D paint = page.createGraphics();
        paint.setColor(new java.awt.Color(0x1f6f3f));
        paint.fillRect(0, 0, 1280, 960);
        paint.dispose();
        javax.imageio.ImageIO.write(page, "png", runDir.resolve("screenshots/install.png").toFile());
        if (red) {
            Files.writeString(runDir.resolve("screenshots/upgrade.txt"), "the page http://" + settings.recipe()
                    + ".example:80/ did not render: net::ERR_CONNECTION_REFUSED\n");
        } else {
            javax.imageio.ImageIO.write(page, "png", runDir.resolve("screenshots/upgrade.png").toFile());
        }
        RunRecord record = new RunRecord();
        record.add(RunRecord.Row.passed(Tier.INSTALL, "converged"));
        record.add(RunRecord.Row.passed(Tier.INSTALL, "serves-http"));
        record.add(red ? RunRecord.Row.failed(Tier.UPGRADE, "moved-to-head",
                "the version label did not move: still 1.0.0+1.36.0 (db " + SECRET + ")")
                : RunRecord.Row.passed(Tier.UPGRADE, "moved-to-head"));
        for (Tier tier : List.of(Tier.BACKUP, Tier.RESTORE, Tier.CUSTOM)) {
            record.add(RunRecord.Row.passed(tier, "converged"));
        }
        if (level == 5) {
            record.add(RunRecord.Row.passed(Tier.LINT, "healthchecks"));
        } else {
            record.add(RunRecord.Row.skipped(Tier.LINT, "healthchecks", SkipKind.LINT_FINDING,
                    SkipKind.LINT_FINDING.describe("services without a healthcheck: app")));
        }
        RunTimeline timeline = new RunTimeline();
        // Phases of a few milliseconds each, in proportions like a real run's, so the bar has something to show.
        for (String phase : List.of("janitor:1", "fetch:4", "lock:1", "deploy:4", "convergence:14", "install:20",
                "upgrade:50", "backup:19", "restore:15", "custom:8", "lint:1", "teardown:30")) {
            String[] named = phase.split(":");
            RunTimeline.Span span = timeline.start(named[0]);
            LockSupport.parkNanos(Duration.ofMillis(Integer.parseInt(named[1])).toNanos());
            span.end(red && named[0].equals("upgrade") ? RunTimeline.Outcome.FAILED : RunTimeline.Outcome.DONE);
        }
        RunResults.write(runDir, new RunResults.Run(new RunResults.Tested(settings.recipe(), "1.1.0+1.36.1", "dc3aff7",
                        settings.recipe().substring(0, 4) + "-abcdef.ci.commoninternet.net",
                        new RunResults.Upgrade("1.0.0+1.36.0", "1.1.0+1.36.1", "upgrade from 1.0.0+1.36.0")), 0,
                settings.runId(), EnumSet.allOf(Tier.class), new RunResults.Evidence(true, List.of(SECRET), Map.of(), timeline,
                        new RunResults.Environment("swarm", new DockerEngine.Facts("20.10.24+dfsg1", 1, "runsc", "/usr/bin/runsc")))), record);
    }
}
