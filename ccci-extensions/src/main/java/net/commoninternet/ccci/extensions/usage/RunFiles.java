package net.commoninternet.ccci.extensions.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.docker.SwarmNodes;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one stack's bytes lie on the host, as its engines say: each of its containers' writable layer
 * (overlay2's upper folder) and its own folder (its log files and state), running or exited (swarm
 * keeps a few exited tasks of each slot, with their layers and logs), and every volume its containers
 * mount or its stack labels. Found on every node ccci can reach; a place that is not on this host's
 * file system (a node on another machine) is said once and not counted. A container is inspected
 * once: its folders never change.
 */
final class RunFiles {

    private static final Logger LOG = LoggerFactory.getLogger(RunFiles.class);
    /** How long a node list is trusted before it is read again. */
    private static final Duration NODES_FOR = Duration.ofSeconds(10);

    /** A place of the stack's and what it is, for the sentence. */
    record Place(String what, Path path) {
    }

    private final DockerClient manager;
    private final String stack;
    /** Per container id, its places. */
    private final Map<String, List<Place>> inspected = new ConcurrentHashMap<>();
    /** The nodes whose places were said to be out of this host's reach. */
    private final Set<String> saidElsewhere = ConcurrentHashMap.newKeySet();
    private List<SwarmNodes.Node> nodes;
    private long nodesRead;

    RunFiles(DockerClient manager, String stack) {
        this.manager = manager;
        this.stack = stack;
    }

    /** Every place of the stack now, each once (a volume two containers mount is one place). */
    Map<Path, Place> places() {
        Map<Path, Place> places = new LinkedHashMap<>();
        for (SwarmNodes.Node node : nodes()) {
            if (node.engine().isEmpty()) {
                continue;
            }
            var http = EngineLists.http(node.engine().get());
            for (JsonNode container : EngineLists.get(http, "/containers/json?all=true",
                    EngineLists.label(StackLabels.filter(stack)))) {
                String id = container.path("Id").asText();
                for (Place place : inspected.computeIfAbsent(id, c -> inspect(http, c))) {
                    add(places, node, place);
                }
            }
            for (JsonNode volume : EngineLists.get(http, "/volumes", EngineLists.label(StackLabels.filter(stack)))
                    .path("Volumes")) {
                add(places, node, new Place("volume " + volume.path("Name").asText(), Path.of(volume.path("Mountpoint").asText())));
            }
        }
        return places;
    }

    /** Pauses every running container of the stack: its writes end at once, and swarm starts no other in its place. */
    void pause() {
        for (SwarmNodes.Node node : nodes()) {
            node.engine().ifPresent(engine -> {
                for (JsonNode container : EngineLists.get(EngineLists.http(engine), "/containers/json",
                        EngineLists.label(StackLabels.filter(stack)))) {
                    try {
                        engine.pauseContainerCmd(container.path("Id").asText()).exec();
                    } catch (RuntimeException gone) {
                        LOG.debug("container {} not paused: {}", container.path("Id").asText(), gone.toString());
                    }
                }
            });
        }
    }

    private void add(Map<Path, Place> places, SwarmNodes.Node node, Place place) {
        if (Files.isDirectory(place.path())) {
            places.putIfAbsent(place.path(), place);
        } else if (saidElsewhere.add(node.id())) {
            LOG.warn("!! the disk of {} on node {} is not on this host's file system ({}): not counted in the run's"
                    + " disk budget !!", place.what(), node.name(), place.path());
        }
    }

    /** A container's writable layer, its own folder and the volumes it mounts; none if it is gone already. */
    private static List<Place> inspect(com.github.dockerjava.transport.DockerHttpClient http, String id) {
        JsonNode container;
        try {
            container = EngineLists.get(http, "/containers/" + id + "/json", Map.of());
        } catch (com.github.dockerjava.api.exception.DockerException e) {
            if (e.getHttpStatus() == 404) {
                return List.of();
            }
            throw e;
        }
        String name = container.path("Name").asText(id).replaceFirst("^/", "");
        Map<Path, Place> places = new HashMap<>();
        String upper = container.path("GraphDriver").path("Data").path("UpperDir").asText("");
        if (!upper.isEmpty()) {
            places.put(Path.of(upper), new Place("container " + name + " (its writable layer)", Path.of(upper)));
        }
        String hostname = container.path("HostnamePath").asText("");
        if (!hostname.isEmpty()) {
            Path folder = Path.of(hostname).getParent();
            places.put(folder, new Place("container " + name + " (its log)", folder));
        }
        for (JsonNode mount : container.path("Mounts")) {
            if (mount.path("Type").asText("").equals("volume")) {
                Path source = Path.of(mount.path("Source").asText());
                places.put(source, new Place("volume " + mount.path("Name").asText(), source));
            }
        }
        return List.copyOf(places.values());
    }

    /** The swarm's nodes, read again every {@link #NODES_FOR}. */
    private List<SwarmNodes.Node> nodes() {
        long now = System.nanoTime();
        if (nodes == null || now - nodesRead > NODES_FOR.toNanos()) {
            nodes = SwarmNodes.all(manager);
            nodesRead = now;
        }
        return nodes;
    }
}
