package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.ComposeInterpolation;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apache.commons.io.input.BoundedInputStream;
import org.apiguardian.api.API;

/**
 * The app's final compose, exactly what a deploy of it would get: every {@code COMPOSE_FILE}
 * file interpolated with {@link App#deployEnv()} as the docker CLI does it, in ccci's JVM
 * ({@link ComposeInterpolation}: the app's values never become the CLI's environment), then merged
 * by the docker CLI ({@code docker stack config}, the same translation {@code docker stack deploy} does). Read
 * before a deploy (images, configs, secrets) and for the labels abra acts on.
 *
 * @param text the config as the CLI printed it
 */
@API(status = API.Status.INTERNAL)
public record ComposeConfig(String text, JsonNode tree) {

    /** A top-level config: its compose key, its swarm name, and the file it is made from (absolute; null if external). */
    public record Config(String key, String name, Path file) {
    }

    /**
     * The configs read by each run's children (one {@link ChildProcesses} a run), by the digest of
     * everything {@code docker stack config} reads: a deploy reads the same compose three or four
     * times (the deploy policy, the image check, the deploy timeout, the upgrade's config
     * versions), each a CLI process, and gets the one read once.
     */
    private static final Map<ChildProcesses, Map<String, ComposeConfig>> READ = new WeakHashMap<>();
    /** A tree larger than this is read by the CLI every time rather than digested. */
    private static final long DIGESTED_AT_MOST = 4L << 20;

