package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job, for real: {@code mvn test -Drecipe=custom-html} deploys the bundled recipe on
 * the local swarm, checks it serves over the proxy network, tears it down, and leaves Surefire
 * XML with one testcase per check; bad recipe names fail at once and create nothing.
 */
class RecipeRunEndToEndTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    private Map<String, String> env() {
        return Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "CCCI_APP_LOCK_DIR", sandbox.resolve("locks").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString());
    }

    @Test
    void customHtmlDeploysServesAndLeavesNothingOnTheSwarm() throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve("mvn.log"), env(), "-Drecipe=custom-html", "-Dccci.run-id=e2e-ok");

        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();

        assertThat(exit).as(output).isZero();
        Matcher app = APP.matcher(output);
        assertThat(app.find()).as(output).isTrue();
        String stack = AppNaming.stackName(app.group(1));
        Path xml = MavenRun.ROOT.resolve("recipe-suites/target/surefire-reports/TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml");
        String report = Files.readString(xml, StandardCharsets.UTF_8);
        assertThat(report).contains("name=\"custom-html &gt; install &gt; converged\"",
                "name=\"custom-html &gt; install &gt; serves-http\"");
        assertThat(report).doesNotContain("<failure", "<error");
        try (DockerEngine docker = DockerEngine.connect()) {
            assertThat(new StackTeardown(docker.client()).leftovers(stack)).isEmpty();
        }
        Path abraDir = sandbox.resolve("runs/e2e-ok/abra");
        assertThat(abraDir.resolve("servers")).isSymbolicLink();
        assertThat(abraDir.resolve("recipes/custom-html/compose.yml")).isRegularFile();
        assertThat(abraDir.resolve("servers")).isSymbolicLink().satisfies(
                link -> assertThat(Files.readSymbolicLink(link)).isEqualTo(sandbox.resolve("abra/servers")));
        assertThat(sandbox.resolve("abra/servers/default/" + app.group(1) + ".env")).doesNotExist();
    }

    @Test
    void unknownRecipeFailsAtOnceWithOneSentenceAndCreatesNothing() throws Exception {
        assertFailsCleanly("does-not-exist", "recipe 'does-not-exist' not found");
    }

    @Test
    void pathLikeRecipeNameFailsAtOnceWithOneSentenceAndCreatesNothing() throws Exception {
        assertFailsCleanly("../../etc", "'../../etc' is not a recipe name");
    }

    private void assertFailsCleanly(String recipe, String sentence) throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve("mvn.log"), env(), "-Drecipe=" + recipe);

        int exit = run.waitFor(Duration.ofMinutes(5));

        assertThat(exit).isNotZero();
        assertThat(run.output()).contains(sentence);
        assertThat(sandbox.resolve("runs")).doesNotExist();
        assertThat(sandbox.resolve("locks")).doesNotExist();
    }
}
