package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The compose files as the recipe wrote them, judged before any child process opens a file they
 * name. {@code docker stack config} opens and parses every {@code env_file} a compose names (as
 * root, while it resolves the compose, before any check of ccci's sees the result) and quotes the
 * file's lines in its errors: {@code env_file: [/etc/shadow]} would be read, and printed, by the
 * very step that resolves the compose for the deploy policy. So each {@code COMPOSE_FILE} entry is
 * read whole (at most {@link #MAX_BYTES}; a larger one is refused, never judged in part), parsed
 * here the way the CLI's YAML parser reads it (an alias is its anchor's node, a merge key's value
 * the mapping it merges), and every {@code env_file} key, at any depth, must name literal files
 * inside the recipe's tree, links followed.
 *
 * <p>A path with {@code $} is refused: the CLI would interpolate it after this check, so only a
 * literal path can be judged before the CLI opens it. Secrets' and configs' {@code file}s are not
 * opened by {@code docker stack config} (only the deploy reads them): the deploy policy judges them
 * on the resolved compose, before the deploy.
 */
@API(status = API.Status.INTERNAL)
public final class ComposeFiles {

    /** The most ccci reads of one compose file, and of the resolved compose: beyond it a recipe is refused. */
    public static final int MAX_BYTES = 4 << 20;
    /** The most of an env_file the docker CLI is let open. */
    static final long MAX_ENV_FILE_BYTES = 1 << 20;

    private ComposeFiles() {
    }

    /**
     * The app's compose files, each inside the tree, read whole and its env_files judged; else one
     * sentence naming the file and the fix. Returns the files as {@code COMPOSE_FILE} lists them.
     */
    public static List<Path> judged(App app) throws IOException {
        List<Path> files = new ArrayList<>();
        Path root = app.recipeDir().toRealPath();
        List<String> names = app.composeFiles();
        // the CLI resolves relative paths against the first file's folder
        Path base = RecipeTree.inside(root, names.get(0), "COMPOSE_FILE names").getParent();
        for (String name : names) {
            // COMPOSE_FILE comes with the recipe: /etc/x.yml or ../../x.yml is no file of it
            Path compose = RecipeTree.inside(root, name, "COMPOSE_FILE names");
            if (!Files.isRegularFile(compose)) {
                throw new IOException("COMPOSE_FILE of " + app.recipe() + " names " + name + ", which the recipe does not"
                        + " have: fix COMPOSE_FILE in its .env.sample.");
            }
            if (Files.size(compose) > MAX_BYTES) {
                throw new IllegalStateException(app.recipe() + ": " + name + " is " + Files.size(compose) + " bytes, more than"
                        + " the " + (MAX_BYTES >> 20) + " MiB ccci judges of a compose file (it judges a compose whole or not"
                        + " at all): split or shrink it.");
            }
            EnvFiles envFiles = new EnvFiles(app.recipe(), root, base);
            for (Node document : documents(app.recipe(), name, compose)) {
                envFiles.walk(document, List.of());
            }
            files.add(compose);
        }
        return List.copyOf(files);
    }

    /**
     * Every document of the file as SnakeYAML's composer reads it (the node graph: an alias is the
     * anchored node itself, a merge key's value the mapping it merges), without its constructor (the
     * high-level loader costs a cold JVM some 60-90 ms before the first deploy; the composer, beside
     * the YAML parser Jackson has already loaded, a few).
     */
    private static List<Node> documents(String recipe, String name, Path compose) throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(MAX_BYTES + 1);
        List<Node> documents = new ArrayList<>();
        try (Reader in = new InputStreamReader(Files.newInputStream(compose, LinkOption.NOFOLLOW_LINKS), StandardCharsets.UTF_8)) {
            Composer composer = new Composer(new ParserImpl(new StreamReader(in), options), new Resolver(), options);
            while (composer.checkNode()) {
                documents.add(composer.getNode());
            }
        } catch (YAMLException e) {
            throw new IOException("the compose files of " + recipe + " (" + name + ") do not parse: " + firstLine(e.getMessage())
                    + " — fix the recipe's compose file.");
        }
        return documents;
    }

    /**
     * Every {@code env_file} in a document's node graph, at any depth (an extension field merged
     * into a service is reached through the merge key's value, as the CLI expands it): its entries
     * must be literal files of the recipe. Each node is walked once: an alias is its anchor's node.
     */
    private record EnvFiles(String recipe, Path root, Path base, Set<Node> seen) {
        EnvFiles(String recipe, Path root, Path base) {
            this(recipe, root, base, Collections.newSetFromMap(new IdentityHashMap<>()));
        }

        /** {@code path} names the place for the sentence: {@code service app}, or the keys' path. */
        void walk(Node node, List<String> path) throws IOException {
            if (!seen.add(node)) {
                return;
            }
            if (node instanceof MappingNode map) {
                for (NodeTuple tuple : map.getValue()) {
                    String key = tuple.getKeyNode() instanceof ScalarNode k ? k.getValue() : "";
                    List<String> at = new ArrayList<>(path);
                    at.add(key);
                    if ("env_file".equals(key)) {
                        String where = path.size() == 2 && path.get(0).equals("services") ? "service " + path.get(1)
                                : String.join(".", at);
                        Node value = tuple.getValueNode();
                        for (Node item : value instanceof SequenceNode list ? list.getValue() : List.of(value)) {
                            envFile(recipe, where, literal(item), root, base);
                        }
                    } else {
                        walk(tuple.getValueNode(), at);
                    }
                }
            } else if (node instanceof SequenceNode list) {
                for (Node item : list.getValue()) {
                    walk(item, path);
                }
            }
        }
    }

    /** An env_file entry's path: a string, or the {@code path} of its long form; "" for anything else. */
    private static String literal(Node item) {
        if (item instanceof ScalarNode scalar) {
            return scalar.getValue();
        }
        if (item instanceof MappingNode longForm) {
            for (NodeTuple tuple : longForm.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals("path")
                        && tuple.getValueNode() instanceof ScalarNode v) {
                    return v.getValue();
                }
            }
        }
        return "";
    }

    private static void envFile(String recipe, String where, String path, Path root, Path base) throws IOException {
        String refused = null;
        if (path.isEmpty() || path.contains("$")) {
            refused = "is not a literal path: ccci judges an env_file before the docker CLI opens it, so it must name"
                    + " the file itself; write the path without variables";
        } else {
            Path file = base.resolve(path).normalize();
            Path real = Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? file.toRealPath() : file;
            if (!file.startsWith(root) || !real.startsWith(root)) {
                refused = "is outside the recipe: an env_file is read from the recipe's own tree; move it into the recipe"
                        + " or use environment";
            } else if (!Files.isRegularFile(real)) {
                refused = "is not a file of the recipe: add it, or drop the env_file entry";
            } else if (Files.size(real) > MAX_ENV_FILE_BYTES) {
                refused = "is larger than " + (MAX_ENV_FILE_BYTES >> 20) + " MiB: shrink it";
            }
        }
        if (refused != null) {
            throw new IllegalStateException(recipe + ": " + where + " reads the env file " + path + " (env_file), which "
                    + refused + ".");
        }
    }

    private static String firstLine(String message) {
        String text = message == null ? "" : message.strip();
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
