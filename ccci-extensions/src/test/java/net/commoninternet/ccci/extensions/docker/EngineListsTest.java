package net.commoninternet.ccci.extensions.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.core.util.FiltersEncoder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.junit.jupiter.api.Test;

/**
 * The raw lists ask what docker-java's typed lists ask and fail as they fail: the filters encoded
 * as docker-java's own encoder writes them, the path and query sent, an engine error thrown with
 * docker-java's message form (which {@link DockerEngine#unreachable} and
 * {@link DockerEngine#engineSays} read). Against the real engine: StackTeardownTest,
 * JanitorSwarmTest (concurrency-suite).
 */
class EngineListsTest {

    @Test
    void filtersAreEncodedAsDockerJavasOwnEncoderEncodesThem() {
        Map<String, List<String>> several = new LinkedHashMap<>();
        several.put("label", List.of("com.docker.stack.namespace=cust-0836e4_ci_commoninternet_net", "a\"quote\\d=é"));
        several.put("status", List.of("created", "exited"));
        for (Map<String, List<String>> filters : List.of(EngineLists.label(StackLabels.filter("s_ci")),
                EngineLists.label(StackLabels.NAMESPACE), several)) {
            assertThat(EngineLists.encode(filters)).isEqualTo(FiltersEncoder.jsonEncode(filters));
        }
    }

    @Test
    void aListSendsItsPathAndTheUrlEncodedFiltersAndReturnsTheTree() {
        AnsweringEngine engine = new AnsweringEngine(200, path -> "[{\"Spec\":{\"Name\":\"s_ci_app\"}}]");
        var services = EngineLists.get(engine, "/services", EngineLists.label(StackLabels.filter("s_ci")));
        assertThat(services.get(0).path("Spec").path("Name").asText()).isEqualTo("s_ci_app");
        EngineLists.get(engine, "/containers/json?all=true", EngineLists.label("k=v"));
        EngineLists.get(engine, "/nodes", Map.of());
        assertThat(engine.paths).containsExactly(
                "GET /services?filters=%7B%22label%22%3A%5B%22com.docker.stack.namespace%3Ds_ci%22%5D%7D",
                "GET /containers/json?all=true&filters=%7B%22label%22%3A%5B%22k%3Dv%22%5D%7D",
                "GET /nodes");
    }

    @Test
    void anEngineErrorIsThrownAsDockerJavaThrowsIt() {
        AnsweringEngine worker = new AnsweringEngine(503, path -> "{\"message\":\"This node is not a swarm manager.\"}");
        assertThatThrownBy(() -> EngineLists.get(worker, "/nodes", Map.of()))
                .isInstanceOfSatisfying(DockerException.class, e -> {
                    assertThat(e.getHttpStatus()).isEqualTo(503);
                    assertThat(e.getMessage()).isEqualTo("Status 503: {\"message\":\"This node is not a swarm manager.\"}");
                    assertThat(DockerEngine.unreachable(e)).as("a swarm that is not serving").isTrue();
                    assertThat(DockerEngine.engineSays(e)).isEqualTo("This node is not a swarm manager.");
                });
    }
}
