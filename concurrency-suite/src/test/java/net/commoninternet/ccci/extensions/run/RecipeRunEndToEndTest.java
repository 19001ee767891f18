package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.ForkNamespace;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job, for real: {@code mvn test -Drecipe=custom-html} deploys the bundled recipe on
 * the local swarm, checks it serves over the proxy network, tears it down, and leaves Surefire
 * XML with one testcase per check; bad recipe names fail at once and create nothing. (The other
 * bundled recipes' own end-to-end assertions read the runs of one {@code -Drecipe=all} command:
 * {@link SeveralRecipesEndToEndTest}.)
 */
@RealEngine
class RecipeRunEndToEndTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    /**
     * Runs and abra dirs are sandboxed. A run that deploys uses the default app lock dir
     * (/run/lock), so every process on the host, a janitor included, sees its app as live; runs
     * that must fail before creating anything get a sandboxed one, to show it stays untouched.
     */
    private Map<String, String> env(boolean deploys) {
        Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()));
        if (!deploys) {
            env.put("CCCI_APP_LOCK_DIR", sandbox.resolve("locks").toString());
        }
        return env;
    }

    /** The README's main job, as a user runs it: a real CI run of custom-html, and a console that shows the run. */
    @Test
    void customHtmlDeploysServesAndLeavesNothingOnTheSwarm() throws Exception {
        // A PR of its own: no other run on the host (another checkout's tests, say) shares its app.
        runToTheEnd(MavenRun.startAsTheReadmeSays(sandbox.resolve("e2e-ok.log"), env(true), "-Drecipe=custom-html",
                "-Dccci.run-id=e2e-ok", "-Dccci.pr=3020"), (exit, output, domain) -> {
                    assertRunPassedAndLeftNothing(exit, output, domain);
                    assertTheConsoleShowsTheRunAndEndsWithItsSummary(output);
                });
    }

    /**
     * ccci's own lines (its log lines and the RUN SUMMARY block) are most of what the console
     * shows, and the RUN SUMMARY begins within its last 15 lines: Maven's are few
     * ({@code .mvn/maven.config}), and nothing is built after the run. Its first and last lines carry
     * the mark the run said on its first line.
     */
    private static void assertTheConsoleShowsTheRunAndEndsWithItsSummary(String output) {
        List<String> lines = output.lines().toList();
        Matcher announced = MARK.matcher(output);
        assertThat(announced.find()).as(output).isTrue();
        int summary = lines.indexOf("== RUN SUMMARY " + announced.group(1) + " ==");
        int end = lines.indexOf("== END RUN SUMMARY " + announced.group(1) + " ==");
        assertThat(end).as(output).isGreaterThan(summary);
        long own = lines.stream().filter(l -> LOG_LINE.matcher(l).lookingAt()).count() + (end - summary + 1);
        assertThat(summary).as(output).isNotNegative();
        assertThat(lines.size() - summary).as("the RUN SUMMARY's place from the end of the console:%n%s", output)
                .isLessThanOrEqualTo(15);
        assertThat(own * 2).as("ccci's lines (%d) are most of the console's %d:%n%s", own, lines.size(), output)
                .isGreaterThan(lines.size());
        assertThat(output).as("the concurrency suite is not built by a recipe run").doesNotContain("concurrency-suite",
                "Downloading from");
    }

    /** The run's first line of its own: the mark its RUN SUMMARY carries. */
    private static final Pattern MARK = Pattern.compile("its RUN SUMMARY is the one marked ([0-9a-f]{16}) ==");

    /** A line of ccci's log pattern (recipe-suites' logback: {@code 12:34:56.789 INFO  [recipe] ...}). */
    private static final Pattern LOG_LINE = Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ");

    /** What a test asserts of a finished run: its exit status, its output, its app's domain. */
    @FunctionalInterface
    private interface Finished {
        void check(int exit, String output, String domain) throws Exception;
    }

    /**
     * A real `mvn test -Drecipe=...` to its end, then the test's assertions, then the same final
     * one for every run (nothing of the app left on the swarm), then whatever a failed run left
     * is removed.
     */
    private void runToTheEnd(String recipe, String runId, int pr, Finished then) throws Exception {
        runToTheEnd(MavenRun.start(sandbox.resolve(runId + ".log"), env(true), "-Drecipe=" + recipe,
                "-Dccci.run-id=" + runId, "-Dccci.pr=" + pr), then);
    }

    private void runToTheEnd(MavenRun run, Finished then) throws Exception {
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        Matcher app = APP.matcher(output);
        assertThat(app.find()).as(output).isTrue();
        try {
            then.check(exit, output, app.group(1));
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(app.group(1)))).isEmpty();
            }
        } finally {
            MavenRun.removeLeftovers(app.group(1));
        }
    }

    /** The results a real run wrote follow the schema ccci-extensions publishes. */
    private static void assertFollowsTheSchema(String results) throws Exception {
        try (InputStream in = RunResults.class.getResourceAsStream("results.schema.json")) {
            assertThat(com.networknt.schema.SchemaRegistry.withDefaultDialect(
                            com.networknt.schema.SpecificationVersion.DRAFT_2020_12).getSchema(in)
                    .validate(results, com.networknt.schema.InputFormat.JSON)).as(results).isEmpty();
        }
    }

    private void assertRunPassedAndLeftNothing(int exit, String output, String domain) throws Exception {
        assertThat(exit).as(output).isZero();
        // no engine stream still open when the run closed its connection (docker-java's ERROR line), nor any other
        assertThat(output).as("a passing run prints no ERROR line").doesNotContainPattern("\\bERROR\\b");
        Path xml = MavenRun.ROOT.resolve("recipe-suites/target/surefire-reports/TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml");
        String report = Files.readString(xml, StandardCharsets.UTF_8);
        assertThat(report).contains("name=\"custom-html &gt; install &gt; deployed-once\"",
                "name=\"custom-html &gt; install &gt; converged\"",
                "name=\"custom-html &gt; install &gt; serves-http\"",
                "name=\"custom-html &gt; upgrade &gt; moved-to-head\"",
                "name=\"custom-html &gt; backup &gt; snapshot-created\"",
                "name=\"custom-html &gt; restore &gt; marker-restored\"",
                "name=\"custom-html &gt; install &gt; theFirstPageNamesTheAppsDomain\"",
                "name=\"custom-html &gt; custom &gt; aPageAddedToTheContentVolumeIsServed\"",
                "name=\"custom-html &gt; lint &gt; R002-healthchecks\"",
                // the customization's keys, hooks, overlay and per-operation assertions
                "name=\"custom-html &gt; install &gt; ready-probe\"",
                "name=\"custom-html &gt; backup &gt; backup-verified\"",
                "name=\"custom-html &gt; install &gt; theCiOverlayCarriesExtraEnvAndTheHooksValueIntoTheApp\"",
                "name=\"custom-html &gt; upgrade &gt; theUpgradeRedeployedWithItsExtraEnv\"",
                "name=\"custom-html &gt; restore &gt; thePageWrittenBeforeTheBackupIsServedAfterTheRestore\"",
                // real nginx: 1.1.0's site config (NGINX_CONF_VERSION v2 in abra.sh) replaced 1.0.0's
                "name=\"custom-html &gt; upgrade &gt; theUpgradeBroughtTheNewSiteConfigRenderedWithTheAppsDomain\"",
                "name=\"custom-html &gt; lint &gt; R014-valid-tags\"", "name=\"custom-html &gt; lint &gt; ccci-config-versions\"");
        // One verdict-neutral lint finding (R002, no healthcheck) and the two abra rules that need the
        // network (R006, R013: not verified here) are the only skips.
        assertThat(report).contains("tests=\"43\"", "skipped=\"3\"", "failures=\"0\"");
        // READY_PROBE tcp:80:3 is 3 connects one a second: at least 2 s each time it is awaited. The
        // run awaits it once, before the tiers; INSTALL's ready-probe check gives that verdict.
        Matcher readyCheck = Pattern.compile("name=\"custom-html &gt; install &gt; ready-probe\"[^>]* time=\"([0-9.]+)\"")
                .matcher(report);
        assertThat(readyCheck.find()).as(report).isTrue();
        assertThat(Double.parseDouble(readyCheck.group(1))).as("the ready-probe check's seconds: it must not await the"
                + " READY_PROBE (2 s of pauses) a second time").isLessThan(2.0);
        String results = Files.readString(sandbox.resolve("runs/e2e-ok/results.json"), StandardCharsets.UTF_8);
        assertThat(results).contains("\"level\" : 4", "\"clean_teardown\" : true", "\"no_secret_leak\" : true",
                "\"lint\" : \"fail\"", "\"class\" : \"net.commoninternet.ccci.recipes.CustomHtmlCi\"",
                "\"CCCI_SMTP_PASSWORD\" : \"********\"", "\"pre_install: preInstall\"",
                "\"pre_upgrade: theBaseReleaseServesNginxsOwnNotFoundPage\"",
                "\"compose overlay of CustomHtmlCi\" : \"applied\"");
        assertThat(results).doesNotContain("not-a-real-password");
        assertFollowsTheSchema(results);
        // the READY_PROBE began within the convergence (once only the tasks' stability windows were left), and the
        // tiers waited for both. That it starts before the convergence's end is a speed, not a rule: on a loaded
        // machine the last 300 ms window can close before the probe's start is logged (SwarmConvergenceTest has
        // the window's telling; docs/benchmarks.md the time it saves)
        Map<String, long[]> spans = new HashMap<>();
        new ObjectMapper().readTree(results).path("timings").path("phases").forEach(p -> spans.put(p.path("phase").asText(),
                new long[] {p.path("start_ms").asLong(), p.path("start_ms").asLong() + p.path("duration_ms").asLong()}));
        assertThat(spans.get("ready-probe")[0]).as("the ready probe's start, once the convergence began")
                .isGreaterThanOrEqualTo(spans.get("convergence")[0]);
        assertThat(spans.get("install")[0]).as("the install after both").isGreaterThanOrEqualTo(spans.get("ready-probe")[1])
                .isGreaterThanOrEqualTo(spans.get("convergence")[1]);
        // the app's page as a browser shows it, after the install and after the upgrade: real PNGs, in the report
        Path runDir = sandbox.resolve("runs/e2e-ok");
        for (String tier : List.of("install", "upgrade")) {
            java.awt.image.BufferedImage picture = javax.imageio.ImageIO.read(runDir.resolve("screenshots/" + tier + ".png").toFile());
            assertThat(picture).as("the picture after the " + tier).isNotNull();
            assertThat(picture.getWidth()).isEqualTo(1280);
        }
        assertThat(runDir.resolve("report.html")).content().contains("<h2>The app, as a browser shows it</h2>",
                "alt=\"the app's page after the install", "alt=\"the app's page after the upgrade", "data:image/png;base64,");
        assertThat(output).contains("READY_PROBE tcp:80:3: 3 TCP connect(s) in a row", "COMPOSE_FILE=compose.yml:.ccci/compose.customization.yml",
                // the recipe's own coop-cloud.${STACK_NAME}.timeout label (no DEPLOY_TIMEOUT in its customization)
                "deploy timeout 120 s (the recipe's coop-cloud." + AppNaming.stackName(domain) + ".timeout label)");
        assertThat(sandbox.resolve("runs/e2e-ok/run.log")).content().contains("== RUN SUMMARY ", "pre_install hook set CCCI_PRE_INSTALL");
        // Each tier's service logs are in the run folder and attached to the tier in the Open Test
        // Reporting XML; results.json is attached to the recipe.
        for (String tier : List.of("install", "upgrade", "backup", "restore", "custom", "lint")) {
            assertThat(sandbox.resolve("runs/e2e-ok/logs/" + tier + "/app.log")).isRegularFile();
        }
        String otr = Files.readString(MavenRun.ROOT.resolve("recipe-suites/target/surefire-reports/open-test-report.xml"),
                StandardCharsets.UTF_8);
        assertThat(otr).contains("path=\"ccci/custom-html/install/app.log\"", "path=\"ccci/custom-html/restore/app.log\"",
                "results.json\"");
        assertThat(output).contains("== RUN SUMMARY ",
                "level 4: install pass, upgrade pass, backup_restore pass, functional pass, lint fail");
        assertThat(report).doesNotContain("<failure", "<error");
        Path abraDir = sandbox.resolve("runs/e2e-ok/abra");
        assertThat(abraDir.resolve("servers")).isSymbolicLink();
        assertThat(abraDir.resolve("recipes/custom-html/compose.yml")).isRegularFile();
        assertThat(abraDir.resolve("servers")).isSymbolicLink().satisfies(
                link -> assertThat(Files.readSymbolicLink(link)).isEqualTo(sandbox.resolve("abra/servers")));
        assertThat(sandbox.resolve("abra/servers/default/" + domain + ".env")).doesNotExist();
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, domain))).isFalse();
    }

    @Test
    void aRunKilledWithItsAppLiveIsReapedByTheNextRunBeforeItDeploys() throws Exception {
        MavenRun killed = MavenRun.start(sandbox.resolve("killed.log"), env(true), "-Drecipe=custom-html",
                "-Dccci.run-id=e2e-killed", "-Dccci.stages=install");
        String converged = killed.awaitLine("converged", Duration.ofMinutes(5));
        String stack = converged.replaceAll(".*stack (\\S+): converged.*", "$1");

        killed.killGroup();

        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(stack)).as("SIGKILL leaves the app behind, its own"
                    + " network with it").contains("network " + stack + "_proxy");
        }
        MavenRun next = MavenRun.start(sandbox.resolve("next.log"), env(true), "-Drecipe=custom-html",
                "-Dccci.run-id=e2e-next", "-Dccci.stages=install");
        assertThat(next.waitFor(Duration.ofMinutes(10))).as(next.output()).isZero();

        String domain = stack.replace('_', '.');
        String log = next.output();
        int reaping = log.indexOf("janitor: " + domain + " has no live owner (lock free): reaping");
        int reaped = log.indexOf("janitor: " + domain + " reaped");
        int deploying = log.indexOf("deploying " + stack);
        assertThat(reaping).as(log).isNotNegative();
        assertThat(reaped).as(log).isGreaterThan(reaping);
        assertThat(deploying).as("the reap comes before this run's own deploy").isGreaterThan(reaped);
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(stack)).isEmpty();
        }
    }

    /**
     * A recipe that is not bundled, kept as a plain git repository elsewhere, with no
     * customization: the generic tiers run. It ships its own CI code (install_steps.sh and
     * compose.ccci.yml), which runs because the recipe is on the approved list; its app only
     * starts if both did their part, so a passing install proves they ran.
     */
    @Test
    void aRecipeDirectoryThatIsNotBundledRunsTheGenericTiersWithItsApprovedCiCode() throws Exception {
        Path recipes = Files.createDirectories(sandbox.resolve("elsewhere"));
        Path recipe = Files.createDirectories(recipes.resolve("plainsite"));
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: ccci.local/busybox:1
                    command:
                      - sh
                      - -c
                      - |
                        [ "$${SITE_FLAVOUR}" = from-install-steps ] || { echo "SITE_FLAVOUR unset"; exit 1; }
                        mkdir -p /srv/www && echo "<p>$${SITE_FLAVOUR}</p>" > /srv/www/index.html
                        trap 'exit 0' TERM
                        httpd -f -p 8000 -h /srv/www &
                        wait
                    networks:
                      - proxy
                    volumes:
                      - site:/srv/www
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`)"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                        - "backupbot.backup=true"
                        - "backupbot.backup.path=/srv/www"
                volumes:
                  site:
                networks:
                  proxy:
                    external: true
                """);
        Files.writeString(recipe.resolve("compose.ccci.yml"), """
                version: "3.8"
                services:
                  app:
                    environment:
                      - SITE_FLAVOUR
                """);
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=plainsite\nDOMAIN=plainsite.example.com\n");
        Files.writeString(recipe.resolve("install_steps.sh"), "echo \"SITE_FLAVOUR=from-install-steps\" >> \"$CCCI_ENV_FILE\"\n"
                + "echo \"install steps ran for $DOMAIN\"\n");
        for (List<String> git : List.of(List.of("git", "init", "-q"),
                List.of("git", "add", "-A"),
                List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "plainsite"))) {
            assertThat(new ProcessBuilder(git).directory(recipe.toFile()).inheritIO().start().waitFor()).isZero();
        }

        MavenRun run = MavenRun.start(sandbox.resolve("plain.log"), env(true), "-Drecipe=plainsite",
                "-Dccci.recipes=" + recipes, "-Dccci.approved-recipes=plainsite@"
                        + net.commoninternet.ccci.extensions.workspace.RecipeSetup.codeDigest(recipe), "-Dccci.run-id=e2e-plain", "-Dccci.pr=3024");
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        Matcher app = APP.matcher(output);
        assertThat(app.find()).as(output).isTrue();
        try {
            assertThat(exit).as(output).isZero();
            assertThat(output).contains("running the recipe's install_steps.sh (approved recipe)",
                    "install steps ran for " + app.group(1),
                    "level 3: install pass, upgrade skip, backup_restore pass, functional unver");
            String results = Files.readString(sandbox.resolve("runs/e2e-plain/results.json"), StandardCharsets.UTF_8);
            assertThat(results).contains("\"recipe_code_approved\" : true", "\"install_steps.sh\" : \"ran (recipe on the approved list)\"",
                    "\"compose.ccci.yml\" : \"applied (recipe on the approved list)\"", "\"class\" : null",
                    "\"clean_teardown\" : true");
            assertFollowsTheSchema(results);
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(app.group(1)))).isEmpty();
            }
        } finally {
            MavenRun.removeLeftovers(app.group(1));
        }
    }

    /**
     * custom-html is WARM_CANONICAL: with its warm app live, a run of notes-demo (its install and
     * functional tiers, the ones that meet the dependency) uses it instead of deploying custom-html
     * cold (one deploy in all), reaches it, and leaves it untouched, as its own janitor and teardown must.
     */
    @Test
    void aLiveWarmCanonicalAppServesAsTheDependencyAndIsNeverTouched() throws Exception {
        String warm = "warm-custom-html." + ForkNamespace.SUFFIX; // the warm app of this fork's namespace
        String warmStack = AppNaming.stackName(warm);
        Path compose = MavenRun.ROOT.resolve("recipe-suites/recipes/custom-html/versions/1.1.0+1.22.1/compose.yml");
        try (DockerEngine docker = DockerEngine.connect()) {
            ProcessBuilder deploy = new ProcessBuilder("docker", "stack", "deploy", "--detach=true", "--resolve-image",
                    "never", "-c", compose.toString(), warmStack).inheritIO();
            deploy.environment().putAll(Map.of("DOMAIN", warm, "STACK_NAME", warmStack, "EXTRA_DOMAINS", "",
                    "LETS_ENCRYPT_ENV", "staging", "NGINX_CONF_VERSION", "v2"));
            try {
                assertThat(deploy.start().waitFor()).isZero();
                assertThat(new SwarmConvergence(docker).await(warmStack, Duration.ofMinutes(2)).converged()).isTrue();

                // the tiers that meet the dependency: the install (deploy and convergence beside the warm app)
                // and the functional one, which reaches it from the app's network; the upgrade, backup and
                // restore of notes-demo never touch it, and the all-run covers them with a cold dependency
                MavenRun run = MavenRun.start(sandbox.resolve("e2e-warm.log"), env(true), "-Drecipe=notes-demo",
                        "-Dccci.run-id=e2e-warm", "-Dccci.pr=3026", "-Dccci.stages=install,custom");
                runToTheEnd(run, (exit, output, domain) -> {
                    assertThat(exit).as(output).isZero();
                    assertThat(output).contains("== dependency custom-html of notes-demo: the warm app " + warm
                                    + " (WARM_CANONICAL), live and converged ==",
                            "deploy 1 of this run's app " + domain, "install pass, upgrade unver, backup_restore unver, functional pass")
                            .doesNotContain("deploy 2 of this run's app");
                    assertThat(run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml")).content()
                            .contains("name=\"notes-demo &gt; custom &gt; theDependencyIsLiveAndReachableFromTheApp\"")
                            .doesNotContain("<failure", "<error");
                });

                assertThat(new SwarmConvergence(docker).inspect(warmStack).converged())
                        .as("the warm app is still there, untouched").isTrue();
            } finally {
                new StackTeardown(docker.client()).teardown(warmStack);
            }
        }
    }

    @Test
    void unknownRecipeFailsAtOnceWithOneSentenceAndCreatesNothing() throws Exception {
        assertFailsCleanly("does-not-exist", "recipe 'does-not-exist' not found");
    }

    @Test
    void pathLikeRecipeNameFailsAtOnceWithOneSentenceAndCreatesNothing() throws Exception {
        assertFailsCleanly("../../etc", "'../../etc' is not a recipe name");
    }

    @Test
    void aBlankRecipeFailsAtOnceWithOneSentenceAndCreatesNothing() throws Exception {
        // a CI job whose RECIPE variable is empty: the build fails before the first module's tests
        assertFailsCleanly("", "-Drecipe= was given but names no recipe");
    }

    private void assertFailsCleanly(String recipe, String sentence) throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve("mvn.log"), env(false), "-Drecipe=" + recipe);

        int exit = run.waitFor(Duration.ofMinutes(5));

        assertThat(exit).isNotZero();
        assertThat(run.output()).contains(sentence);
        // the sentence alone: no exception of Surefire's or Maven's, no stack, nothing before it is thrown away
        assertThat(run.output()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("T E S T S");
        assertThat(run.output().lines().filter(l -> l.contains("[ERROR]"))).singleElement().asString().contains(sentence);
        assertThat(sandbox.resolve("runs")).doesNotExist();
        assertThat(sandbox.resolve("locks")).doesNotExist();
    }
}
