package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealProcesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/pr-comment}, the docs' comment and status calls (docs/forges.md), run for real against a
 * stand-in of each forge's API: a small HTTP server holding a pull request's comments and the commit
 * statuses it was sent, recording every request's method, path, headers and body. The first run of a
 * recipe creates its one comment, the second edits that same comment; other comments are left alone;
 * the commit gets the status {@code ccci/<recipe>}, "level N", linked to the report.
 */
@RealProcesses
class PrCommentTest {

    private static final Path SCRIPT = MavenRun.ROOT.resolve("scripts/pr-comment");
    private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
    private static final String REPORT = "https://ci.example.org/ccci-runs/77/report.html";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as the forge saw it. */
    record Request(String method, String path, String authorization, String accept, JsonNode body) {
    }

    /**
     * A forge's API as far as the script uses it, by Gitea's paths (under {@code /api/v1}) or GitHub's
     * (at the root, comments listed {@code per_page} at a time): the comments of pull request 7 of
     * {@code coop-cloud/custom-html}, and the statuses set.
     */
    static final class StandInForge implements AutoCloseable {
        private final HttpServer server;
        private final String prefix;
        private final boolean github;
        final List<Request> requests = new ArrayList<>();
        final Map<Long, String> comments = new LinkedHashMap<>();
        final List<JsonNode> statuses = new ArrayList<>();
        private long nextId = 1000;
        private int answerAll;

        StandInForge(boolean github) throws IOException {
            this.github = github;
            this.prefix = github ? "" : "/api/v1";
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", this::handle);
            server.start();
        }

        String api() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + prefix;
        }

        long comment(String body) {
            long id = nextId++;
            comments.put(id, body);
            return id;
        }

        /** Every request from now on is answered with {@code status}, as a forge refusing a token does. */
        void refuseWith(int status) {
            answerAll = status;
        }

