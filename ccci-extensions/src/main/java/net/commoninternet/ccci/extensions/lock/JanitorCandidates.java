package net.commoninternet.ccci.extensions.lock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.docker.SwarmNodes;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.apiguardian.api.API;

/**
 * Where the janitor looks for run apps: the env files under the canonical {@code servers/}
 * (what {@code abra app ls} lists), the swarm's stack-labelled objects (which still exist
 * when a run died after its env file was removed, or half-way through a teardown), and the probe
 * and browser containers of a stack on every node's engine (plain containers, no swarm object: the
 * last thing of a run that died after its stack and env file were gone, abra's {@code app rm} say). One list
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
    private static final String FILTER = filter(StackLabels.NAMESPACE);
    private static final String PROBES = filter(StackLabels.PROBE);

    private JanitorCandidates() {
    }

    /** The run apps of the namespace {@code domainSuffix} ({@link AppNaming#isRunApp}) that the host's abra folder and the swarm know of. */
    public static Set<String> discover(Path canonicalServers, DockerEngine docker, String domainSuffix) throws IOException {
        Set<String> domains = new TreeSet<>(fromEnvFiles(canonicalServers, domainSuffix));
        domains.addAll(fromSwarm(docker.http(), domainSuffix));
        domains.addAll(fromOtherNodes(docker, domainSuffix));
        return domains;
    }

    /** A key-only label filter, URL-encoded. */
    private static String filter(String labelKey) {
        return URLEncoder.encode("{\"label\":[\"" + labelKey + "\"]}", StandardCharsets.UTF_8);
    }

    /**
     * Volumes and containers are each node's own: on a swarm of several nodes, a stack's volumes on
     * another node (one that was down while its app was reaped, say) and its probe containers there
     * (another host's run) are found through that node's engine ({@link SwarmNodes}); a node ccci
     * cannot reach is skipped.
     */
    static Set<String> fromOtherNodes(DockerEngine docker, String domainSuffix) {
        Set<String> domains = new TreeSet<>();
        String own = SwarmNodes.ownNode(docker.client());
        for (SwarmNodes.Node node : SwarmNodes.all(docker.client())) {
            if (node.id().equals(own) || node.engine().isEmpty()) {
                continue;
            }
            try {
                var volumes = node.engine().get().listVolumesCmd().withFilter("label", List.of(StackLabels.NAMESPACE))
                        .exec().getVolumes();
                (volumes == null ? List.<com.github.dockerjava.api.command.InspectVolumeResponse>of() : volumes)
                        .forEach(v -> addRunApp(domains, v.getLabels() == null ? null : v.getLabels().get(StackLabels.NAMESPACE),
                                domainSuffix));
                node.engine().get().listContainersCmd().withShowAll(true).withLabelFilter(List.of(StackLabels.PROBE)).exec()
                        .forEach(c -> addRunApp(domains, c.getLabels() == null ? null : c.getLabels().get(StackLabels.PROBE),
                                domainSuffix));
            } catch (RuntimeException e) {
                LoggerHolder.LOG.warn("janitor: node {}'s volumes and probe containers not listed ({})", node.name(),
                        e.getMessage());
            }
        }
        return domains;
    }

    /** {@code stack}'s domain, if it is a run app of the namespace. */
    private static void addRunApp(Set<String> domains, String stack, String domainSuffix) {
        if (stack != null && AppNaming.isRunApp(stack.replace('_', '.'), domainSuffix)) {
            domains.add(stack.replace('_', '.'));
        }
    }

    private static final class LoggerHolder {
        static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JanitorCandidates.class);
    }

    /**
     * {@code servers/<server>/<domain>.env} for run-app domains. Other runs create and remove env
     * files and server folders while this walks (a run's teardown, another janitor's reap): an entry
     * gone between its listing and its reading was not there, never a failed sweep.
     */
    static Set<String> fromEnvFiles(Path servers, String domainSuffix) throws IOException {
        Set<String> domains = new TreeSet<>();
        if (!Files.isDirectory(servers)) {
            return domains;
        }
        Files.walkFileTree(servers, EnumSet.of(FileVisitOption.FOLLOW_LINKS), 2, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String name = file.getFileName().toString();
                if (attributes.isRegularFile() && name.endsWith(".env")) {
                    String domain = name.substring(0, name.length() - ".env".length());
                    if (AppNaming.isRunApp(domain, domainSuffix)) {
                        domains.add(domain);
                    }
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
                return gone(failure);
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                return failure == null ? FileVisitResult.CONTINUE : gone(failure);
            }
        });
        return domains;
    }

    /** An entry removed while the walk read it: passed over; any other failure is the sweep's. */
    private static FileVisitResult gone(IOException failure) throws IOException {
        if (failure instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
        }
        throw failure;
    }

    /**
     * Stacks that own any service, secret, config, volume or network, or a probe or browser
     * container on this engine, as run-app domains.
     */
    static Set<String> fromSwarm(DockerHttpClient http, String domainSuffix) throws IOException {
        Set<String> stacks = new TreeSet<>();
        for (String kind : new String[] {"services", "secrets", "configs"}) {
            list(http, kind, FILTER).forEach(o -> addStack(stacks, o.path("Spec").path("Labels"), StackLabels.NAMESPACE));
        }
        list(http, "volumes", FILTER).path("Volumes").forEach(v -> addStack(stacks, v.path("Labels"), StackLabels.NAMESPACE));
        list(http, "networks", FILTER).forEach(n -> addStack(stacks, n.path("Labels"), StackLabels.NAMESPACE));
        list(http, "containers/json?all=true", PROBES).forEach(c -> addStack(stacks, c.path("Labels"), StackLabels.PROBE));
        Set<String> domains = new TreeSet<>();
        stacks.forEach(stack -> addRunApp(domains, stack, domainSuffix));
        return domains;
    }

    private static void addStack(Set<String> stacks, JsonNode labels, String key) {
        JsonNode stack = labels.path(key);
        if (stack.isTextual()) {
            stacks.add(stack.asText());
        }
    }

    /** {@code GET /<kind>} with {@code filter} ({@code kind} may carry a query of its own). */
    private static JsonNode list(DockerHttpClient http, String kind, String filter) throws IOException {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/" + kind + (kind.contains("?") ? "&" : "?") + "filters=" + filter)
                .build();
        try (DockerHttpClient.Response response = http.execute(request)) {
            if (response.getStatusCode() != 200) {
                throw new IOException("listing " + kind.replaceFirst("/json.*", "") + " failed with HTTP " + response.getStatusCode());
            }
            return JSON.readTree(response.getBody());
        }
    }
}
