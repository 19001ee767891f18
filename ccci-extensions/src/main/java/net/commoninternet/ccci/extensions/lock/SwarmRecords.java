package net.commoninternet.ccci.extensions.lock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * Small records kept in the swarm's replicated (raft) store: swarm configs whose labels are the
 * record and change only by compare-and-swap. Every update names the version it read
 * ({@code POST /configs/{id}/update?version=N}); the leader refuses a stale one with "update out of
 * sequence" inside its store transaction, so of two writers that read the same version exactly one
 * wins. A create of an existing name is refused (409): create-if-absent. Timestamps are set by the
 * leader when it applies a change (the swarm's own clock). A delete is not versioned: callers delete
 * only by id, and only a record they moved to a terminal state first.
 *
 * <p>Raw requests through docker-java's HTTP client: docker-java 3.7.0 has no config update and its
 * config model carries no labels. Only managers answer (a worker says 503).
 */
@API(status = API.Status.INTERNAL)
public class SwarmRecords {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Config data is immutable and must not be empty: the labels are the record. */
    private static final String DATA = Base64.getEncoder().encodeToString(
            "a ccci record: its labels are the state".getBytes(StandardCharsets.UTF_8));
    /** The record whose update time is the swarm's "now" ({@link #swarmNow}). */
    static final String CLOCK = "ccci-swarm-clock";
    static final String CLOCK_LABEL = "net.commoninternet.ccci.clock";

    /** One record as the managers store it. */
    public record Stored(String id, String name, long version, Instant updatedAt, Map<String, String> labels) {
        public Stored {
            labels = Map.copyOf(labels);
        }

        public String label(String key) {
            return labels.getOrDefault(key, "");
        }
    }

    /** What a compare-and-swap came to. */
    public enum Swap { SWAPPED, OUT_OF_SEQUENCE, GONE }

    private final DockerHttpClient http;

    public SwarmRecords(DockerHttpClient http) {
        this.http = http;
    }

    /** Creates the record; empty if one of that name exists (409): someone else created it first. */
    public Optional<Stored> create(String name, Map<String, String> labels) throws IOException {
        ObjectNode spec = spec(name, labels);
        Answer created = call(DockerHttpClient.Request.Method.POST, "/configs/create", spec);
        if (created.status() == 409) {
            return Optional.empty();
        }
        created.require(201, "creating " + name);
        return read(created.json().path("ID").asText());
    }

    /** The record by name or id; empty if there is none. */
    public Optional<Stored> read(String nameOrId) throws IOException {
        Answer answer = call(DockerHttpClient.Request.Method.GET, "/configs/" + nameOrId, null);
        if (answer.status() == 404) {
            return Optional.empty();
        }
        answer.require(200, "reading " + nameOrId);
        return Optional.of(stored(answer.json()));
    }

    /**
     * Replaces the labels of the record as it was read: {@link Swap#SWAPPED} only if nobody wrote it
     * since. The new version is not returned by the engine: read the record again to learn it.
     */
    public Swap swap(Stored seen, Map<String, String> labels) throws IOException {
        Answer answer = call(DockerHttpClient.Request.Method.POST, "/configs/" + seen.id() + "/update?version=" + seen.version(),
                spec(seen.name(), labels));
        if (answer.status() == 404) {
            return Swap.GONE;
        }
        if (answer.status() == 500 && answer.message().contains("update out of sequence")) {
            return Swap.OUT_OF_SEQUENCE;
        }
        answer.require(200, "updating " + seen.name());
        return Swap.SWAPPED;
    }

    /** Deletes by id (a record of that id already gone is no error). */
    public void delete(String id) throws IOException {
        Answer answer = call(DockerHttpClient.Request.Method.DELETE, "/configs/" + id, null);
        if (answer.status() != 404) {
            answer.require(204, "deleting " + id);
        }
    }

    /** Every record carrying the label {@code key}. */
    public List<Stored> list(String key) throws IOException {
        String filter = URLEncoder.encode("{\"label\":[\"" + key + "\"]}", StandardCharsets.UTF_8);
        Answer answer = call(DockerHttpClient.Request.Method.GET, "/configs?filters=" + filter, null);
        answer.require(200, "listing records");
        List<Stored> records = new ArrayList<>();
        answer.json().forEach(node -> records.add(stored(node)));
        return records;
    }

    /**
     * The swarm's own clock: the time the leader gives a write it applies now. Read by updating one
     * shared clock record (created once) and reading it back; a writer that raced us wrote it after our
     * read, so its time is just as recent. Never the answering host's clock ({@code /info} would be).
     */
    public Instant swarmNow() throws IOException {
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<Stored> clock = read(CLOCK);
            if (clock.isEmpty()) {
                Optional<Stored> created = create(CLOCK, Map.of(CLOCK_LABEL, "0"));
                if (created.isPresent()) {
                    return created.get().updatedAt();
                }
                continue;
            }
            Stored seen = clock.get();
            long tick = parse(seen.label(CLOCK_LABEL)) + 1;
            Swap swap = swap(seen, Map.of(CLOCK_LABEL, Long.toString(tick)));
            if (swap != Swap.GONE) {
                Optional<Stored> after = read(CLOCK);
                if (after.isPresent() && after.get().version() != seen.version()) {
                    return after.get().updatedAt();
                }
            }
        }
        throw new IOException("could not read the swarm's clock (its record " + CLOCK + " kept changing or vanishing)");
    }

    private static long parse(String number) {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static ObjectNode spec(String name, Map<String, String> labels) {
        ObjectNode spec = JSON.createObjectNode();
        spec.put("Name", name);
        ObjectNode labelNode = spec.putObject("Labels");
        new TreeMap<>(labels).forEach(labelNode::put);
        spec.put("Data", DATA);
        return spec;
    }

    private static Stored stored(JsonNode node) {
        Map<String, String> labels = new TreeMap<>();
        node.path("Spec").path("Labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return new Stored(node.path("ID").asText(), node.path("Spec").path("Name").asText(),
                node.path("Version").path("Index").asLong(), Instant.parse(node.path("UpdatedAt").asText()), labels);
    }

    private Answer call(DockerHttpClient.Request.Method method, String path, JsonNode body) throws IOException {
        DockerHttpClient.Request.Builder request = DockerHttpClient.Request.builder().method(method).path(path);
        if (body != null) {
            request.putHeader("Content-Type", "application/json")
                    .body(new ByteArrayInputStream(JSON.writeValueAsBytes(body)));
        }
        try (DockerHttpClient.Response response = http.execute(request.build())) {
            byte[] bytes = response.getBody() == null ? new byte[0] : response.getBody().readAllBytes();
            return new Answer(response.getStatusCode(), new String(bytes, StandardCharsets.UTF_8));
        }
    }

    private record Answer(int status, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body.isBlank() ? "{}" : body);
        }

        String message() {
            try {
                return json().path("message").asText(body);
            } catch (IOException notJson) {
                return body;
            }
        }

        void require(int expected, String what) throws IOException {
            if (status != expected) {
                throw new IOException(what + " in the swarm failed: HTTP " + status + ": " + message().strip());
            }
        }
    }
}
