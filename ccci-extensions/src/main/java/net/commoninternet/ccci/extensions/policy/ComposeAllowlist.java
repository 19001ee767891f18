package net.commoninternet.ccci.extensions.policy;

import static java.util.Map.entry;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.any;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.bool;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.each;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.integer;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.keys;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.mapOf;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.number;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.oneOf;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.refused;
import static net.commoninternet.ccci.extensions.policy.ComposeRules.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Place;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;

/**
 * Every key a recipe's resolved compose may hold, at every level, with the values each accepts:
 * an allowlist. A key that is not here is refused, naming it (a denylist lets through every key
 * nobody thought of: a service's {@code logging} driver makes the engine dial an address the
 * recipe chooses, from the host's own network). docs/security.md lists the same keys and why each
 * is safe.
 *
 * <p>What is allowed acts inside the service's own containers (command, environment, user,
 * healthcheck, sysctls and ulimits, which the kernel namespaces), on the stack's own swarm objects
 * (its networks, volumes, secrets and configs, named in its namespace), or is ignored by the CLI
 * for a swarm ({@code build}, {@code restart}, ...: it says so as it deploys). Labels are judged by
 * prefix ({@link ComposeLabels}), resources against the host's bounds ({@link ResourceBounds}), logging
 * to the engine's own rotated files ({@link LogBounds}).
 */
final class ComposeAllowlist {

    /** Why a key that reaches the host is refused. */
    static final String HOST = "reaches the host beyond the run's own swarm objects";

    private ComposeAllowlist() {
    }

    /** Every finding in the resolved compose {@code tree}, in file order. */
    static List<DeployPolicy.Finding> findings(ComposeJudging judging) {
        TOP.judge(judging, new Place("the compose", ""), judging.tree);
        return judging.findings();
    }

    private static final Rule DURATION = text();

    /** Swarm's rolling update and rollback: how tasks are replaced, all inside the stack. */
    private static final Rule UPDATE = keys(Map.of("parallelism", integer(), "delay", DURATION, "failure_action",
            oneOf("continue", "pause", "rollback"), "monitor", DURATION, "max_failure_ratio", number(), "order",
            oneOf("start-first", "stop-first")));

    private static final Rule DEPLOY = keys(Map.ofEntries(
            entry("mode", oneOf("replicated", "global")),
            entry("replicas", ResourceBounds.REPLICAS),
            entry("labels", ComposeLabels.RULE),
            entry("endpoint_mode", oneOf("vip", "dnsrr")),
            entry("update_config", UPDATE),
            entry("rollback_config", UPDATE),
            entry("restart_policy", keys(Map.of("condition", oneOf("none", "on-failure", "any"), "delay", DURATION,
                    "max_attempts", integer(), "window", DURATION))),
            entry("resources", keys(Map.of(
                    "limits", keys(Map.of("cpus", number(), "memory", ResourceBounds.MEMORY, "pids", ResourceBounds.PIDS)),
                    "reservations", keys(Map.of("cpus", ResourceBounds.RESERVED_CPUS, "memory", ResourceBounds.MEMORY))))),
            entry("placement", keys(Map.of("constraints", each(text()), "preferences", each(keys(Map.of("spread", text()))),
                    "max_replicas_per_node", integer())))));

    /** A service's mount: only its stack's volumes and tmpfs; a bind of any kind is the host's file system. */
    private static final Rule MOUNT = (judging, at, mount) -> {
        String type = mount.path("type").asText("");
        if (type.equals("bind") || type.equals("npipe")) {
            judging.refuse(at, mount.path("source").asText(""), "mounts the host path", HOST,
                    "a recipe keeps its data in volumes of its own and its files in configs; replace the bind mount.");
            return;
        }
        keys(Map.of("type", oneOf("volume", "tmpfs"), "source", text(), "target", text(), "read_only", bool(),
                "consistency", text(), "volume", keys(Map.of("nocopy", bool())),
                "tmpfs", keys(Map.of("size", integer(), "mode", integer())))).judge(judging, at, mount);
    };

    /** A service's use of a top-level secret or config (the CLI checks the source is one). */
    private static final Rule FILE_USE = keys(Map.of("source", text(), "target", text(), "uid", text(), "gid", text(),
            "mode", integer()));

    /** A service's networks: the ones the compose declares; aliases never on the shared proxy network. */
    private static final Rule SERVICE_NETWORKS = (judging, at, networks) -> {
        if (!networks.isObject()) {
            judging.unexpected(at, networks, "a mapping of the compose's networks");
            return;
        }
        networks.fields().forEachRemaining(network -> {
            JsonNode options = network.getValue();
            if (options == null || options.isNull()) {
                return;
            }
            boolean proxy = judging.isProxy(network.getKey());
            keys(Map.of("aliases", proxy ? refused("answers on the shared network " + DeployPolicy.PROXY_NETWORK + " to the"
                    + " names", "lets it take the name another run's probes or services look up there (every stack's"
                    + " services are on " + DeployPolicy.PROXY_NETWORK + ")", "drop the aliases on " + DeployPolicy.PROXY_NETWORK
                    + "; a service is found there by its stack's own name, and aliases on the stack's own networks are fine.",
                    JsonNode::isEmpty) : each(text()))).judge(judging, at.at(network.getKey()), options);
        });
    };

