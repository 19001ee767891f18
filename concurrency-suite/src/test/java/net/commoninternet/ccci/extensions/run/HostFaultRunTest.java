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
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.RefusingEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A red that is the host's reads as the host's: real {@code mvn test -Drecipe=...} runs of a small
 * recipe, install only, on the real engine, each with a fault of the host's caused for real. An image
 * the engine cannot pull (a public registry this machine cannot reach) and an engine that refuses the
 * run's container start leave the install rung unver and the run unverified, with the cause and what
 * to do in results.json, report.html, summary.md, the RUN SUMMARY and as an {@code <error>} in the
 * Surefire XML; an image that does not exist under ccci's local name stays the recipe's red.
 */
@RealEngine
class HostFaultRunTest {

    /** The deploy timeout of an app whose image never runs: its wait is all the run's time. */
    private static final int NEVER_CONVERGES = 10;
    /** ... and of one that must converge: a bound a loaded machine's gVisor start fits in, never waited out. */
    private static final int CONVERGES = 180;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    private final List<String> domains = new ArrayList<>();

    @AfterEach
    void leaveNothingOnTheSwarm() throws Exception {
        for (String domain : domains) {
            MavenRun.removeLeftovers(domain);
        }
    }

    /**
     * A public image on a registry the engine cannot reach (this machine has no route out): the task
     * says only "No such image"; the engine, asked again, cannot reach registry-1.docker.io. The
     * deploy is the host's failure. Beside it, a ccci.local image nobody built: the recipe's, red.
     */
    @Test
    void anImageTheEngineCannotPullIsTheHostsAndAnImageThatDoesNotExistIsTheRecipes() throws Exception {
        MavenRun unpullable = run("unpullable", 3201, "docker.io/library/nginx:1.27", NEVER_CONVERGES, Map.of());
        MavenRun missing = run("missing", 3202, LocalImages.BUSYBOX.replace("busybox:1", "no-such-image:1"), NEVER_CONVERGES,
                Map.of());

        assertThat(unpullable.waitFor(Duration.ofMinutes(5))).as(unpullable.output()).isNotZero();
        JsonNode results = results("unpullable");
        assertThat(results.path("verdict").asText()).isEqualTo("unverified");
        assertThat(results.path("rungs").path("install").asText()).isEqualTo("unver");
        assertThat(results.path("counts").path("failed").asInt()).isZero();
        assertThat(results.path("host_faults")).hasSize(1);
        JsonNode fault = results.path("host_faults").get(0);
        assertThat(fault.path("cause").asText()).isEqualTo("image_pull");
        assertThat(fault.path("check").asText()).isEqualTo("deploy");
        String sentence = fault.path("message").asText();
        assertThat(sentence).startsWith("the host's fault, not the recipe's: an image could not be pulled; rerun once the"
                + " engine reaches the registry again").contains("nginx:1.27", "registry-1.docker.io", "no such host");
        assertHostsEverywhere(unpullable, "unpullable", "install > deploy", sentence);

        assertThat(missing.waitFor(Duration.ofMinutes(5))).as(missing.output()).isNotZero();
        JsonNode red = results("missing");
        assertThat(red.path("verdict").asText()).isEqualTo("failed");
        assertThat(red.path("rungs").path("install").asText()).isEqualTo("fail");
        assertThat(red.path("host_faults")).isEmpty();
        assertThat(red.path("tests").get(0).path("message").asText()).startsWith("image ccci.local/no-such-image:1 of service"
                + " app is neither on this host nor pullable");
        assertThat(red.toString()).doesNotContain("the host's fault");
        String xml = surefireXml(missing);
        assertThat(xml).as(xml).contains("<failure").doesNotContain("HostFault", "<error");
    }

