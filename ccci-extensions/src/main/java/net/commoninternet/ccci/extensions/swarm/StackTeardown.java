package net.commoninternet.ccci.extensions.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.EventType;
import com.github.dockerjava.api.model.SwarmInfo;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.docker.SwarmNodes;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes everything of one stack, in the order swarm allows: services, then (once their
 * containers are really gone: {@code docker stack rm} returns before they are) volumes,
 * secrets, configs and networks. Idempotent and tolerant of half-removed stacks, so the
 * janitor can reap with it and a second teardown is a no-op. Uses docker-java only: no child
 * process that a second TERM to the process group could kill mid-teardown.
 *
 * <p>On a multi-node swarm, services, secrets, configs and networks are removed through the run's
 * engine (a manager), and each node's containers and volumes through that node's engine
 * ({@link SwarmNodes}); a node that is down or unreachable is said once and skipped (its task
 * containers go when its engine comes back and sees their services gone; its volumes of the stack
 * are found by a later janitor, which lists every node's). Before each removal pass the stack's
 * {@link DomainFence} is asked: once this process's lease on the domain is no longer confirmed, the
 * removal stops, since the domain may already be the next holder's.
 */
@API(status = API.Status.INTERNAL)
public final class StackTeardown {

    private static final Logger LOG = LoggerFactory.getLogger(StackTeardown.class);
    private static final Duration TEARDOWN_LIMIT = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(250);
    /** An interrupt cuts an event wait short; the loop still looks again no faster than this. */
    private static final long POLL_AFTER_INTERRUPT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long swarm gets to stop and remove a removed service's running tasks before they are forced. */
    private static final Duration SWARM_GRACE = Duration.ofSeconds(30);
    /** docker-java's {@code listContainersCmd().withShowAll(true)}: stopped containers too. */
    private static final String ALL_CONTAINERS = "/containers/json?all=true";

    private final DockerClient client;
    /** Nodes already said to be unreachable, per stack: once per teardown object. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public StackTeardown(DockerClient client) {
        this.client = client;
    }

    /**
     * {@code abra app undeploy} + {@code app rm} of one app: its stack, then its env files under
     * the canonical {@code servers/}. Idempotent; the janitor's reap and the run's own teardown
     * both come here. Returns what is still there afterwards (empty = clean).
     */
    public List<String> teardownApp(String domain, Path servers) throws IOException {
        List<String> left = teardown(AppNaming.stackName(domain));
        // An env file is also how the next janitor finds the app: kept while the stack is not gone.
        if (left.isEmpty() && Files.isDirectory(servers)) {
            try (Stream<Path> dirs = Files.list(servers)) {
                for (Path dir : (Iterable<Path>) dirs::iterator) {
                    Files.deleteIfExists(dir.resolve(domain + ".env"));
                }
            }
        }
        return left;
    }

    /**
     * Removes the stack; returns what is still there afterwards (empty = clean). Removal passes
     * repeat until nothing of the stack is left (bounded): objects can appear mid-teardown (a task
     * still being prepared creates its volume after its service is gone), some disappear only
     * after the call that removed them returned (overlay networks), and volumes and networks stay
     * "in use" until the last container is gone.
     */
    public List<String> teardown(String stack) {
        long deadline = System.nanoTime() + TEARDOWN_LIMIT.toNanos();
        boolean interrupted = Thread.interrupted();
        boolean announced = false;
        boolean confirmedAfterOutage = false;
        long networksUnknownSince = 0;
        List<String> left;
        // Container, volume and network events wake the waits (a container gone, a network released):
        // each wait looks again at once instead of at its next poll; the poll stays for missed events.
        try (SwarmEvents wake = SwarmEvents.subscribe(client, EventType.CONTAINER, EventType.VOLUME, EventType.NETWORK)) {
            while (true) {
                if (!DomainFence.mayAct(stack)) {
                    left = List.of("the whole stack (not removed: this process's app-domain lease on it is no longer"
                            + " confirmed, so it may be another run's by now; its holder reaps it)");
                    break;
                }
                try {
                    left = removalPass(stack, deadline, wake);
                    if (left.equals(List.of(NETWORKS_UNKNOWN))) {
                        networksUnknownSince = networksUnknownSince == 0 ? System.nanoTime() : networksUnknownSince;
                        if (System.nanoTime() - networksUnknownSince >= SWARM_BACK.toNanos() && controlAvailable()) {
                            // a healthy manager that lists no swarm network for a minute has none (no ingress, no proxy)
                            LOG.warn("teardown of {}: the engine has listed no swarm-scoped network for {} s though its"
                                    + " manager answers: taken as a swarm that has none, so the stack's are gone", stack,
                                    SWARM_BACK.toSeconds());
                            left = List.of();
                        }
                    } else {
                        networksUnknownSince = 0;
                    }
                    if (left.isEmpty() && announced && !confirmedAfterOutage && System.nanoTime() < deadline) {
                        // The engine came back from an outage: until its swarm part is up again, a network list
                        // leaves the swarm's networks out without an error (moby ignores the cluster's), so an
                        // empty pass is only believed once the swarm lists its networks, and then passed again.
                        confirmedAfterOutage = true;
                        LOG.info("teardown of {}: the engine is back; one more pass once its swarm lists its networks again",
                                stack);
                        awaitSwarmNetworks(deadline, wake);
                        continue;
                    }
                    if (left.isEmpty() || System.nanoTime() >= deadline) {
                        break;
                    }
                    Optional<List<String>> held = heldByOthers(stack, left);
                    if (held.isPresent()) {
                        LOG.info("stack {}: all of it is removed but {}", stack, String.join("; ", held.get()));
                        return held.get();
                    }
                } catch (RuntimeException e) {
                    // The engine went away (a dockerd restart, a stop): swarm's state outlives it, so
                    // the teardown waits for it to come back, within its bound, and goes on.
                    if (!DockerEngine.unreachable(e)) {
                        throw e;
                    }
                    if (System.nanoTime() >= deadline) {
                        left = List.of("the whole stack (the Docker engine did not answer within "
                                + TEARDOWN_LIMIT.toMinutes() + " min: " + e.getMessage() + ")");
                        break;
                    }
                    if (!announced) {
                        LOG.warn("!! teardown of {}: the Docker engine is not answering ({}) — retrying for at most {} min !!",
                                stack, e.getMessage(), TEARDOWN_LIMIT.toMinutes());
                        announced = true;
                    }
                }
                interrupted |= pause(wake);
            }
        } finally {
            // Not interruptible (its own limit bounds it): an interrupt is kept for the caller.
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (left.isEmpty()) {
            LOG.info("stack {} removed: no service, container, volume, secret, config or network left", stack);
        } else {
            LOG.warn("stack {} teardown left: {}", stack, left);
        }
        return left;
    }

    /**
     * Waits (within the teardown's bound, at most {@link #SWARM_BACK}) until the engine's swarm part answers
     * again: the manager has control and the network list holds a swarm-scoped network (every swarm has
     * {@code ingress}; a swarm without one waits the bound out and goes on).
     */
    private void awaitSwarmNetworks(long deadline, SwarmEvents wake) {
        long until = Math.min(deadline, System.nanoTime() + SWARM_BACK.toNanos());
        DockerHttpClient http = EngineLists.http(client);
        waitUntil(() -> {
            try {
                return controlAvailable() && EngineLists.get(http, "/networks", Map.of("scope", List.of("swarm"))).size() > 0;
            } catch (RuntimeException notYet) {
                return false;
            }
        }, until, wake);
    }

    /**
     * Whether the engine's manager has control of its swarm now, says no error, and counts its nodes
     * (moby counts them only when its own call to the cluster's node list worked).
     */
    private boolean controlAvailable() {
        try {
            SwarmInfo swarm = client.infoCmd().exec().getSwarm();
            return swarm.getControlAvailable() == Boolean.TRUE && (swarm.getError() == null || swarm.getError().isBlank())
                    && swarm.getNodes() != null && swarm.getNodes() > 0;
        } catch (RuntimeException notNow) {
            return false;
        }
    }

    /** The longest wait for the swarm part of an engine back from an outage before a teardown believes its lists. */
    private static final Duration SWARM_BACK = Duration.ofSeconds(60);

    /**
     * Until the next engine event, at most one poll interval; returns whether an interrupt arrived
     * (cleared, so later waits still wait: the teardown is bounded by its own limit).
     */
    private static boolean pause(SwarmEvents wake) {
        try {
            wake.await(POLL);
            return Thread.interrupted();
        } catch (InterruptedException e) {
            LockSupport.parkNanos(POLL_AFTER_INTERRUPT_NANOS);
            return true;
        }
    }

    private List<String> removalPass(String stack, long deadline, SwarmEvents wake) {
        String label = StackLabels.filter(stack);
        client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> ignoreGone(() -> client.removeServiceCmd(s.getId()).exec()));
        List<SwarmNodes.Node> nodes = reachable(stack);
        // on every node: a janitor reaping another host's dead run finds that run's probes on that host's engine
        onEach(nodes, engine -> engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(StackLabels.PROBE, stack))
                .exec().forEach(c -> ignoreGone(() -> engine.removeContainerCmd(c.getId()).withForce(true).exec())));
        if (client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec().isEmpty()) {
            onEach(nodes, engine -> removeOrphanedTasks(engine, stack, deadline, wake));
        }
        waitUntil(() -> nodes.stream().allMatch(n -> containersOf(n, stack).isEmpty()), deadline, wake);
        onEach(nodes, engine -> engine.listVolumesCmd().withFilter("label", List.of(label)).exec().getVolumes()
                .forEach(v -> ignoreGone(() -> engine.removeVolumeCmd(v.getName()).exec())));
        client.listSecretsCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> ignoreGone(() -> client.removeSecretCmd(s.getId()).exec()));
        client.listConfigsCmd().withFilters(Map.of("label", List.of(label))).exec()
                .forEach(c -> ignoreGone(() -> client.removeConfigCmd(c.getId()).exec()));
        client.listNetworksCmd().withFilter("label", List.of(label)).exec()
                .forEach(n -> ignoreGone(() -> client.removeNetworkCmd(n.getId()).exec()));
        return leftovers(stack);
    }

    /**
     * When all that is left of the stack is networks that services of other stacks still join (a run's
     * own network, which its cold dependencies join: {@link RunNetwork}), swarm keeps them until those
     * services are gone, which this teardown does not bring about: it waits no longer, and says so.
     * (Once those services are removed, their tasks going is waited for as the stack's own.) Empty
     * while anything else is left, or a network no other stack's service joins.
     */
    private Optional<List<String>> heldByOthers(String stack, List<String> left) {
        Map<String, Set<String>> joiners = new HashMap<>();
        JsonNode networks = EngineLists.get(EngineLists.http(client), "/networks", EngineLists.label(StackLabels.filter(stack)));
        JsonNode services = null;
        for (JsonNode network : networks) {
            String name = network.path("Name").asText();
            String id = network.path("Id").asText();
            if (services == null) {
                services = EngineLists.get(EngineLists.http(client), "/services", Map.of());
            }
            for (JsonNode service : services) {
                String of = service.path("Spec").path("Labels").path(StackLabels.NAMESPACE).asText("");
                // where the CLI puts a service's networks, and the older place an API client may still use
                List<JsonNode> attached = new ArrayList<>();
                service.path("Spec").path("TaskTemplate").path("Networks").forEach(attached::add);
                service.path("Spec").path("Networks").forEach(attached::add);
                for (JsonNode joined : attached) {
                    String target = joined.path("Target").asText();
                    if (!of.equals(stack) && (target.equals(id) || target.equals(name))) {
                        joiners.computeIfAbsent(name, n -> new TreeSet<>()).add(of.isEmpty()
                                ? service.path("Spec").path("Name").asText() : of);
                    }
                }
            }
        }
        List<String> said = new ArrayList<>();
        for (String thing : left) {
            Set<String> by = thing.startsWith("network ") ? joiners.get(thing.substring("network ".length())) : null;
            if (by == null) {
                return Optional.empty();
            }
            said.add(thing + " (joined by the services of " + String.join(", ", by) + ": it goes once they do)");
        }
        return Optional.of(said);
    }

    /**
     * With no service of the stack left, its containers are orphans. Swarm removes a removed
     * service's task containers itself, and is given {@link #SWARM_GRACE} to stop running ones
     * gracefully; but a task container that was already stopped when its task left swarm's store
     * (a dockerd restart, a node that lost its task) stays forever and keeps its volumes "in use".
     * Those, and whatever still runs after the grace, are removed here.
     */
    private void removeOrphanedTasks(DockerClient engine, String stack, long deadline, SwarmEvents wake) {
        List<com.github.dockerjava.api.model.Container> stopped = engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(StackLabels.of(stack)).withStatusFilter(List.of("created", "exited", "dead")).exec();
        stopped.forEach(c -> {
            LOG.info("removing stopped task container {} of {} ({})", String.join(",", c.getNames()), stack, c.getStatus());
            ignoreGone(() -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
        });
        long grace = Math.min(deadline, System.nanoTime() + SWARM_GRACE.toNanos());
        waitUntil(() -> engine.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec().isEmpty(),
                grace, wake);
        engine.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec().forEach(c -> {
            LOG.warn("forcing removal of task container {} of {}: still {} {} s after its service was removed",
                    String.join(",", c.getNames()), stack, c.getStatus(), SWARM_GRACE.toSeconds());
            ignoreGone(() -> engine.removeContainerCmd(c.getId()).withForce(true).exec());
        });
    }

    /** The nodes whose engines ccci reaches (the run's own first); the others are said once per teardown call. */
    private List<SwarmNodes.Node> reachable(String stack) {
        List<SwarmNodes.Node> all = SwarmNodes.all(client);
        List<SwarmNodes.Node> reachable = new ArrayList<>();
        for (SwarmNodes.Node node : all) {
            if (node.engine().isPresent()) {
                reachable.add(node);
            } else if (warned.add(stack + "|" + node.id())) {
                SwarmNodes.skipped(node, "containers and volumes of " + stack);
            }
        }
        return reachable;
    }

    /** The work on each node's engine; a node other than the run's own that stops answering is skipped. */
    private void onEach(List<SwarmNodes.Node> nodes, Consumer<DockerClient> work) {
        for (SwarmNodes.Node node : nodes) {
            DockerClient engine = node.engine().orElseThrow();
            try {
                work.accept(engine);
            } catch (RuntimeException e) {
                if (engine == client || !SwarmNodes.unreachable(e)) {
                    throw e;
                }
                LOG.warn("!! node {}'s engine stopped answering ({}): its containers and volumes were not checked !!",
                        node.name(), e.getMessage());
            }
        }
    }

    private List<String> containersOf(SwarmNodes.Node node, String stack) {
        List<String> names = new ArrayList<>();
        onEach(List.of(node), engine -> EngineLists.get(EngineLists.http(engine), ALL_CONTAINERS,
                EngineLists.label(StackLabels.filter(stack))).forEach(c -> names.add(names(c))));
        return names;
    }

    /** A container's names as docker-java's {@code Container.getNames()} joined: {@code /a,/b}. */
    private static String names(com.fasterxml.jackson.databind.JsonNode container) {
        List<String> names = new ArrayList<>();
        container.path("Names").forEach(n -> names.add(n.asText()));
        return String.join(",", names);
    }

    /**
     * Everything of the stack that still exists, named by kind (and by node, on a swarm of several).
     * Read as JSON trees ({@link EngineLists}): the lock asks this before every run's first deploy,
     * and docker-java's typed lists would bind eight model types on a cold JVM first.
     */
    public List<String> leftovers(String stack) {
        Map<String, List<String>> label = EngineLists.label(StackLabels.filter(stack));
        DockerHttpClient http = EngineLists.http(client);
        List<String> left = new ArrayList<>();
        EngineLists.get(http, "/services", label).forEach(s -> left.add("service " + s.path("Spec").path("Name").asText()));
        List<SwarmNodes.Node> nodes = reachable(stack);
        for (SwarmNodes.Node node : nodes) {
            String on = nodes.size() > 1 || node.engine().get() != client ? " on " + node.name() : "";
            onEach(List.of(node), engine -> EngineLists.get(EngineLists.http(engine), ALL_CONTAINERS,
                    EngineLists.label(StackLabels.probeFilter(stack))).forEach(c -> left.add("probe container " + names(c) + on)));
            containersOf(node, stack).forEach(c -> left.add("container " + c + on));
            onEach(List.of(node), engine -> EngineLists.get(EngineLists.http(engine), "/volumes", label).path("Volumes")
                    .forEach(v -> left.add("volume " + v.path("Name").asText() + on)));
        }
        EngineLists.get(http, "/secrets", label).forEach(s -> left.add("secret " + s.path("Spec").path("Name").asText()));
        EngineLists.get(http, "/configs", label).forEach(c -> left.add("config " + c.path("Spec").path("Name").asText()));
        Set<String> nodeIds = new HashSet<>();
        nodes.forEach(n -> nodeIds.add(n.id()));
        // A task swarm still starts (preparing, starting) makes what it joins on its node after its service
        // is gone (its volumes, the node's copy of its networks): the stack is not gone while one is left.
        // One on a node ccci does not reach is swarm's to end when that node is back.
        for (JsonNode task : EngineLists.get(http, "/tasks", label)) {
            String node = task.path("NodeID").asText("");
            String state = task.path("Status").path("State").asText("");
            if (!TASK_ENDED.contains(state) && (node.isEmpty() || nodeIds.contains(node))) {
                left.add("task " + task.path("ID").asText() + " (" + state + ")");
            }
        }
        // The engine's network list leaves the swarm's networks out, without an error, when its swarm part
        // does not answer (moby's list ignores the cluster's error): only a list that holds a swarm-scoped
        // network at all (every swarm ccci runs on has ingress and proxy) says the stack's are gone.
        JsonNode networks = EngineLists.get(http, "/networks", Map.of());
        boolean swarmListed = false;
        for (JsonNode network : networks) {
            swarmListed |= "swarm".equals(network.path("Scope").asText());
            if (stack.equals(network.path("Labels").path(StackLabels.NAMESPACE).asText(null))) {
                left.add("network " + network.path("Name").asText());
            }
        }
        if (!swarmListed) {
            left.add(NETWORKS_UNKNOWN);
        }
        return left;
    }

    /** What {@link #leftovers} says when the engine's network list holds none of the swarm's networks. */
    static final String NETWORKS_UNKNOWN = "networks unknown (the engine listed none of the swarm's: its swarm part did not"
            + " answer)";

    /** A task's states after which it starts nothing more on its node. */
    private static final Set<String> TASK_ENDED = Set.of("complete", "shutdown", "failed", "rejected", "remove", "orphaned");

    private static void waitUntil(BooleanSupplier condition, long deadline, SwarmEvents wake) {
        boolean interrupted = false;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            interrupted |= pause(wake);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Gone already, or still in use (the next pass retries): either way not an error of the teardown. */
    private static void ignoreGone(Runnable removal) {
        try {
            removal.run();
        } catch (NotFoundException | ConflictException e) {
            // gone, or in use until the last container is gone: the next pass sees
        } catch (DockerException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains("not found") && !message.contains("in use") && !message.contains("active endpoints")) {
                throw e;
            }
        }
    }
}
