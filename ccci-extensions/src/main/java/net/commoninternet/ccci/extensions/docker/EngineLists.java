package net.commoninternet.ccci.extensions.docker;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * An engine's object lists (nodes, services, containers, volumes, secrets, configs, networks)
 * read as JSON trees through docker-java's raw HTTP client, for the lists a run makes before its
 * first deploy (the janitor's node list, the lock's leftover check). docker-java's typed list
 * commands bind each answer to its model beans, and a cold JVM builds a Jackson bean deserializer
 * for every model type on first use (a service alone is some forty nested types): on two cores
 * that cost a run's first lists over a hundred milliseconds; a tree reads the few fields these
 * callers need.
 *
 * <p>Requests and failures as docker-java's typed commands make them: the same paths, filters
 * encoded as it encodes them ({@code {"label":["k=v"]}}: a label filter with a value matches that
 * exact value, a key alone matches the key's presence), and an answer other than 200 thrown as a
 * {@link DockerException} whose message is {@code Status <code>: <body>}, so
 * {@link DockerEngine#unreachable} and {@link DockerEngine#engineSays} read it as before. A socket
 * that fails is thrown as the HTTP client throws it.
 */
@API(status = API.Status.INTERNAL)
public final class EngineLists {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    private EngineLists() {
    }

    /**
     * The raw HTTP client behind a client ccci made: every {@link DockerClient} of ccci is one of
     * {@link DockerEngine}'s ({@code DockerClientImpl} over the client it built).
     */
    public static DockerHttpClient http(DockerClient client) {
        if (client instanceof DockerClientImpl impl) {
            return impl.getHttpClient();
        }
        throw new IllegalArgumentException("not a client of ccci's DockerEngine: " + client.getClass().getName());
    }

    /** {@code {"label": [label]}}: objects carrying that label ({@code k=v}: with exactly that value). */
    public static Map<String, List<String>> label(String label) {
        return Map.of("label", List.of(label));
    }

    /**
     * {@code GET path} with {@code filters} (none if empty) as a tree; {@code path} may carry a
     * query already ({@code /containers/json?all=true}).
     */
    public static JsonNode get(DockerHttpClient http, String path, Map<String, List<String>> filters) {
        String query = filters.isEmpty() ? "" : (path.contains("?") ? "&" : "?") + "filters="
                + URLEncoder.encode(encode(filters), StandardCharsets.UTF_8);
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path(path + query)
                .build();
        try (DockerHttpClient.Response response = http.execute(request); InputStream body = response.getBody()) {
            if (response.getStatusCode() != 200) {
                throw new DockerException(new String(body.readAllBytes(), StandardCharsets.UTF_8), response.getStatusCode());
            }
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As docker-java's FiltersEncoder writes them, without Jackson's serializers (a first use costs a cold JVM too). */
    static String encode(Map<String, List<String>> filters) {
        StringBuilder json = new StringBuilder("{");
        for (Map.Entry<String, List<String>> filter : filters.entrySet()) {
            json.append(json.length() > 1 ? "," : "").append('"').append(QUOTE.quoteAsString(filter.getKey())).append("\":[");
            for (int i = 0; i < filter.getValue().size(); i++) {
                json.append(i > 0 ? "," : "").append('"').append(QUOTE.quoteAsString(filter.getValue().get(i))).append('"');
            }
            json.append(']');
        }
        return json.append('}').toString();
    }
}