    /**
     * The engine refuses every container start the run asks for (HTTP 500, as a failing runtime
     * answers), through a proxy in front of the real engine's socket: the app's probe container never
     * starts, so its HTTP check is the host's failure, not the recipe's.
     */
    @Test
    void anEngineThatRefusesTheRunsContainerStartIsTheHosts() throws Exception {
        try (RefusingEngine engine = RefusingEngine.start(sandbox.resolve("docker.sock"), RefusingEngine.CONTAINER_START,
                "OCI runtime start failed: the test's engine refuses every container start")) {
            // its app must converge (the refusal is the probe's): a loaded machine's gVisor may take more than 10 s
            MavenRun run = run("refused", 3203, LocalImages.BUSYBOX, CONVERGES, Map.of("DOCKER_HOST", engine.dockerHost()));

            assertThat(run.waitFor(Duration.ofMinutes(5))).as(run.output()).isNotZero();
            assertThat(engine.refusals()).isPositive();
            JsonNode results = results("refused");
            assertThat(results.path("verdict").asText()).as("results.json: %s%nthe run: %s", results, run.output())
                    .isEqualTo("unverified");
            assertThat(results.path("rungs").path("install").asText()).isEqualTo("unver");
            assertThat(results.path("counts").path("failed").asInt()).isZero();
            JsonNode fault = results.path("host_faults").get(0);
            assertThat(fault.path("cause").asText()).isEqualTo("engine");
            assertThat(fault.path("check").asText()).isEqualTo("serves-http");
            String sentence = fault.path("message").asText();
            assertThat(sentence).startsWith("the host's fault, not the recipe's: the Docker engine failed; rerun; if it"
                    + " happens again, tell the host's operator").contains("HTTP 500",
                    "the test's engine refuses every container start");
            assertHostsEverywhere(run, "refused", "install > serves-http", sentence);
        }
    }

    /** The fault, whole, in summary.md, report.html, the RUN SUMMARY, and an {@code <error>} in the Surefire XML. */
    private void assertHostsEverywhere(MavenRun run, String runId, String where, String sentence) throws IOException {
        Path runDir = sandbox.resolve("runs").resolve(runId);
        assertThat(results(runId).path("flags").path("clean_teardown").asBoolean()).as("clean teardown").isTrue();
        assertThat(runDir.resolve("summary.md")).content().contains("**Not verified: the host's fault, not the recipe's**",
                "- `" + where + "`: `" + sentence + "`").doesNotContain("Failing checks");
        assertThat(runDir.resolve("report.html")).content().contains("Not verified: the host's fault, not the recipe's", "unverified (the host&#39;s fault)",
                "class=\"verdict unverified\"").doesNotContain("Where it broke");
        assertThat(run.output()).contains("== RUN SUMMARY ", "  " + where + ": not verified — " + sentence)
                .doesNotContain(where + ": failed");
        String xml = surefireXml(run);
        assertThat(xml).as(xml).contains("<error", "net.commoninternet.ccci.spi.HostFault",
                "the host&apos;s fault, not the recipe&apos;s").doesNotContain("<failure");
    }

    private MavenRun run(String runId, int pr, String image, int timeout, Map<String, String> extra) throws IOException {
        Path recipes = recipe(runId, image, timeout);
        Map<String, String> env = new HashMap<>(Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra-" + runId).toString()));
        env.putAll(extra);
        MavenRun run = MavenRun.start(sandbox.resolve(runId + ".log"), env, "-Drecipe=hostfault", "-Dccci.recipes=" + recipes,
                "-Dccci.pr=" + pr, "-Dccci.stages=install", "-Dccci.run-id=" + runId);
        domains.add(MavenRun.Started.parse(run.awaitLine("== ccci run ", Duration.ofMinutes(5))).domain());
        return run;
    }

    /** A one-service recipe of {@code image} whose deploy may take {@code timeout} seconds to converge. */
    private Path recipe(String name, String image, int timeout) throws IOException {
        Path recipe = Files.createDirectories(sandbox.resolve("recipes-" + name + "/hostfault"));
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: ["sh", "-c", "mkdir -p /srv && echo ok > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                    networks: [proxy]
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                        - "coop-cloud.${STACK_NAME}.timeout=%d"
                networks:
                  proxy:
                    external: true
                """.formatted(image, timeout), StandardCharsets.UTF_8);
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=hostfault\nDOMAIN=hostfault.example.com\n", StandardCharsets.UTF_8);
        return recipe.getParent();
    }

    private JsonNode results(String runId) throws IOException {
        return new ObjectMapper().readTree(sandbox.resolve("runs").resolve(runId).resolve("results.json").toFile());
    }

    private static String surefireXml(MavenRun run) throws IOException {
        return Files.readString(run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml"),
                StandardCharsets.UTF_8);
    }
}