    private static final Rule CAP_ADD = (judging, at, caps) -> caps.forEach(cap -> judging.refuse(at,
            cap.asText().toUpperCase(Locale.ROOT).replaceFirst("^CAP_", ""), "adds the capability", HOST,
            "containers run with Docker's default capabilities; drop cap_add."));

    private static final Rule PORTS = (judging, at, ports) -> ports.forEach(port -> judging.refuse(at,
            port.path("published").asText(port.path("target").asText(port.asText())), "publishes the port", HOST,
            "recipes publish no ports, they are reached through the " + DeployPolicy.PROXY_NETWORK
                    + " network and their traefik labels; drop ports."));

    /** Keys that ask for the host itself (swarm ignores most of them today; a recipe that asks for them asks for the host). */
    private static Rule hostKey(String key) {
        return refused("sets", HOST, "swarm gives a service none of the host's devices, namespaces or security options;"
                + " drop " + key + ".", value -> value.isNull() || value.isBoolean() && !value.asBoolean());
    }

    /**
     * An image of a registry the engine may dial: Docker Hub, a registry known to be public, or one
     * built on the host ({@link ImageRegistry#refusedByPolicy}); never one at the host's own, a
     * private or a link-local address, nor a name of the recipe's choosing.
     */
    private static final Rule IMAGE = (judging, at, image) -> {
        if (!image.isTextual()) {
            judging.unexpected(at, image, "an image reference");
            return;
        }
        ImageRegistry.refusedByPolicy(image.asText()).ifPresent(why -> judging.refuse(at,
                image.asText(), "pulls the image", "makes the engine dial its registry, from the host's own network: " + why,
                "name an image of Docker Hub or of a public registry ccci knows, or one built on the host ("
                        + ImageRegistry.LOCAL + "/...)."));
    };

    private static final Rule SERVICE = keys(Map.ofEntries(
            entry("image", IMAGE),
            // what runs in the service's own containers, and as whom
            entry("command", any()), entry("entrypoint", any()), entry("environment", mapOf(any())),
            // judged on the recipe's files before the CLI opened them (ComposeFiles); their values are in environment
            entry("env_file", any()),
            entry("working_dir", text()), entry("user", text()), entry("group_add", any()), entry("hostname", text()),
            entry("domainname", text()), entry("stop_signal", text()), entry("stop_grace_period", DURATION),
            entry("init", bool()), entry("read_only", bool()), entry("tty", bool()), entry("stdin_open", bool()),
            entry("healthcheck", keys(Map.of("test", any(), "interval", DURATION, "timeout", DURATION, "start_period",
                    DURATION, "start_interval", DURATION, "retries", integer(), "disable", bool()))),
            // the kernel namespaces these: they act in the container's own namespaces
            entry("sysctls", mapOf(any())), entry("ulimits", mapOf(any())),
            // the container's own resolver and hosts file; where its packets may go is the egress rules' (docs/security.md)
            entry("dns", any()), entry("dns_search", any()), entry("dns_opt", any()), entry("extra_hosts", any()),
            entry("expose", any()), entry("tmpfs", any()),
            entry("labels", ComposeLabels.RULE),
            entry("deploy", DEPLOY),
            entry("networks", SERVICE_NETWORKS),
            entry("volumes", each(MOUNT)),
            entry("secrets", each(FILE_USE)), entry("configs", each(FILE_USE)),
            entry("cap_drop", each(text())), entry("cap_add", CAP_ADD),
            entry("ports", PORTS),
            entry("logging", LogBounds.RULE),
            entry("devices", hostKey("devices")), entry("privileged", hostKey("privileged")),
            entry("security_opt", hostKey("security_opt")), entry("pid", hostKey("pid")), entry("ipc", hostKey("ipc")),
            entry("userns_mode", hostKey("userns_mode")), entry("network_mode", hostKey("network_mode")),
            entry("cgroup_parent", hostKey("cgroup_parent")), entry("cgroupns_mode", hostKey("cgroupns_mode")),
            // ignored by the docker CLI for a swarm (it says "Ignoring unsupported options" as it deploys)
            entry("build", any()), entry("container_name", text()), entry("depends_on", any()), entry("links", any()),
            entry("external_links", any()), entry("restart", text()), entry("shm_size", any()),
            entry("mac_address", any())));

