package net.commoninternet.ccci.extensions.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a recipe's compose may ask of the host: only its own swarm objects. Checked on the final
 * compose ({@link ComposeConfig}: {@code docker stack config} over every {@code COMPOSE_FILE}
 * file, overlays included, interpolated as the deploy will be) before each deploy and before the
 * app's secrets are made, so a refused recipe leaves nothing on the engine.
 *
 * <p>The compose comes with the pull request under test, and ccci runs as root with the Docker
 * socket: a bind mount of {@code /var/run/docker.sock} or {@code /}, a volume whose
 * {@code driver_opts} bind {@code /etc}, {@code cap_add: [SYS_ADMIN]}, the {@code host} network,
 * a published port, a secret made from {@code /etc/shadow} or another stack's secret would each
 * hand the host to the PR (each checked on this engine: see docs/security.md). Refused, each in
 * one sentence naming the service, the key and the fix:
 * <ul>
 *   <li>services: any bind or npipe mount; {@code cap_add}; {@code devices}, {@code privileged},
 *       {@code security_opt}, the {@code pid}/{@code ipc}/{@code userns} namespaces,
 *       {@code network_mode}, {@code cgroup_parent}, {@code cgroupns_mode} (swarm ignores most of
 *       them today; a recipe that asks for them asks for the host); {@code ports} (they listen on
 *       the host; recipes are reached through the {@code proxy} network); an {@code env_file}
 *       outside the recipe's tree;
 *   <li>top-level: a secret's or config's {@code file} outside the tree (its real path);
 *       an external secret or config whose name is not the stack's own ({@code <stack>_...}, what
 *       this run makes); any object renamed ({@code name:}) outside the stack's namespace (it would
 *       reuse, relabel and at teardown delete another stack's object); a volume with a
 *       {@code driver} or {@code driver_opts}; an external volume; an external network other than
 *       {@code proxy}, or a network driver other than overlay.
 * </ul>
 * An operator's allowance ({@link DeployAllowance}, {@code -Dccci.deploy-allowance}) lets one
 * recipe one key and value; each use is logged as a warning.
 */
