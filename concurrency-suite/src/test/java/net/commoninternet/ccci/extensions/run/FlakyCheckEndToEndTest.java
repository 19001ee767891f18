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
import javax.xml.parsers.DocumentBuilderFactory;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A real {@code mvn test} of two held-out recipes, their install tier alone: {@code flaky-site}, whose
 * app answers the probe's GET with 502 one time in two (and 200 otherwise), and {@code broken-site},
 * whose app always answers 502. Each failed check is tried again on the same live app, never
 * redeployed: the first reads {@code flaky} (failed, then passed on attempt 2 of 3) and fails its
 * tier, as this host does not allow flakes; the second reads {@code deterministic} after 3 attempts.
 * results.json carries every attempt, Surefire's XML is well-formed and carries a
 * {@code flakyFailure} and a failure with its {@code rerunFailure}s, and Surefire's own rerun of the
 * failed tests runs nothing and leaves the Open Test Reporting XML of the run in place; the
 * surefire-report plugin renders that XML. On a host that allows flakes the flaky run passes, and
 * the command, whose only test Surefire counts a flake, exits 0.
 */
@RealEngine
class FlakyCheckEndToEndTest {

    private static final Pattern APP = Pattern.compile("app (\\S+\\.ci\\.commoninternet\\.net)");

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    /**
     * A recipe whose app's HEALTH_PATH is a CGI that answers the probe (busybox wget) 502 on every
     * {@code failEvery}-th request from the first (1: always), and 200 to anything else (the report's
     * browser). Its 502 says "no space left on device" in its reason phrase: the app's words, which
     * never make its failure the host's full disk.
     */
    private static void recipe(Path recipes, String name, int failEvery) throws Exception {
        Path recipe = Files.createDirectories(recipes.resolve(name));
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: ccci.local/busybox:1
                    environment:
                      - FAIL_EVERY=%d
                    command:
                      - sh
                      - -c
                      - |
                        mkdir -p /www/cgi-bin
                        cat > /www/cgi-bin/index.cgi <<'CGI'
                        #!/bin/sh
                        case "$$HTTP_USER_AGENT" in
                          Wget*)
                            n=$$(cat /tmp/tries 2>/dev/null || echo 0); n=$$((n + 1)); echo "$$n" > /tmp/tries
                            if [ "$$FAIL_EVERY" -eq 1 ] || [ $$((n %% FAIL_EVERY)) -eq 1 ]; then
                              printf 'HTTP/1.0 502 Bad Gateway, no space left on device\\r\\nContent-Type: text/plain\\r\\n\\r\\ntry %%s\\n' "$$n"; exit 0
                            fi;;
                        esac
                        printf 'HTTP/1.0 200 OK\\r\\nContent-Type: text/plain\\r\\n\\r\\nok\\n'
                        CGI
                        chmod +x /www/cgi-bin/index.cgi
                        trap 'exit 0' TERM
                        httpd -f -p 8000 -h /www &
                        wait
                    networks:
                      - proxy
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`)"
                        - "coop-cloud.${STACK_NAME}.version=0.1.0+1.0"
                networks:
                  proxy:
                    external: true
                """.formatted(failEvery));
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=" + name + "\nDOMAIN=" + name + ".example.com\n");
        for (List<String> git : List.of(List.of("git", "init", "-q"), List.of("git", "add", "-A"),
                List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", name))) {
            assertThat(new ProcessBuilder(git).directory(recipe.toFile()).inheritIO().start().waitFor()).isZero();
        }
    }

    private JsonNode servesHttp(String run) throws Exception {
        JsonNode results = new ObjectMapper().readTree(sandbox.resolve("runs").resolve(run).resolve("results.json").toFile());
        for (JsonNode test : results.path("tests")) {
            if ("serves-http".equals(test.path("check").asText())) {
                return test;
            }
        }
        throw new AssertionError("no serves-http row in " + results);
    }

    /** The testcase of Surefire's XML named {@code name}, the XML parsed as XML (so well-formed). */
    private static Element testcase(Document xml, String name) {
        NodeList cases = xml.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element testcase = (Element) cases.item(i);
            if (name.equals(testcase.getAttribute("name"))) {
                return testcase;
            }
        }
        throw new AssertionError("no testcase " + name);
    }

    private static int children(Element testcase, String tag) {
        return testcase.getElementsByTagName(tag).getLength();
    }

    @Test
    void onAHostThatAllowsFlakesAFlakyCheckPassesItsTierAndTheCommandExitsZero() throws Exception {
        Path recipes = Files.createDirectories(sandbox.resolve("recipes"));
        recipe(recipes, "flaky-site", 2);

        MavenRun run = MavenRun.start(sandbox.resolve("allowed.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=flaky-site", "-Dccci.recipes=" + recipes,
                "-Dccci.stages=install", "-Dccci.run-id=e2e-allowed", "-Dccci.pr=3043", "-Dccci.allow-flaky=true");
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        Matcher app = APP.matcher(output);
        try {
            assertThat(exit).as(output).isZero();
            JsonNode results = new ObjectMapper().readTree(sandbox.resolve("runs/e2e-allowed/results.json").toFile());
            assertThat(results.path("rungs").path("install").asText()).as(results.toPrettyString()).isEqualTo("pass");
            JsonNode flaky = servesHttp("e2e-allowed");
            assertThat(flaky.path("outcome").asText()).isEqualTo("flaky");
            assertThat(output).doesNotContain("[ERROR] ccci: run");
            Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml").toFile());
            assertThat(children(testcase(xml, "flaky-site > install > serves-http"), "flakyFailure")).isEqualTo(1);
            assertThat(run.reports().resolve("ccci-command-verdict.txt")).hasContent("passed\nruns 1");
        } finally {
            if (app.find()) {
                MavenRun.removeLeftovers(app.group(1));
            }
        }
    }

    /**
     * Surefire's report plugin (3.5.4: the newest whose dependencies this host's Maven repository holds)
     * run on {@code reports} in a project of its own under {@code scratch}: its page, surefire.html.
     */
    private static String rendered(Path reports, Path scratch) throws Exception {
        Files.createDirectories(scratch);
        Files.writeString(scratch.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                  <groupId>ccci.test</groupId><artifactId>rendered</artifactId><version>1</version><packaging>pom</packaging>
                  <build><plugins><plugin>
                    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-report-plugin</artifactId>
                    <version>3.5.4</version>
                    <configuration><reportsDirectories><reportsDirectory>%s</reportsDirectory></reportsDirectories></configuration>
                  </plugin></plugins></build>
                </project>
                """.formatted(reports), StandardCharsets.UTF_8);
        Process mvn = new ProcessBuilder("mvn", "-B", "-q", "org.apache.maven.plugins:maven-surefire-report-plugin:3.5.4:report-only")
                .directory(scratch.toFile()).redirectErrorStream(true).start();
        String out = new String(mvn.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(mvn.waitFor()).as(out).isZero();
        return Files.readString(scratch.resolve("target/reports/surefire.html"), StandardCharsets.UTF_8);
    }

    @Test
    void aCheckFailingOneTimeInTwoReadsFlakyAndOneAlwaysFailingReadsDeterministicWithoutARedeploy() throws Exception {
        Path recipes = Files.createDirectories(sandbox.resolve("recipes"));
        recipe(recipes, "flaky-site", 2);
        recipe(recipes, "broken-site", 1);

        MavenRun run = MavenRun.start(sandbox.resolve("flaky.log"), Map.of("CCCI_RUNS_DIR", sandbox.resolve("runs").toString(),
                "ABRA_DIR", sandbox.resolve("abra").toString()), "-Drecipe=flaky-site,broken-site", "-Dccci.recipes=" + recipes,
                "-Dccci.stages=install", "-Dccci.run-id=e2e-flaky", "-Dccci.pr=3042");
        int exit = run.waitFor(Duration.ofMinutes(10));
        String output = run.output();
        List<String> domains = new ArrayList<>();
        Matcher app = APP.matcher(output);
        while (app.find()) {
            domains.add(app.group(1));
        }
        try {
            assertThat(exit).as(output).isEqualTo(1);
            // one deploy each: the checks were tried again on the live app, never redeployed
            assertThat(output).contains("deploy 1 of this run's app").doesNotContain("deploy 2 of this run's app");

            JsonNode flaky = servesHttp("e2e-flaky-flaky-site");
            assertThat(flaky.path("status").asText()).isEqualTo("passed");
            assertThat(flaky.path("outcome").asText()).isEqualTo("flaky");
            assertThat(flaky.path("attempts")).hasSize(2);
            assertThat(flaky.path("attempts").get(0).path("status").asText()).isEqualTo("failed");
            assertThat(flaky.path("attempts").get(0).path("message").asText()).contains("502");
            assertThat(flaky.path("attempts").get(1).path("status").asText()).isEqualTo("passed");
            assertThat(Files.readString(sandbox.resolve("runs/e2e-flaky-flaky-site/summary.md")))
                    .contains("flaky: passed on attempt 2 of 3");
            assertThat(Files.readString(sandbox.resolve("runs/e2e-flaky-flaky-site/report.html")))
                    .contains("flaky: passed on attempt 2 of 3");
            assertThat(new ObjectMapper().readTree(sandbox.resolve("runs/e2e-flaky-flaky-site/results.json").toFile())
                    .path("rungs").path("install").asText()).as("a flake fails its rung on a host that does not allow them")
                    .isEqualTo("fail");

            JsonNode broken = servesHttp("e2e-flaky-broken-site");
            assertThat(broken.path("status").asText()).isEqualTo("failed");
            assertThat(broken.path("outcome").asText()).isEqualTo("deterministic");
            assertThat(broken.path("attempts")).hasSize(3);
            broken.path("attempts").forEach(a -> assertThat(a.path("message").asText()).contains("502"));
            // the app's own words say ENOSPC: still the recipe's red, never the host's disk
            assertThat(broken.path("attempts").get(0).path("message").asText()).contains("no space left on device");
            assertThat(new ObjectMapper().readTree(sandbox.resolve("runs/e2e-flaky-broken-site/results.json").toFile())
                    .path("host_faults")).isEmpty();

            Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml").toFile());
            Element flakyCase = testcase(xml, "flaky-site > install > serves-http");
            assertThat(children(flakyCase, "flakyFailure")).isEqualTo(1);
            assertThat(children(flakyCase, "failure")).isZero();
            Element brokenCase = testcase(xml, "broken-site > install > serves-http");
            assertThat(children(brokenCase, "failure")).isEqualTo(1);
            assertThat(children(brokenCase, "rerunFailure")).isEqualTo(2);
            // the surefire-report plugin renders it: both checks, the deterministic one's failure with its reason
            String page = rendered(run.reports(), sandbox.resolve("rendered"));
            assertThat(page).contains("flaky-site &gt; install &gt; serves-http", "broken-site &gt; install &gt; serves-http",
                    "serves-http-failure", "502");
            // Surefire's rerun of the failed tests ran nothing and left the run's own report
            assertThat(output).contains("Flakes: 1");
            Path otr = run.reports().resolve("open-test-report.xml");
            DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(otr.toFile());
            assertThat(Files.readString(otr)).contains("flaky-site", "broken-site", "serves-http");
            assertThat(run.reports().resolve("open-test-report.xml.ccci-kept")).doesNotExist();
        } finally {
            for (String domain : domains) {
                MavenRun.removeLeftovers(domain);
            }
        }
    }
}