    private static final Rule SERVICES = (judging, at, services) -> services.fields().forEachRemaining(service ->
            SERVICE.judge(judging, new Place("service " + service.getKey(), ""), service.getValue()));

    /** A top-level object of the stack: its own, named in the stack's namespace, or the one shared network. */
    private static Rule objects(String kind, Rule object) {
        return (judging, at, objects) -> objects.fields().forEachRemaining(e ->
                object.judge(judging, new Place(kind + " " + e.getKey(), ""), e.getValue()));
    }

    /** A non-external object renamed outside the stack's namespace would take over another stack's object of that name. */
    private static void renamed(ComposeJudging judging, Place at, String key, JsonNode object) {
        String name = object.path("name").asText("");
        if (!name.isEmpty() && !judging.own(name)) {
            judging.refuse(new Place(at.where(), key), name, "is named", HOST, "a name outside the stack's own ("
                    + judging.stack + "_...) reuses, relabels and at teardown removes another stack's object; name it"
                    + " ${STACK_NAME}_<name>.");
        }
    }

    private static final Rule NETWORK = (judging, at, network) -> {
        String name = network.path("name").asText(at.where().substring("network ".length()));
        String driver = network.path("driver").asText("");
        if (network.path("external").asBoolean(false)) {
            if (!name.equals(DeployPolicy.PROXY_NETWORK)) {
                judging.refuse(new Place(at.where(), "networks"), name, "is the external network", HOST,
                        "a recipe joins no external network but " + DeployPolicy.PROXY_NETWORK + "; use a network of its own.");
            }
        } else if (!driver.isEmpty() && !driver.equals("overlay")) {
            judging.refuse(new Place(at.where(), "networks"), "driver:" + driver, "uses the network", HOST,
                    "a recipe's networks are overlay networks of its stack; drop the driver.");
        } else {
            renamed(judging, at, "networks", network);
        }
        keys(Map.of("name", text(), "external", bool(), "driver", text(), "attachable", bool(), "internal", bool(),
                "labels", ComposeLabels.RULE,
                // encryption of the stack's own overlay traffic is its only driver option
                "driver_opts", keys(Map.of("encrypted", any())),
                "ipam", refused("chooses its addresses", "can collide with the host's networks or another stack's",
                        "drop ipam: swarm gives each network a subnet of its own.", JsonNode::isEmpty))).judge(judging, at, network);
    };

    private static final Rule VOLUME = (judging, at, volume) -> {
        String driver = volume.path("driver").asText("");
        Place where = new Place(at.where(), "volumes");
        if (volume.path("external").asBoolean(false)) {
            judging.refuse(where, volume.path("name").asText(at.where().substring("volume ".length())), "is the external volume",
                    HOST, "a run uses only the volumes its stack makes; drop external: true.");
        } else if (!driver.isEmpty() && !driver.equals("local")) {
            judging.refuse(new Place(at.where(), "driver"), driver, "uses the volume driver", HOST,
                    "a recipe's volumes are plain local volumes; drop the driver.");
        } else if (volume.path("driver_opts").size() > 0) {
            judging.refuse(new Place(at.where(), "driver_opts"), volume.path("driver_opts").toString(), "has the driver_opts",
                    HOST, "driver_opts can bind any host folder (device: /etc); drop them.");
        } else {
            renamed(judging, at, "volumes", volume);
        }
        keys(Map.of("name", text(), "external", bool(), "driver", text(), "driver_opts", any(), "labels", ComposeLabels.RULE))
                .judge(judging, at, volume);
    };

    /** A secret or config: made by the stack from a file of the tree, or an external one the run made itself. */
    private static Rule fileObject(String kind) {
        return (judging, at, object) -> {
            Place where = new Place(at.where(), kind);
            String name = object.path("name").asText("");
            String file = object.path("file").asText("");
            if (object.path("external").asBoolean(false)) {
                if (!judging.own(name)) {
                    judging.refuse(where, name, "is the external object", HOST, "a run mounts only the " + kind + " it makes"
                            + " itself, named " + judging.stack + "_...; let the recipe's env make this one.");
                }
            } else if (!file.isEmpty() && !judging.inside(file)) {
                judging.refuse(where, file, "is made from the file", HOST,
                        "a recipe's " + kind + " are made from files of its own tree; move the file into the recipe.");
            } else {
                renamed(judging, at, kind, object);
            }
            keys(Map.of("name", text(), "file", text(), "external", bool(), "labels", ComposeLabels.RULE,
                    "template_driver", oneOf("golang"))).judge(judging, at, object);
        };
    }

    private static final Rule TOP = keys(Map.of(
            "version", text(),
            "services", SERVICES,
            "networks", objects("network", NETWORK),
            "volumes", objects("volume", VOLUME),
            "secrets", objects("secret", fileObject("secrets")),
            "configs", objects("config", fileObject("configs"))));
}