    /**
     * The app's final compose, or one sentence naming the compose files and the fix. The same
     * tree and env as a read before by the same children give that read again: the output of
     * {@code docker stack config} is a function of the compose files, the files they name and the
     * env, so the memo's key is a digest of every file of the recipe's tree (not {@code .git}),
     * the compose file list and the env (an {@code env_file} is a file of the tree: {@link ComposeFiles}
     * refuses any other before the CLI opens it). The CLI's output is read whole, at most
     * {@link ComposeFiles#MAX_BYTES}: a larger one is refused, never judged in part.
     */
    public static ComposeConfig of(App app, ChildProcesses children) throws IOException, InterruptedException {
        List<String> files = app.composeFiles();
        // every file inside the tree, read whole, its env_files judged (inside the tree, so the digest covers them),
        // before the CLI opens any of them
        List<Path> judged = ComposeFiles.judged(app);
        Map<String, String> env = app.deployEnv();
        List<String> named = new ArrayList<>(List.of("docker", "stack", "config"));
        files.forEach(f -> named.addAll(List.of("-c", f)));
        Optional<String> key = digest(app.recipeDir(), named, env);
        if (key.isPresent()) {
            synchronized (READ) {
                ComposeConfig read = READ.getOrDefault(children, Map.of()).get(key.get());
                if (read != null) {
                    return read;
                }
            }
        }
        ChildProcesses.Whole config;
        // the app's values interpolate the files here, never as the CLI's environment (ComposeInterpolation); the
        // CLI merges the interpolated files, the first on its standard input so that it resolves relative paths
        // against the first file's own folder, as it would the file itself
        Path scratch = Files.createTempDirectory(app.envFile().toAbsolutePath().getParent(), ".compose-");
        try {
            List<Path> interpolated = ComposeInterpolation.write(app, env, scratch);
            List<String> command = new ArrayList<>(List.of("docker", "stack", "config", "-c", "-"));
            interpolated.stream().skip(1).forEach(f -> command.addAll(List.of("-c", f.toString())));
            config = children.runWholeWithInput(command, judged.get(0).getParent(), Duration.ofMinutes(1),
                    ComposeFiles.MAX_BYTES, interpolated.get(0));
        } catch (ChildProcesses.OutputTooLarge large) {
            throw new IllegalStateException(app.recipe() + ": its resolved compose (" + String.join(", ", files) + ", merged and"
                    + " interpolated) is larger than " + (ComposeFiles.MAX_BYTES >> 20) + " MiB, the most ccci judges (a compose"
                    + " is judged whole or not at all): shrink the compose or the values it interpolates.");
        } finally {
            try (var left = Files.list(scratch)) {
                for (Path file : left.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(scratch);
        }
        if (!config.ok()) {
            throw new IOException("the compose files of " + app.recipe() + " (" + String.join(", ", files)
                    + ") do not parse: " + config.stderr().strip() + " — fix the recipe's compose file.");
        }
        ComposeConfig read = new ComposeConfig(config.stdout(), RecipeLabels.parseWhole(config.stdout()));
        // kept only if nothing the CLI read changed while it read it
        if (key.isPresent() && key.equals(digest(app.recipeDir(), named, env))) {
            synchronized (READ) {
                Map<String, ComposeConfig> ofRun = READ.computeIfAbsent(children, c -> new LinkedHashMap<>());
                if (ofRun.size() >= 16) {
                    ofRun.remove(ofRun.keySet().iterator().next());
                }
                ofRun.put(key.get(), read);
            }
        }
        return read;
    }

    /** SHA-256 of the tree's files (path, link target or bytes; not .git), the command and the env; empty if the tree is large. */
    private static Optional<String> digest(Path tree, List<String> command, Map<String, String> env) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            return Optional.empty();
        }
        Consumer<String> add = text -> {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
            sha.update(bytes);
        };
        add.accept(tree.toAbsolutePath().toString());
        command.forEach(add);
        new TreeMap<>(env).forEach((k, v) -> add.accept(k + "=" + v));
        List<Path> paths;
        try (var walk = Files.walk(tree)) {
            paths = walk.filter(p -> !tree.relativize(p).startsWith(".git")).sorted().toList();
        }
        long size = 0;
        for (Path path : paths) {
            add.accept(tree.relativize(path).toString());
            if (Files.isSymbolicLink(path)) {
                add.accept("link " + Files.readSymbolicLink(path));
            } else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                // sized before a byte of it is read, then streamed: a recipe's 2 GiB file is never read whole
                long bytes = Files.size(path);
                size += bytes;
                if (size > DIGESTED_AT_MOST) {
                    return Optional.empty();
                }
                add.accept("file " + bytes);
                long read;
                try (InputStream in = new DigestInputStream(BoundedInputStream.builder().setPath(path).setMaxCount(bytes + 1)
                        .get(), sha)) {
                    read = in.transferTo(OutputStream.nullOutputStream());
                }
                if (read != bytes) {
                    return Optional.empty(); // it changed while it was read: no memo of it
                }
            } else {
                add.accept("dir");
            }
        }
        return Optional.of(HexFormat.of().formatHex(sha.digest()));
    }

    /**
     * The compose a deploy of this judged config gets, as one file: the judged tree with what ccci gives
     * its services ({@code defaults}: limits where a service sets none, tmpfs sizes, log rotation;
     * {@link ResourceBounds#withDefaults}), without what the deploy must not read again
     * ({@code env_file}: its values are in {@code environment} already and its path names the recipe's
     * folder; {@code x-} extension fields, which mean nothing to the engine), at the compose version
     * that carries {@code pids}, and every {@code $} of a value doubled: the CLI interpolates what it
     * deploys, and the judged values are final. So the deploy gets exactly what the policy judged,
     * whatever the files or the env are by then; where it names the shared proxy network it joins
     * {@code proxy} instead (the run's own). Returns, for the log, the services that got ccci's
     * limits and what of the recipe's own log rotation was lowered.
     */
    String writeDeployable(Path file, ResourceBounds.Defaults defaults, ProxyNetwork proxy) throws IOException {
        List<String> lowered = new ArrayList<>();
        JsonNode deployable = ResourceBounds.withDefaults(tree, defaults, lowered);
        strip(deployable);
        proxy.applyTo(deployable);
        if (!ResourceBounds.carriesPids(deployable.path("version").asText(""))) {
            // the first 3.x schema the CLI validates pids against; the CLI prints the version it read, never none
            ((com.fasterxml.jackson.databind.node.ObjectNode) deployable).put("version", ResourceBounds.PIDS_VERSION);
        }
        Files.writeString(file, RecipeLabels.write(escaped(deployable)), StandardCharsets.UTF_8,
                LinkOption.NOFOLLOW_LINKS, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        String limits = ResourceBounds.describe(ResourceBounds.missing(tree, defaults));
        return lowered.isEmpty() ? limits : limits + (limits.isEmpty() ? "" : "; ") + "lowered to this host's bound: "
                + String.join(", ", lowered);
    }

    /**
     * Drops the {@code x-} fields where the compose format allows them (the top level, each service,
     * each network, volume, secret and config: deeper, a key of the recipe's own naming such as an
     * environment variable may start with {@code x-}) and each service's {@code env_file}.
     */
    private static void strip(JsonNode tree) {
        dropExtensions(tree);
        for (String kind : List.of("services", "networks", "volumes", "secrets", "configs")) {
            tree.path(kind).forEach(ComposeConfig::dropExtensions);
        }
        tree.path("services").forEach(service -> ((com.fasterxml.jackson.databind.node.ObjectNode) service).remove("env_file"));
    }

    private static void dropExtensions(JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
            List<String> drop = new ArrayList<>();
            object.fieldNames().forEachRemaining(name -> {
                if (name.startsWith("x-")) {
                    drop.add(name);
                }
            });
            object.remove(drop);
        }
    }

    /** Every text value with {@code $} doubled, so the deploy's interpolation gives the value back as judged. */
    private static JsonNode escaped(JsonNode node) {
        if (node.isTextual()) {
            return com.fasterxml.jackson.databind.node.TextNode.valueOf(node.asText().replace("$", "$$"));
        }
        if (node.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode copy = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                    .objectNode();
            node.fields().forEachRemaining(e -> copy.set(e.getKey(), escaped(e.getValue())));
            return copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                    .arrayNode();
            node.forEach(e -> copy.add(escaped(e)));
            return copy;
        }
        return node;
    }

    /** The services in file order: name and definition. */
    public List<Map.Entry<String, JsonNode>> services() {
        return RecipeLabels.services(tree);
    }

    /** {@code coop-cloud.<stack>.<name>} on any service (interpolated, or a map-form key as written). */
    public Optional<String> recipeLabel(String stack, String name) {
        return RecipeLabels.find(tree, stack, name);
    }

    /** The top-level configs, by compose key. */
    public Map<String, Config> configs() {
        Map<String, Config> configs = new LinkedHashMap<>();
        tree.path("configs").fields().forEachRemaining(e -> {
            JsonNode c = e.getValue();
            String file = c.path("file").asText("");
            configs.put(e.getKey(), new Config(e.getKey(), c.path("name").asText(e.getKey()),
                    c.path("external").asBoolean(false) || file.isEmpty() ? null : Path.of(file)));
        });
        return configs;
    }

    /** The top-level secrets, compose key to swarm name. */
    public Map<String, String> secretNames() {
        Map<String, String> secrets = new LinkedHashMap<>();
        tree.path("secrets").fields().forEachRemaining(e -> secrets.put(e.getKey(), e.getValue().path("name").asText(e.getKey())));
        return secrets;
    }
}
