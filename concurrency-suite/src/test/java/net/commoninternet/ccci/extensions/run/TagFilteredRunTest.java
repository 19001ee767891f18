package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiers are JUnit tags, and a tag filter is a stage selection: real {@code mvn test -Drecipe=custom-html}
 * runs with Surefire's {@code -Dgroups} and {@code -DexcludedGroups}. {@code -Dgroups=lint} runs the
 * LINT tier alone and deploys nothing (lint reads the recipe); {@code -DexcludedGroups=upgrade} runs
 * every other tier, deploying the head directly, once.
 */
@RealEngine
class TagFilteredRunTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private MavenRun run(String runId, int pr, String filter) throws Exception {
        return MavenRun.start(sandbox.resolve(runId + ".log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=custom-html", "-Dccci.run-id=" + runId,
                "-Dccci.pr=" + pr, filter);
    }

    /** The testcases of the run's Surefire XML, as {@code recipe > tier > check}. */
    private static List<String> testcases(MavenRun run) throws Exception {
        String xml = Files.readString(run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml"),
                StandardCharsets.UTF_8);
        Matcher name = Pattern.compile("<testcase name=\"([^\"]+)\"").matcher(xml);
        List<String> names = new ArrayList<>();
        while (name.find()) {
            names.add(name.group(1).replace("&gt;", ">"));
        }
        return names;
    }

    private JsonNode results(String runId) throws Exception {
        return new ObjectMapper().readTree(sandbox.resolve("runs").resolve(runId).resolve("results.json").toFile());
    }

    private static List<String> phases(JsonNode results) {
        List<String> phases = new ArrayList<>();
        results.path("timings").path("phases").forEach(p -> phases.add(p.path("phase").asText()));
        return phases;
    }

    private static String domain(String output) {
        Matcher app = APP.matcher(output);
        assertThat(app.find()).as(output).isTrue();
        return app.group(1);
    }

    /**
     * A lint-only run, under Woodpecker with no Drone variable and no -Dccci.run-id: it deploys
     * nothing, and the pipeline number names the run and the pull request's number is its PR.
     */
    @Test
    void groupsLintUnderWoodpeckerRunsTheLintTierAloneAsThePipelineAndNeverDeploysTheApp() throws Exception {
        // a Drone variable of the host running this suite is blanked: blank is unset
        MavenRun run = MavenRun.start(sandbox.resolve("woodpecker.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString(), "CI_PIPELINE_NUMBER", "77", "CI_COMMIT_PULL_REQUEST", "3093",
                "DRONE_BUILD_NUMBER", "", "DRONE_PULL_REQUEST", ""), "-Drecipe=custom-html", "-Dgroups=lint");
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        String domain = domain(output);
        try {
            assertThat(exit).as(output).isZero();
            assertThat(output).contains("== ccci run 77 (pid ", "(pr 3093)");
            assertThat(output).contains("none of its tiers (lint) needs the app, so the run deploys nothing and takes no app lock",
                    "the run deployed nothing, so no app to remove").doesNotContain("of this run's app", "deploying ");
            assertThat(testcases(run)).isNotEmpty().allMatch(name -> name.startsWith("custom-html > lint > "), "a lint check")
                    .contains("custom-html > lint > R002-healthchecks");
            JsonNode results = results("77");
            assertThat(results.path("run_id").asText()).isEqualTo("77");
            assertThat(results.path("pr").asInt()).isEqualTo(3093);
            assertThat(results.path("stages").toString()).isEqualTo("[\"lint\"]");
            assertThat(results.path("tests").findValuesAsText("tier")).containsOnly("lint");
            // the timeline has no lock, deploy nor convergence: nothing of the app was made
            assertThat(phases(results)).contains("fetch", "lint", "teardown").doesNotContain("lock", "deploy", "convergence");
            assertThat(results.path("flags").path("clean_teardown").asBoolean()).isTrue();
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).isEmpty();
            }
        } finally {
            MavenRun.removeLeftovers(domain);
        }
    }

    /** A filter naming no tag of the run (a typo) prunes every check: the command fails, never tests nothing and passes. */
    @Test
    void aFilterThatLeavesNoTestFailsTheCommand() throws Exception {
        MavenRun run = run("tags-typo", 3094, "-Dgroups=lnt");

        assertThat(run.waitFor(Duration.ofMinutes(10))).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("No tests were executed!").doesNotContain("== ccci run tags-typo");
        assertThat(sandbox.resolve("runs/tags-typo")).doesNotExist();
    }

    @Test
    void excludedGroupsUpgradeRunsEveryOtherTierDeployingTheHeadDirectlyAndOnce() throws Exception {
        MavenRun run = run("tags-no-upgrade", 3092, "-DexcludedGroups=upgrade");
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        String domain = domain(output);
        try {
            assertThat(exit).as(output).isZero();
            // one deploy, of the head: no base release first, no upgrade's redeploy
            assertThat(output).contains("deploy 1 of this run's app").doesNotContain("deploy 2 of this run's app",
                    "upgrade plan: deploy");
            List<String> names = testcases(run);
            assertThat(names).noneMatch(name -> name.startsWith("custom-html > upgrade"))
                    .contains("custom-html > install > deployed-once", "custom-html > backup > snapshot-created",
                            "custom-html > restore > marker-restored", "custom-html > custom > aPageAddedToTheContentVolumeIsServed",
                            "custom-html > lint > R002-healthchecks");
            JsonNode results = results("tags-no-upgrade");
            assertThat(results.path("stages").toString()).isEqualTo("[\"install\",\"backup\",\"restore\",\"custom\",\"lint\"]");
            assertThat(results.path("upgrade").path("base").isNull()).as(results.toString()).isTrue();
            assertThat(results.path("tests").toString()).contains("\"check\":\"deployed-once\",\"status\":\"passed\"");
            assertThat(results.path("version").asText()).isEqualTo("1.1.0+1.22.1");
            assertThat(results.path("next_level").path("why").asText())
                    .contains("not selected: the run's stages (ccci.stages or a tag filter) left out upgrade");
            assertThat(results.path("flags").path("clean_teardown").asBoolean()).isTrue();
            try (DockerEngine docker = DockerEngine.connect()) {
                assertThat(new StackTeardown(docker.client()).leftovers(AppNaming.stackName(domain))).isEmpty();
            }
        } finally {
            MavenRun.removeLeftovers(domain);
        }
    }
}
