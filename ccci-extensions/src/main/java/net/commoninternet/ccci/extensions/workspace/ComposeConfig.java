package net.commoninternet.ccci.extensions.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import org.apiguardian.api.API;

/**
 * The app's final compose, exactly what a deploy of it would get: every {@code COMPOSE_FILE}
 * file merged and interpolated with {@link App#deployEnv()} by the docker CLI
 * ({@code docker stack config}, the same translation {@code docker stack deploy} does). Read
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
    private static final Map<ChildProcesses, Map<String, ComposeConfig>> READ = new java.util.WeakHashMap<>();
    /** A tree larger than this is read by the CLI every time rather than digested. */
    private static final long DIGESTED_AT_MOST = 4L << 20;

    /**
     * The app's final compose, or one sentence naming the compose files and the fix. The same
     * tree and env as a read before by the same children give that read again: the output of
     * {@code docker stack config} is a function of the compose files, the files they name and the
     * env, so the memo's key is a digest of every file of the recipe's tree (not {@code .git}),
     * the compose file list and the env. A compose naming an {@code env_file} (which may lie
     * outside the tree) is read by the CLI every time.
     */
    public static ComposeConfig of(App app, ChildProcesses children) throws IOException, InterruptedException {
        List<String> files = app.composeFiles();
        List<String> command = new ArrayList<>(List.of("docker", "stack", "config"));
        boolean memo = true;
        for (String file : files) {
            // COMPOSE_FILE comes with the recipe: /etc/x.yml or ../../x.yml is no file of it
            Path compose = RecipeTree.inside(app.recipeDir(), file, "COMPOSE_FILE names");
            if (!Files.isRegularFile(compose)) {
                throw new IOException("COMPOSE_FILE of " + app.recipe() + " names " + file + ", which the recipe does not"
                        + " have: fix COMPOSE_FILE in its .env.sample.");
            }
            memo &= !Files.readString(compose).contains("env_file");
            command.add("-c");
            command.add(file);
        }
        Map<String, String> env = app.deployEnv();
        Optional<String> key = memo ? digest(app.recipeDir(), command, env) : Optional.empty();
        if (key.isPresent()) {
            synchronized (READ) {
                ComposeConfig read = READ.getOrDefault(children, Map.of()).get(key.get());
                if (read != null) {
                    return read;
                }
            }
        }
        ChildProcesses.Result config = children.run(command, app.recipeDir(), env, Duration.ofMinutes(1));
        if (!config.ok()) {
            throw new IOException("the compose files of " + app.recipe() + " (" + String.join(", ", files)
                    + ") do not parse: " + config.output().strip() + " — fix the recipe's compose file.");
        }
        ComposeConfig read = new ComposeConfig(config.output(), RecipeLabels.parse(config.output()));
        // kept only if nothing the CLI read changed while it read it
        if (key.isPresent() && key.equals(digest(app.recipeDir(), command, env))) {
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
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            return Optional.empty();
        }
        java.util.function.Consumer<String> add = text -> {
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            sha.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
            sha.update(bytes);
        };
        add.accept(tree.toAbsolutePath().toString());
        command.forEach(add);
        new java.util.TreeMap<>(env).forEach((k, v) -> add.accept(k + "=" + v));
        List<Path> paths;
        try (var walk = Files.walk(tree)) {
            paths = walk.filter(p -> !tree.relativize(p).startsWith(".git")).sorted().toList();
        }
        long size = 0;
        for (Path path : paths) {
            add.accept(tree.relativize(path).toString());
            if (Files.isSymbolicLink(path)) {
                add.accept("link " + Files.readSymbolicLink(path));
            } else if (Files.isRegularFile(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                byte[] bytes = Files.readAllBytes(path);
                size += bytes.length;
                if (size > DIGESTED_AT_MOST) {
                    return Optional.empty();
                }
                add.accept("file " + bytes.length);
                sha.update(bytes);
            } else {
                add.accept("dir");
            }
        }
        return Optional.of(java.util.HexFormat.of().formatHex(sha.digest()));
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
