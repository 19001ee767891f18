package net.commoninternet.ccci.extensions;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Where the janitor looks for run apps: the env files under the canonical {@code servers/}
 * (what {@code abra app ls} lists) and the swarm's stack-labelled objects (which still exist
 * when a run died after its env file was removed, or half-way through a teardown). One list
 * call per object kind, filtered by the stack label's presence; never one call per stack.
 * Both sources are filtered by {@link AppNaming#RUN_APP_RE}: warm and canonical apps never
 * become candidates.
 */
final class JanitorCandidates {

    private static final java.util.regex.Pattern RUN_STACK_PREFIX =
            java.util.regex.Pattern.compile("^([a-z0-9]{1,4}-[0-9a-f]{6}_ci_commoninternet_net)_");

    private JanitorCandidates() {
    }

    static Set<String> discover(Path canonicalServers, DockerClient client) throws IOException {
        Set<String> domains = new TreeSet<>(fromEnvFiles(canonicalServers));
        domains.addAll(fromSwarm(client));
        return domains;
    }

    /** {@code servers/<server>/<domain>.env} for run-app domains. */
    static Set<String> fromEnvFiles(Path servers) throws IOException {
        Set<String> domains = new TreeSet<>();
        if (!Files.isDirectory(servers)) {
            return domains;
        }
        try (Stream<Path> files = Files.find(servers, 2, (p, a) -> a.isRegularFile() && p.toString().endsWith(".env"),
                java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
            files.map(p -> p.getFileName().toString())
                    .map(n -> n.substring(0, n.length() - ".env".length()))
                    .filter(d -> AppNaming.RUN_APP_RE.matcher(d).matches())
                    .forEach(domains::add);
        }
        return domains;
    }

    /** Stacks that own any service, volume, secret, config or network, as run-app domains. */
    static Set<String> fromSwarm(DockerClient client) {
        Set<String> stacks = new TreeSet<>();
        Map<String, String> anyStack = new HashMap<>();
        anyStack.put(StackLabels.NAMESPACE, null); // a null value filters on the label's presence
        List<String> key = List.of(StackLabels.NAMESPACE);
        Consumer<Map<String, String>> add = labels -> {
            if (labels != null && labels.get(StackLabels.NAMESPACE) != null) {
                stacks.add(labels.get(StackLabels.NAMESPACE));
            }
        };
        client.listServicesCmd().withLabelFilter(anyStack).exec().forEach(s -> add.accept(s.getSpec().getLabels()));
        client.listVolumesCmd().withFilter("label", key).exec().getVolumes().forEach(v -> add.accept(v.getLabels()));
        client.listSecretsCmd().withLabelFilter(anyStack).exec().forEach(s -> add.accept(s.getSpec().getLabels()));
        // docker-java's ConfigSpec has no labels: a stack config is named <stack>_<config>.
        client.listConfigsCmd().withFilters(Map.of("label", key)).exec().forEach(c -> {
            java.util.regex.Matcher m = RUN_STACK_PREFIX.matcher(c.getSpec().getName());
            if (m.find()) {
                stacks.add(m.group(1));
            }
        });
        client.listNetworksCmd().withFilter("label", key).exec().forEach(n -> add.accept(n.getLabels()));
        Set<String> domains = new TreeSet<>();
        for (String stack : stacks) {
            String domain = stack.replace('_', '.');
            if (AppNaming.RUN_APP_RE.matcher(domain).matches()) {
                domains.add(domain);
            }
        }
        return Collections.unmodifiableSet(domains);
    }
}