        private synchronized void handle(HttpExchange exchange) throws IOException {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().toString();
            byte[] in = exchange.getRequestBody().readAllBytes();
            requests.add(new Request(method, path, exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Accept"), in.length == 0 ? null : JSON.readTree(in)));
            if (answerAll != 0) {
                send(exchange, answerAll, "{\"message\":\"token is required\"}");
                return;
            }
            String repo = prefix + "/repos/coop-cloud/custom-html";
            Matcher list = Pattern.compile(Pattern.quote(repo) + "/issues/7/comments(\\?per_page=(\\d+)&page=(\\d+))?").matcher(path);
            Matcher edit = Pattern.compile(Pattern.quote(repo) + "/issues/comments/(\\d+)").matcher(path);
            Matcher status = Pattern.compile(Pattern.quote(repo) + "/statuses/([0-9a-f]+)").matcher(path);
            if (method.equals("GET") && list.matches() && (github == (list.group(1) != null))) {
                List<Map.Entry<Long, String>> all = new ArrayList<>(comments.entrySet());
                int from = 0;
                int to = all.size();
                if (github) {
                    int perPage = Integer.parseInt(list.group(2));
                    from = Math.min(all.size(), (Integer.parseInt(list.group(3)) - 1) * perPage);
                    to = Math.min(all.size(), from + perPage);
                }
                ArrayNode page = JSON.createArrayNode();
                all.subList(from, to).forEach(c -> page.addObject().put("id", c.getKey()).put("body", c.getValue()));
                send(exchange, 200, page.toString());
            } else if (method.equals("POST") && list.matches() && list.group(1) == null) {
                long id = comment(JSON.readTree(in).path("body").asText());
                send(exchange, 201, JSON.createObjectNode().put("id", id).put("body", comments.get(id)).toString());
            } else if (method.equals("PATCH") && edit.matches() && comments.containsKey(Long.parseLong(edit.group(1)))) {
                comments.put(Long.parseLong(edit.group(1)), JSON.readTree(in).path("body").asText());
                send(exchange, 200, "{}");
            } else if (method.equals("POST") && status.matches()) {
                statuses.add(JSON.readTree(in));
                send(exchange, 201, "{}");
            } else {
                send(exchange, 404, "{\"message\":\"not found\"}");
            }
        }

        private static void send(HttpExchange exchange, int status, String body) throws IOException {
            byte[] out = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @TempDir
    Path sandbox;
    private Path runFolder;
    private StandInForge forge;

    @BeforeEach
    void runFolder() throws IOException {
        runFolder = Files.createDirectories(sandbox.resolve("runs/77"));
    }

    @AfterEach
    void stopTheForge() {
        if (forge != null) {
            forge.close();
        }
    }

    /** A run's results as RunResults writes them: summary.md with its marker, results.json's level and verdict. */
    private void runEnded(String headline, int level, String verdict) throws IOException {
        Files.writeString(runFolder.resolve("summary.md"), "<!-- ccci:custom-html -->\n### ccci: custom-html 1.1.0+1.22.1 — "
                + headline + "\n\n| rung | verdict |\n| --- | --- |\n| install | pass |\n");
        ObjectNode results = JSON.createObjectNode().put("recipe", "custom-html").put("level", level).put("verdict", verdict);
        Files.writeString(runFolder.resolve("results.json"), results.toString());
    }

    /** What the script printed and how it exited. */
    record Outcome(int exit, String output) {
    }

    private Outcome prComment(Map<String, String> overrides, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("CCCI_"));
        env.putAll(Map.of("CCCI_FORGE", forge.github ? "github" : "forgejo", "CCCI_FORGE_API", forge.api(),
                "CCCI_FORGE_REPO", "coop-cloud/custom-html", "CCCI_FORGE_TOKEN", "t0ken", "CCCI_PR", "7", "CCCI_COMMIT", SHA));
        env.putAll(overrides);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Outcome(process.exitValue(), output);
    }

    private Outcome prComment() throws Exception {
        return prComment(Map.of(), "custom-html", runFolder.toString(), REPORT);
    }

    @Test
    void onGiteaOrForgejoTheFirstRunCreatesTheRecipesCommentAndTheSecondEditsItAndEachSetsTheStatus() throws Exception {
        forge = new StandInForge(false);
        long human = forge.comment("Looks good to me, but can ccci check the upgrade?");
        long other = forge.comment("<!-- ccci:notes-demo -->\n### ccci: notes-demo — level 4, passed");
        runEnded("level 1, failed", 1, "failed");

        Outcome first = prComment();

        assertThat(first.exit()).as(first.output()).isZero();
        assertThat(forge.requests).extracting(Request::method, Request::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple("GET", "/api/v1/repos/coop-cloud/custom-html/issues/7/comments"),
                org.assertj.core.groups.Tuple.tuple("POST", "/api/v1/repos/coop-cloud/custom-html/issues/7/comments"),
                org.assertj.core.groups.Tuple.tuple("POST", "/api/v1/repos/coop-cloud/custom-html/statuses/" + SHA));
        assertThat(forge.requests).allSatisfy(r -> assertThat(r.authorization()).isEqualTo("token t0ken"));
        String created = forge.requests.get(1).body().path("body").asText();
        assertThat(created).startsWith("<!-- ccci:custom-html -->\n### ccci: custom-html 1.1.0+1.22.1 — level 1, failed")
                .endsWith("\n\n[report.html](" + REPORT + ")\n");
        assertThat(forge.statuses).singleElement().satisfies(status -> {
            assertThat(status.path("context").asText()).isEqualTo("ccci/custom-html");
            assertThat(status.path("state").asText()).isEqualTo("failure");
            assertThat(status.path("description").asText()).isEqualTo("level 1, failed");
            assertThat(status.path("target_url").asText()).isEqualTo(REPORT);
        });
        long mine = forge.comments.keySet().stream().filter(id -> id != human && id != other).findFirst().orElseThrow();
        assertThat(first.output()).contains("created comment " + mine + " of custom-html on pull request 7",
                "status ccci/custom-html of " + SHA + ": failure (level 1, failed)");

        forge.requests.clear();
        runEnded("level 4, passed", 4, "passed");
        Outcome second = prComment();

        assertThat(second.exit()).as(second.output()).isZero();
        assertThat(forge.requests).extracting(Request::method, Request::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple("GET", "/api/v1/repos/coop-cloud/custom-html/issues/7/comments"),
                org.assertj.core.groups.Tuple.tuple("PATCH", "/api/v1/repos/coop-cloud/custom-html/issues/comments/" + mine),
                org.assertj.core.groups.Tuple.tuple("POST", "/api/v1/repos/coop-cloud/custom-html/statuses/" + SHA));
        assertThat(forge.comments).as("one comment per recipe, the others untouched").hasSize(3)
                .containsEntry(human, "Looks good to me, but can ccci check the upgrade?")
                .containsEntry(other, "<!-- ccci:notes-demo -->\n### ccci: notes-demo — level 4, passed");
        assertThat(forge.comments.get(mine)).contains("level 4, passed").doesNotContain("level 1");
        assertThat(forge.statuses.get(1).path("state").asText()).isEqualTo("success");
        assertThat(forge.statuses.get(1).path("description").asText()).isEqualTo("level 4, passed");
        assertThat(second.output()).contains("edited comment " + mine + " of custom-html on pull request 7");
    }

    /** GitHub lists a pull request's comments 100 at a time: the recipe's comment on the second page is found. */
    @Test
    void onGitHubTheRecipesCommentIsFoundOnAnyPageAndEditedWithGitHubsHeaders() throws Exception {
        forge = new StandInForge(true);
        for (int i = 0; i < 130; i++) {
            forge.comment("comment " + i);
        }
        runEnded("level 0, unverified", 0, "unverified");
        assertThat(prComment().exit()).isZero();
        long mine = forge.comments.keySet().stream().reduce((a, b) -> b).orElseThrow();
        assertThat(forge.requests).extracting(Request::method, Request::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple("GET", "/repos/coop-cloud/custom-html/issues/7/comments?per_page=100&page=1"),
                org.assertj.core.groups.Tuple.tuple("GET", "/repos/coop-cloud/custom-html/issues/7/comments?per_page=100&page=2"),
                org.assertj.core.groups.Tuple.tuple("POST", "/repos/coop-cloud/custom-html/issues/7/comments"),
                org.assertj.core.groups.Tuple.tuple("POST", "/repos/coop-cloud/custom-html/statuses/" + SHA));
        assertThat(forge.requests).allSatisfy(r -> {
            assertThat(r.authorization()).isEqualTo("Bearer t0ken");
            assertThat(r.accept()).isEqualTo("application/vnd.github+json");
        });
        assertThat(forge.statuses.get(0).path("state").asText()).as("a run that proved nothing is not green").isEqualTo("error");

        forge.requests.clear();
        runEnded("level 4, passed", 4, "passed");
        assertThat(prComment().exit()).isZero();

        assertThat(forge.requests).extracting(Request::method, Request::path).contains(
                org.assertj.core.groups.Tuple.tuple("PATCH", "/repos/coop-cloud/custom-html/issues/comments/" + mine));
        assertThat(forge.comments).hasSize(131);
        assertThat(forge.comments.get(mine)).startsWith("<!-- ccci:custom-html -->").contains("level 4, passed");
    }

    @Test
    void aRunThatWroteNoResultsStillGetsItsOneCommentAndAnErrorStatus() throws Exception {
        forge = new StandInForge(false);

        Outcome outcome = prComment();

        assertThat(outcome.exit()).as(outcome.output()).isZero();
        assertThat(forge.comments.values()).singleElement().asString().startsWith("<!-- ccci:custom-html -->\n")
                .contains("no summary: the run ended before its results");
        assertThat(forge.statuses.get(0).path("state").asText()).isEqualTo("error");
        assertThat(forge.statuses.get(0).path("description").asText()).isEqualTo("no results: the run ended before them");
    }

    @Test
    void aRefusedTokenOrAMissingSettingIsOneLineAndANonZeroExit() throws Exception {
        forge = new StandInForge(false);
        runEnded("level 4, passed", 4, "passed");
        forge.refuseWith(401);

        Outcome refused = prComment();

        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.output().lines().toList()).singleElement().asString()
                .startsWith("pr-comment: the forge answered 401 to GET " + forge.api())
                .contains("check CCCI_FORGE_TOKEN").doesNotContain("Traceback", "t0ken");

        Outcome unset = prComment(Map.of("CCCI_FORGE_REPO", ""), "custom-html", runFolder.toString(), REPORT);
        assertThat(unset.exit()).isEqualTo(2);
        assertThat(unset.output()).isEqualTo("pr-comment: CCCI_FORGE_REPO is not set: set CCCI_FORGE (gitea, forgejo or"
                + " github), CCCI_FORGE_API, CCCI_FORGE_REPO, CCCI_FORGE_TOKEN, and CCCI_PR and/or CCCI_COMMIT (docs/forges.md).\n");
        Outcome unreachable = prComment(Map.of("CCCI_FORGE_API", "http://127.0.0.1:9/api/v1"), "custom-html",
                runFolder.toString(), REPORT);
        assertThat(unreachable.exit()).isEqualTo(1);
        assertThat(unreachable.output()).startsWith("pr-comment: could not reach the forge").contains("check CCCI_FORGE_API")
                .doesNotContain("Traceback");
    }
}
