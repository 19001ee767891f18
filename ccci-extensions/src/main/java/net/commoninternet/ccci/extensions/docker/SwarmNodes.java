package net.commoninternet.ccci.extensions.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a swarm's per-node objects live. Services, secrets, configs, networks and the app leases
 * are the managers' (one call to the run's engine reaches them); containers, execs and volumes are
 * each node's own engine's. The run's engine is one node; any other node's engine is reached at the
 * address its node label {@value #ENGINE_LABEL} names ({@code tcp://10.0.0.5:2376},
 * {@code unix:///run/...}), with the TLS settings the environment gives {@code DOCKER_HOST}. The
 * operator sets it on each node ({@code docker node update --label-add
 * net.commoninternet.ccci.engine=tcp://<address>:2376 <node>}); only a manager can, and a manager
 * already commands every node. On a single-node swarm the run's engine is the only node and no
 * label is needed.
 *
 * <p>Clients of other nodes' engines are made once per address and kept for the life of the JVM
 * (a handful, one per node).
 */
@API(status = API.Status.INTERNAL)
public final class SwarmNodes {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmNodes.class);

    /** The node label that names where a node's engine answers. */
    public static final String ENGINE_LABEL = "net.commoninternet.ccci.engine";

    private static final Map<String, DockerClient> ENGINES = new ConcurrentHashMap<>();
    /** The node id of each run engine's own node (the swarm's NodeID; engines may share key.json, so not info's ID). */
    private static final Map<DockerClient, String> OWN_NODE = Collections.synchronizedMap(new WeakHashMap<>());

    /** A node and, if ccci can reach it, its engine. */
    public record Node(String id, String hostname, boolean ready, Optional<DockerClient> engine, String unreachable) {
        /** "ccci-msw-n2" or its id, for messages. */
        public String name() {
            return hostname == null || hostname.isEmpty() ? id : hostname;
        }
    }

    private SwarmNodes() {
    }

    /** The swarm node the engine {@code manager} runs on. */
    public static String ownNode(DockerClient manager) {
        return OWN_NODE.computeIfAbsent(manager, c -> c.infoCmd().exec().getSwarm().getNodeID());
    }

    /** Records the node the engine {@code manager} runs on, as its {@code /info} said. */
    static void ownNodeIs(DockerClient manager, String nodeId) {
        OWN_NODE.put(manager, nodeId);
    }

    /**
     * Every node of the swarm, with its engine where one is reachable (the run's own node: {@code manager}).
     * The node list is read as a JSON tree ({@link EngineLists}): the janitor asks it before every
     * run's first deploy, and docker-java's typed node model is a dozen types to bind on a cold JVM.
     */
    public static List<Node> all(DockerClient manager) {
        String own = ownNode(manager);
        List<Node> nodes = new ArrayList<>();
        for (JsonNode node : EngineLists.get(EngineLists.http(manager), "/nodes", Map.of())) {
            String id = node.path("ID").asText();
            String hostname = node.path("Description").path("Hostname").asText("");
            JsonNode state = node.path("Status").path("State");
            boolean ready = "ready".equals(state.asText(null)); // docker-java's SwarmNodeState.READY
            if (id.equals(own)) {
                nodes.add(new Node(id, hostname, ready, Optional.of(manager), ""));
                continue;
            }
            String address = node.path("Spec").path("Labels").path(ENGINE_LABEL).asText("").strip();
            if (address.isEmpty()) {
                nodes.add(new Node(id, hostname, ready, Optional.empty(),
                        "its engine's address is unknown: label the node " + ENGINE_LABEL + "=<address> (tcp://... or unix://...)"));
            } else if (!ready) {
                nodes.add(new Node(id, hostname, false, Optional.empty(), "the node is "
                        + (state.isTextual() ? state.asText().toLowerCase(Locale.ROOT) : "unknown")));
            } else {
                nodes.add(new Node(id, hostname, true, Optional.of(engine(address)), ""));
            }
        }
        return nodes;
    }

    /** The engine of node {@code nodeId}, or why ccci cannot reach it. */
    public static Node node(DockerClient manager, String nodeId) {
        for (Node node : all(manager)) {
            if (node.id().equals(nodeId)) {
                return node;
            }
        }
        return new Node(nodeId, nodeId, false, Optional.empty(), "the swarm has no such node");
    }

    /** Whether a failure says that a node's engine did not answer (refused, gone, timed out). */
    public static boolean unreachable(RuntimeException e) {
        return DockerEngine.unreachable(e);
    }

    /** Says once per node and call site that a node's objects were not checked. */
    public static void skipped(Node node, String what) {
        LOG.warn("!! {} on node {} not checked: {} !!", what, node.name(), node.unreachable());
    }

    private static DockerClient engine(String address) {
        return ENGINES.computeIfAbsent(address,
                a -> DockerEngine.client(DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(a).build()));
    }
}
