package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.transport.DockerHttpClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the janitor looks, engine-free: env files on disk, and the swarm's lists as the engine
 * answers them (a stand-in HTTP client replaying answers in the engine's JSON; the real lists:
 * concurrency-suite's JanitorSwarmTest).
 */
class JanitorCandidatesTest {

    private static final String RUN = "cand-0a0a0a.ci.commoninternet.net";
    private static final String STACK = "cand-0a0a0a_ci_commoninternet_net";

    @TempDir
    Path servers;

    @Test
    void envFilesOfRunAppsAreCandidatesAndNothingElse() throws Exception {
        assertThat(JanitorCandidates.fromEnvFiles(servers.resolve("none"))).isEmpty();
        Path server = Files.createDirectories(servers.resolve("default"));
        Files.writeString(server.resolve(RUN + ".env"), "");
        Files.writeString(server.resolve("warm.example.org.env"), "");
        Files.writeString(server.resolve("cand-1b1b1b.ci.commoninternet.net.txt"), "");
        Files.createDirectories(server.resolve("cand-2c2c2c.ci.commoninternet.net.env"));
        assertThat(JanitorCandidates.fromEnvFiles(servers)).containsExactly(RUN);
    }

    /** Answers each list with the JSON given for its kind (the path's first segment). */
    private static DockerHttpClient answering(Map<String, String> byKind, int status) {
        return new DockerHttpClient() {
            @Override
            public void close() {
            }

            @Override
            public Response execute(Request request) {
                return answer(request, byKind, status);
            }
        };
    }

    private static DockerHttpClient.Response answer(DockerHttpClient.Request request, Map<String, String> byKind, int status) {
        {
            String kind = request.path().substring(1, request.path().indexOf('?'));
            assertThat(request.path()).contains("filters=").contains("com.docker.stack.namespace");
            byte[] body = byKind.getOrDefault(kind, "[]").getBytes(StandardCharsets.UTF_8);
            return new DockerHttpClient.Response() {
                @Override
                public int getStatusCode() {
                    return status;
                }

                @Override
                public Map<String, List<String>> getHeaders() {
                    return Map.of();
                }

                @Override
                public InputStream getBody() {
                    return new ByteArrayInputStream(body);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void everyStackLabelledObjectKindNamesItsRunApp() throws Exception {
        String labelled = "{\"Spec\":{\"Labels\":{\"com.docker.stack.namespace\":\"%s\"}}}";
        for (String kind : List.of("services", "secrets", "configs")) {
            assertThat(JanitorCandidates.fromSwarm(answering(Map.of(kind, "[" + labelled.formatted(STACK) + ","
                    + labelled.formatted("warm_example_org") + ",{\"Spec\":{\"Labels\":{}}}]"), 200)))
                    .as(kind).containsExactly(RUN);
        }
        assertThat(JanitorCandidates.fromSwarm(answering(Map.of("volumes",
                "{\"Volumes\":[{\"Labels\":{\"com.docker.stack.namespace\":\"" + STACK + "\"}}]}"), 200))).containsExactly(RUN);
        assertThat(JanitorCandidates.fromSwarm(answering(Map.of("networks",
                "[{\"Labels\":{\"com.docker.stack.namespace\":\"" + STACK + "\"}}]"), 200))).containsExactly(RUN);
        assertThat(JanitorCandidates.fromSwarm(answering(Map.of(), 200))).isEmpty();
        assertThatThrownBy(() -> JanitorCandidates.fromSwarm(answering(Map.of(), 500))).isInstanceOf(IOException.class)
                .hasMessage("listing services failed with HTTP 500");
    }
}
