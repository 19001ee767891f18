package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import java.util.Map;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The network a run's app is reached on. Every Co-op Cloud recipe joins the external network
 * {@code proxy}, where traefik finds it on a server; on a CI host every run's app, every warm app
 * and ccci's own probe and browser would meet there, each under a name anyone can compute
 * ({@code tasks.<stack>_<service>}). So a run gets an attachable overlay network of its own,
 * {@code <stack>_proxy}, which the compose it deploys joins in place of {@code proxy}; its cold
 * dependencies join it too, and its probe and browser join it alone. Nothing else is on it: no
 * other run's container resolves or routes to what is on it, and nothing on it to another run's.
 *
 * <p>It is labelled with the app's stack ({@link StackLabels#NAMESPACE}), so the stack's teardown
 * and the janitor's discovery remove and find it with the rest of the app ({@link StackTeardown}).
 * A driver that deploys what ccci cannot rewrite (abra) reaches its app on the shared
 * {@code proxy} itself ({@link #shared()}).
 *
 * <p>Resource: the run's network on the swarm. Invariant: it exists only under its app's domain
 * claim (created after the lock, before the first deploy; reaped with the app by the run's teardown
 * or a janitor), and no container of another run joins it. Scope: the swarm (its manager's store).
 * Linearization point: the labelled network's create; from then on a teardown or janitor of the
 * stack sees it.
 */
@API(status = API.Status.INTERNAL)
public final class RunNetwork {

    private static final Logger LOG = LoggerFactory.getLogger(RunNetwork.class);

    /** The network every app joins on a Co-op Cloud server, and traefik with them. */
    public static final String PROXY = "proxy";

    /** The stack that owns the network; null for the shared proxy. */
    private final String stack;
    private final String name;
    /**
     * Whether the services of the run's app that join the proxy also join the shared one: the one
     * case that needs it is a dependency served by a warm app, which lives there. Set before the
     * app's deploy, on the run's thread.
     */
    private volatile String sharedFor;

    private RunNetwork(String stack, String name) {
        this.stack = stack;
        this.name = name;
    }

    /** The run's own network, for the run whose app is {@code stack}: {@code <stack>_proxy}. */
    public static RunNetwork of(String stack) {
        return new RunNetwork(stack, stack + "_" + PROXY);
    }

    /** The shared {@code proxy} itself: what a run reaches its app on when its driver deploys the recipe's files as they are. */
    public static RunNetwork shared() {
        return new RunNetwork(null, PROXY);
    }

    /** The network's name: what the run's probe and browser join, and what the deployed compose names for {@code proxy}. */
    public String name() {
        return name;
    }

    /** Whether this is a network of the run's own (not the shared proxy). */
    public boolean own() {
        return stack != null;
    }

    /**
     * The services of the run's app that join the proxy also join the shared one, because a
     * dependency of the run is the warm app {@code warm}, which lives there; said in the run's log.
     */
    public void alsoShared(String warm) {
        if (own() && sharedFor == null) {
            LOG.warn("the run uses the warm app {}, which is on the shared {} network: the services of {} that join the"
                    + " proxy join both its own network {} and the shared {} (where the host's warm apps are)", warm, PROXY,
                    stack, name, PROXY);
            sharedFor = warm;
        }
    }

    /** Whether the deploy of {@code appStack} joins the shared proxy as well as this network. */
    public boolean sharedToo(String appStack) {
        return own() && sharedFor != null && stack.equals(appStack);
    }

    /**
     * The network on the engine, made now if it is not there: an attachable overlay labelled with
     * its stack. One that is there already is the run's own if it carries the stack's label (a
     * redeploy, an upgrade); any other is one sentence, and nothing is deployed onto it.
     */
    public void create(DockerClient client) {
        if (!own()) {
            return;
        }
        try {
            client.createNetworkCmd().withName(name).withDriver("overlay").withAttachable(true).withCheckDuplicate(true)
                    .withLabels(StackLabels.of(stack)).exec();
            LOG.info("network {}: the run's own, for its app and its cold dependencies, its probe and its browser", name);
        } catch (ConflictException exists) {
            requireOwn(client);
        } catch (RuntimeException e) {
            if (!String.valueOf(e.getMessage()).contains("already exists")) {
                throw e;
            }
            requireOwn(client);
        }
    }

    private void requireOwn(DockerClient client) {
        Network there;
        try {
            there = client.inspectNetworkCmd().withNetworkId(name).exec();
        } catch (NotFoundException gone) {
            throw new IllegalStateException("the network " + name + " was there and then gone while the run made it: run"
                    + " again.", gone);
        }
        Map<String, String> labels = there.getLabels() == null ? Map.of() : there.getLabels();
        if (!stack.equals(labels.get(StackLabels.NAMESPACE)) || !"overlay".equals(there.getDriver())
                || !Boolean.TRUE.equals(there.isAttachable())) {
            throw new IllegalStateException("a network named " + name + " exists that is not this run's (an attachable"
                    + " overlay labelled " + StackLabels.filter(stack) + "): remove it (docker network rm " + name
                    + ") and run again.");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
