package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.results.RunHistory;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.TwoReleaseRecipe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipe's history across real commands: a run of a recipe at its release 0.2.0 (level 2:
 * install and upgrade pass), then a second at a commit that breaks its upgrade (the head's compose
 * is the base's again, so the upgrade moves nothing: level 1), run beside a second recipe so the
 * command writes a catalogue. The history holds both runs; the second run's summary.md and
 * RUN SUMMARY say it regressed; the catalogue shows the drop. (A level equal to the last one's,
 * "unchanged", is RunHistoryTest's.)
 */
@RealEngine
class RunHistoryEndToEndTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    private static String compose(String version) {
        return """
                version: "3.8"
                services:
                  app:
                    image: ccci.local/busybox:1
                    command: ["sh", "-c", "mkdir -p /srv/www && echo ok > /srv/www/index.html && trap 'exit 0' TERM && httpd -f -p 8000 -h /srv/www & wait"]
                    networks:
                      - proxy
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`)"
                        - "coop-cloud.${STACK_NAME}.version=%s"
                networks:
                  proxy:
                    external: true
                """.formatted(version);
    }

    private Map<String, String> env() {
        return Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(), "ABRA_DIR", sandbox.resolve("abra").toString());
    }

    private String run(String runId, String recipes) throws Exception {
        MavenRun run = MavenRun.start(sandbox.resolve(runId + ".log"), env(), "-Drecipe=" + recipes,
                "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.stages=install,upgrade", "-Dccci.run-id=" + runId);
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        Matcher apps = APP.matcher(output);
        while (apps.find()) {
            MavenRun.removeLeftovers(apps.group(1));
        }
        return exit + "\n" + output;
    }

    @Test
    void aRunThenABrokenUpgradeLeaveAHistoryThatShowsTheDrop() throws Exception {
        Path recipe = TwoReleaseRecipe.make(sandbox.resolve("recipes"), "histsite", RunHistoryEndToEndTest::compose);
        TwoReleaseRecipe.make(sandbox.resolve("recipes"), "othersite", RunHistoryEndToEndTest::compose);

        assertThat(run("hist1", "histsite")).startsWith("0\n").contains("level 2, the first recorded run of its line");
        // the commit that breaks the upgrade: nothing of the compose changes after the release
        Files.writeString(recipe.resolve("NOTES.md"), "notes\n");
        for (List<String> git : List.of(List.of("add", "-A"), List.of("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm",
                "notes only"))) {
            List<String> command = new java.util.ArrayList<>(List.of("git", "-C", recipe.toString()));
            command.addAll(git);
            assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).isZero();
        }
        String third = run("hist3", "histsite,othersite");

        assertThat(third).startsWith("1\n").containsPattern("level 1, was 2 at [0-9a-f]{12}: regressed");
        assertThat(new RunHistory(sandbox.resolve("runs")).runs("histsite"))
                .extracting(r -> r.get("run_id").asText() + " " + r.get("level").asInt())
                .containsExactly("hist1 2", "hist3-histsite 1");
        String summary = Files.readString(sandbox.resolve("runs/hist3-histsite/summary.md"), StandardCharsets.UTF_8);
        assertThat(summary).containsPattern("level 1, was 2 at [0-9a-f]{12}: regressed");
        String catalogue = Files.readString(sandbox.resolve("runs/hist3/catalogue.html"), StandardCharsets.UTF_8);
        assertThat(catalogue).contains("2 → 1", "<b>histsite</b> (default): level 1, was 2 at");
        assertThat(catalogue).doesNotContain("<b>othersite</b>");
    }
}