@API(status = API.Status.INTERNAL)
public final class DeployPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(DeployPolicy.class);

    /** Service keys that ask for the host itself, whatever their value. */
    private static final List<String> HOST_KEYS = List.of("devices", "privileged", "security_opt", "pid", "ipc",
            "userns_mode", "network_mode", "cgroup_parent", "cgroupns_mode");
    /** The one external network a recipe may join: the proxy's. */
    static final String PROXY_NETWORK = "proxy";

    private final DeployAllowance allowance;
    private final Duration hookTimeout;
    private final ChildProcesses children;

    /** The host's policy: its allowance and the bound of a recipe's hooks. */
    public DeployPolicy(RunSettings.HostTrust trust, ChildProcesses children) {
        this.allowance = trust.deployAllowance();
        this.hookTimeout = trust.hookTimeout();
        this.children = children;
    }

    /** {@code allowance}, hooks bounded by the default. */
    public DeployPolicy(DeployAllowance allowance, ChildProcesses children) {
        this(new RunSettings.HostTrust(java.util.Set.of(), allowance), children);
    }

    /** How long the host lets one of the recipe's hooks run in its container ({@code ccci.hook-timeout}). */
    public Duration hookTimeout() {
        return hookTimeout;
    }

    /** The app's final compose, refused in one sentence if it asks for more than its own objects. */
    public ComposeConfig check(App app) throws IOException, InterruptedException {
        ComposeConfig compose = ComposeConfig.of(app, children);
        check(app, compose);
        return compose;
    }

    /** {@link #check(App)} of a compose already read. */
    public void check(App app, ComposeConfig compose) throws IOException {
        backupPaths(app.recipe(), compose.tree());
        for (Finding finding : findings(app, compose.tree())) {
            Optional<DeployAllowance.Entry> allowed = allowance.allowing(app.recipe(), finding.key(), finding.value());
            if (allowed.isEmpty()) {
                throw new IllegalStateException(finding.refusal(app.recipe()));
            }
            LOG.warn("!! deploy allowance {} (set on this host): {} {} {} — allowed, not refused !!", allowed.get(),
                    finding.where(), finding.what(), finding.value());
        }
    }

    /**
     * A backupbot path with a {@code ..} segment is refused before anything exists: restic (root,
     * on the host) reads and a restore writes what a backup path names, so a path that climbs
     * ({@code /var/www/../../etc}) could reach the host; no allowance lets one through. The run
     * checks again, at backup and restore, that each path, links followed, is inside the
     * service's own volume ({@code BackupLabels}).
     */
    static void backupPaths(String recipe, JsonNode tree) {
        for (Map.Entry<String, JsonNode> service : RecipeLabels.services(tree)) {
            for (Map.Entry<String, String> label : RecipeLabels.deployLabels(service.getValue()).entrySet()) {
                String key = label.getKey();
                boolean path = key.equals("backupbot.backup.path")
                        || key.startsWith("backupbot.backup.volumes.") && key.endsWith(".path");
                if (path && java.util.Arrays.stream(label.getValue().split("[,/]")).map(String::strip).anyMatch(".."::equals)) {
                    throw new IllegalStateException(recipe + ": service " + service.getKey() + " has the label " + key + "="
                            + label.getValue() + ", a backup path that climbs out with '..': a backup holds only the"
                            + " service's own volumes; name the path inside its volume without '..'.");
                }
            }
        }
    }

    /** One thing the compose asks of the host. */
    record Finding(String where, String key, String value, String what, String fix) {

        String refusal(String recipe) {
            return recipe + ": " + where + " " + what + " " + value + " (" + key + "), which reaches the host beyond"
                    + " the run's own swarm objects: " + fix + " If this host's operator trusts " + recipe + " with it,"
                    + " run with -Dccci.deploy-allowance=" + recipe + ":" + key + "=" + value + ".";
        }
    }

    /** Everything the final compose asks of the host, in file order. */
    static List<Finding> findings(App app, JsonNode tree) throws IOException {
        Path root = app.recipeDir().toRealPath();
        Path base = root.resolve(app.composeFiles().get(0)).normalize().getParent();
        String own = app.stack() + "_";
        List<Finding> found = new ArrayList<>();
        for (Map.Entry<String, JsonNode> service : RecipeLabels.services(tree)) {
            services(service.getKey(), service.getValue(), root, base, found);
        }
        for (String kind : List.of("secrets", "configs")) {
            for (Map.Entry<String, JsonNode> e : fields(tree.path(kind))) {
                String where = kind.substring(0, kind.length() - 1) + " " + e.getKey();
                JsonNode object = e.getValue();
                String name = object.path("name").asText("");
                String file = object.path("file").asText("");
                if (object.path("external").asBoolean(false)) {
                    if (!name.startsWith(own)) {
                        found.add(new Finding(where, kind, name, "is the external object",
                                "a run mounts only the " + kind + " it makes itself, named " + own + "...; let the"
                                        + " recipe's env make this one."));
                    }
                } else if (!file.isEmpty() && !inside(root, base.resolve(file))) {
                    found.add(new Finding(where, kind, file, "is made from the file",
                            "a recipe's " + kind + " are made from files of its own tree; move the file into the recipe."));
                } else {
                    renamed(where, kind, name, own, found);
                }
            }
        }
        for (Map.Entry<String, JsonNode> e : fields(tree.path("volumes"))) {
            String where = "volume " + e.getKey();
            JsonNode volume = e.getValue();
            String driver = volume.path("driver").asText("");
            if (volume.path("external").asBoolean(false)) {
                found.add(new Finding(where, "volumes", volume.path("name").asText(e.getKey()), "is the external volume",
                        "a run uses only the volumes its stack makes; drop external: true."));
            } else if (!driver.isEmpty() && !driver.equals("local")) {
                found.add(new Finding(where, "driver", driver, "uses the volume driver",
                        "a recipe's volumes are plain local volumes; drop the driver."));
            } else if (volume.path("driver_opts").size() > 0) {
                found.add(new Finding(where, "driver_opts", volume.path("driver_opts").toString(), "has the driver_opts",
                        "driver_opts can bind any host folder (device: /etc); drop them."));
            } else {
                renamed(where, "volumes", volume.path("name").asText(""), own, found);
            }
        }
        for (Map.Entry<String, JsonNode> e : fields(tree.path("networks"))) {
            String where = "network " + e.getKey();
            JsonNode network = e.getValue();
            String name = network.path("name").asText(e.getKey());
            String driver = network.path("driver").asText("");
            if (network.path("external").asBoolean(false)) {
                if (!name.equals(PROXY_NETWORK)) {
                    found.add(new Finding(where, "networks", name, "is the external network",
                            "a recipe joins no external network but " + PROXY_NETWORK + "; use a network of its own."));
                }
            } else if (!driver.isEmpty() && !driver.equals("overlay")) {
                found.add(new Finding(where, "networks", "driver:" + driver, "uses the network",
                        "a recipe's networks are overlay networks of its stack; drop the driver."));
            } else {
                renamed(where, "networks", network.path("name").asText(""), own, found);
            }
        }
        return found;
    }

    private static void services(String name, JsonNode service, Path root, Path base, List<Finding> found) {
        String where = "service " + name;
        for (JsonNode mount : service.path("volumes")) {
            String type = mount.path("type").asText("");
            if (type.equals("bind") || type.equals("npipe")) {
                found.add(new Finding(where, "volumes", mount.path("source").asText(""), "mounts the host path",
                        "a recipe keeps its data in volumes of its own and its files in configs; replace the bind mount."));
            }
        }
        for (JsonNode cap : service.path("cap_add")) {
            String normal = cap.asText().toUpperCase(Locale.ROOT).replaceFirst("^CAP_", "");
            found.add(new Finding(where, "cap_add", normal, "adds the capability",
                    "containers run with Docker's default capabilities; drop cap_add."));
        }
        for (String key : HOST_KEYS) {
            JsonNode value = service.get(key);
            if (value != null && !value.isNull() && !(value.isBoolean() && !value.asBoolean())) {
                found.add(new Finding(where, key, value.isValueNode() ? value.asText() : value.toString(), "sets",
                        "swarm gives a service none of the host's devices, namespaces or security options; drop " + key + "."));
            }
        }
        for (JsonNode port : service.path("ports")) {
            String published = port.path("published").asText(port.path("target").asText(port.asText()));
            found.add(new Finding(where, "ports", published, "publishes the port",
                    "recipes publish no ports, they are reached through the " + PROXY_NETWORK + " network and their"
                            + " traefik labels; drop ports."));
        }
        for (JsonNode envFile : service.path("env_file")) {
            String file = envFile.isValueNode() ? envFile.asText() : envFile.path("path").asText();
            if (!inside(root, base.resolve(file))) {
                found.add(new Finding(where, "env_file", file, "reads the env file",
                        "an env_file is read from the recipe's own tree; move it into the recipe or use environment."));
            }
        }
    }

    /** A non-external object renamed outside the stack's namespace would take over another stack's object of that name. */
    private static void renamed(String where, String key, String name, String own, List<Finding> found) {
        if (!name.isEmpty() && !name.startsWith(own)) {
            found.add(new Finding(where, key, name, "is named",
                    "a name outside the stack's own (" + own + "...) reuses, relabels and at teardown removes another"
                            + " stack's object; name it ${STACK_NAME}_<name>."));
        }
    }

    /** Whether {@code file}, once every link in it is followed, is inside {@code root} (the tree's real path). */
    private static boolean inside(Path root, Path file) {
        Path normal = file.normalize();
        if (!normal.startsWith(root)) {
            return false;
        }
        try {
            return !Files.exists(normal) || normal.toRealPath().startsWith(root);
        } catch (IOException unreadable) {
            return false;
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        node.fields().forEachRemaining(out::add);
        return out;
    }
}
