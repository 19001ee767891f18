package net.commoninternet.ccci.extensions.lock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
import org.apiguardian.api.API;

/**
 * Where the janitor looks for run apps: the env files under the canonical {@code servers/}
 * (what {@code abra app ls} lists) and the swarm's stack-labelled objects (which still exist
 * when a run died after its env file was removed, or half-way through a teardown). One list
 * call per object kind, filtered by the engine on the stack label's presence; never one call
 * per stack. Both sources are filtered by {@link AppNaming#RUN_APP_RE}: warm and canonical
 * apps never become candidates.
 *
 * <p>The swarm lists go through docker-java's raw HTTP client: its typed commands cannot send
 * a key-only label filter ({@code label=com.docker.stack.namespace}) for services and secrets,
 * and its config model carries no labels.
 */
@API(status = API.Status.INTERNAL)
public final class JanitorCandidates {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILTER = URLEncoder.encode("{\"label\":[\"" + StackLabels.NAMESPACE + "\"]}",
            StandardCharsets.UTF_8);

    private JanitorCandidates() {
    }

    public static Set<String> discover(Path canonicalServers, DockerEngine docker) throws IOException {
        Set<String> domains = new TreeSet<>(fromEnvFiles(canonicalServers));
        domains.addAll(fromSwarm(docker.http()));
        return domains;
    }

    /** {@code servers/<server>/<domain>.env} for run-app domains. */
    static Set<String> fromEnvFiles(Path servers) throws IOException {
        Set<String> domains = new TreeSet<>();
        if (!Files.isDirectory(servers)) {
            return domains;
        }
        try (Stream<Path> files = Files.find(servers, 2, (p, a) -> a.isRegularFile() && p.toString().endsWith(".env"),
                FileVisitOption.FOLLOW_LINKS)) {
            files.map(p -> p.getFileName().toString())
                    .map(n -> n.substring(0, n.length() - ".env".length()))
                    .filter(AppNaming::isRunApp)
                    .forEach(domains::add);
        }
        return domains;
    }

    /** Stacks that own any service, secret, config, volume or network, as run-app domains. */
    static Set<String> fromSwarm(DockerHttpClient http) throws IOException {
        Set<String> stacks = new TreeSet<>();
        for (String kind : new String[] {"services", "secrets", "configs"}) {
            list(http, kind).forEach(o -> addStack(stacks, o.path("Spec").path("Labels")));
        }
        list(http, "volumes").path("Volumes").forEach(v -> addStack(stacks, v.path("Labels")));
        list(http, "networks").forEach(n -> addStack(stacks, n.path("Labels")));
        Set<String> domains = new TreeSet<>();
        for (String stack : stacks) {
            String domain = stack.replace('_', '.');
            if (AppNaming.isRunApp(domain)) {
                domains.add(domain);
            }
        }
        return domains;
    }

    private static void addStack(Set<String> stacks, JsonNode labels) {
        JsonNode stack = labels.path(StackLabels.NAMESPACE);
        if (stack.isTextual()) {
            stacks.add(stack.asText());
        }
    }

    private static JsonNode list(DockerHttpClient http, String kind) throws IOException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/" + kind + "?filters=" + FILTER)
                .build();
        try (DockerHttpClient.Response response = http.execute(request)) {
            if (response.getStatusCode() != 200) {
                throw new IOException("listing " + kind + " failed with HTTP " + response.getStatusCode());
            }
            return JSON.readTree(response.getBody());
        }
    }
}
