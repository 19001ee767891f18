package net.commoninternet.ccci.extensions.recipe;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A recipe's compose files interpolated with the app's values in ccci's own JVM, so that those values
 * never become a process's environment. The docker CLI interpolates only from its own environment,
 * and a recipe's env is the recipe's to choose: {@code DOCKER_HOST} (the address of its own
 * socket-proxy sidecar), {@code LD_PRELOAD}, {@code DOCKER_CONFIG} would steer the CLI that judges
 * and deploys it. So each file is read as the CLI reads it (YAML, anchors and merge keys expanded,
 * the first document), every string interpolated as the CLI does ({@link ComposeTemplate}, the
 * CLI's type casts where it casts, a service's {@code environment} entry without a value taken from
 * the values as the CLI takes it), and written as JSON (YAML the CLI parses, every string quoted so
 * its type stays) with each {@code $} doubled: the CLI, run with ccci's own environment only,
 * interpolates again and gets each value back as interpolated here. The CLI still merges the files,
 * resolves their paths and validates them.
 */
@API(status = API.Status.INTERNAL)
public final class ComposeInterpolation {

    /** A compose whose aliases expand beyond this many values is refused, never expanded further. */
    static final int MAX_VALUES = 1_000_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The CLI's casts ({@code cli/compose/loader/interpolate.go}): a path of keys, {@code *} any key, {@code []} a list item. */
    private static final Map<Pattern, String> CASTS = casts();

    private ComposeInterpolation() {
    }

    private static Map<Pattern, String> casts() {
        Map<String, String> paths = new LinkedHashMap<>();
        for (String p : List.of("configs.[].mode", "secrets.[].mode", "healthcheck.retries", "deploy.replicas",
                "deploy.update_config.parallelism", "deploy.rollback_config.parallelism", "deploy.restart_policy.max_attempts",
                "deploy.placement.max_replicas_per_node", "ports.[].target", "ports.[].published", "ulimits.*", "ulimits.*.hard",
                "ulimits.*.soft")) {
            paths.put("services.*." + p, "int");
        }
        paths.put("services.*.deploy.update_config.max_failure_ratio", "float");
        paths.put("services.*.deploy.rollback_config.max_failure_ratio", "float");
        for (String p : List.of("healthcheck.disable", "privileged", "read_only", "stdin_open", "tty", "volumes.[].read_only",
                "volumes.[].volume.nocopy")) {
            paths.put("services.*." + p, "bool");
        }
        for (String p : List.of("networks.*.external", "networks.*.internal", "networks.*.attachable", "volumes.*.external",
                "secrets.*.external", "configs.*.external")) {
            paths.put(p, "bool");
        }
        Map<Pattern, String> casts = new LinkedHashMap<>();
        // a key holding a '.' never matches a pattern part, as in the CLI's dotted paths
        paths.forEach((path, type) -> casts.put(Pattern.compile(Pattern.quote(path).replace("*", "\\E[^.]*\\Q")
                .replace("[]", "\\E\\[\\]\\Q")), type));
        return casts;
    }

    /**
     * Each compose file of the app, interpolated with {@code env}, written into {@code into} as JSON
     * (same order); one sentence naming the file and the fix where the CLI would fail to read or
     * interpolate it.
     */
    public static List<Path> write(App app, Map<String, String> env, Path into) throws IOException {
        List<Path> written = new ArrayList<>();
        List<String> names = app.composeFiles();
        for (int i = 0; i < names.size(); i++) {
            Path file = RecipeTree.inside(app.recipeDir().toRealPath(), names.get(i), "COMPOSE_FILE names");
            Object interpolated;
            try {
                interpolated = new Walk(env).value(read(app.recipe(), names.get(i), file), "");
            } catch (ComposeTemplate.Invalid invalid) {
                throw new IllegalStateException(app.recipe() + ": " + names.get(i) + " has an interpolation the docker CLI"
                        + " refuses (" + invalid.getMessage() + "): escape a literal $ as $$, or set the variable in"
                        + " .env.sample.");
            } catch (IllegalArgumentException unreadable) {
                throw new IllegalStateException(app.recipe() + ": " + names.get(i) + " " + unreadable.getMessage() + ".");
            }
            Path out = into.resolve(i + ".json");
            Files.writeString(out, JSON.writeValueAsString(interpolated), StandardCharsets.UTF_8);
            written.add(out);
        }
        return written;
    }

    /**
     * One string of a compose file interpolated with {@code env} as the docker CLI does it; a
     * template the CLI refuses ({@code ${X?message}} with X unset, say) is returned as written.
     */
    public static String substitute(String template, Map<String, String> env) {
        try {
            return ComposeTemplate.substitute(template, env);
        } catch (IllegalArgumentException refused) {
            return template;
        }
    }

    /** The file's first document as the CLI's YAML parser reads it: a mapping with string keys. */
    private static Map<?, ?> read(String recipe, String name, Path file) throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(ComposeFiles.MAX_BYTES + 1);
        options.setMaxAliasesForCollections(10_000);
        Yaml yaml = new Yaml(new Literal(options), new org.yaml.snakeyaml.representer.Representer(
                new org.yaml.snakeyaml.DumperOptions()), new org.yaml.snakeyaml.DumperOptions(), options);
        try (Reader in = new InputStreamReader(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS), StandardCharsets.UTF_8)) {
            Iterator<Object> documents = yaml.loadAll(in).iterator();
            Object first = documents.hasNext() ? documents.next() : null;
            if (!(first instanceof Map<?, ?> map)) {
                throw new IOException("the compose files of " + recipe + " (" + name + ") do not parse: the top level is not"
                        + " a mapping — fix the recipe's compose file.");
            }
            return map;
        } catch (YAMLException e) {
            String message = e.getMessage() == null ? "" : e.getMessage().strip().lines().findFirst().orElse("");
            throw new IOException("the compose files of " + recipe + " (" + name + ") do not parse: " + message
                    + " — fix the recipe's compose file.");
        }
    }

    /** SnakeYAML's safe types, but a timestamp stays the text it is (the CLI's parser gives a string). */
    private static final class Literal extends SafeConstructor {
        Literal(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }
    }

    /** One interpolation of one file: the values, and a count that bounds what aliases expand to. */
    private static final class Walk {
        private final Map<String, String> env;
        private int values;

        Walk(Map<String, String> env) {
            this.env = env;
        }

        Object value(Object value, String path) {
            if (++values > MAX_VALUES) {
                throw new IllegalArgumentException("expands to more than " + MAX_VALUES + " values through its aliases;"
                        + " write it without so many");
            }
            if (value instanceof String text) {
                String interpolated = ComposeTemplate.substitute(text, env);
                return interpolated.equals(text) ? escaped(text) : cast(interpolated, path);
            }
            if (value instanceof Map<?, ?> map) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!(e.getKey() instanceof String key)) {
                        throw new IllegalArgumentException("has the non-string key " + e.getKey() + (path.isEmpty() ? " at top"
                                + " level" : " in " + path) + ", which the docker CLI refuses; quote it");
                    }
                    out.put(key, value(e.getValue(), path.isEmpty() ? key : path + "." + key));
                }
                if (path.matches("services\\.[^.]*\\.environment")) {
                    out.replaceAll((k, v) -> (v == null || "".equals(v)) && env.containsKey(k) ? escaped(env.get(k)) : v);
                }
                return out;
            }
            if (value instanceof List<?> list) {
                List<Object> out = new ArrayList<>();
                for (Object item : list) {
                    out.add(value(item, path + ".[]"));
                }
                if (path.matches("services\\.[^.]*\\.environment")) {
                    out.replaceAll(item -> item instanceof String entry ? filled(entry) : item);
                }
                return out;
            }
            return value;
        }

        /** {@code NAME} or {@code NAME=} of a service's environment list: the CLI takes the value from its values. */
        private Object filled(String escapedEntry) {
            String entry = escapedEntry.replace("$$", "$");
            String name = entry.endsWith("=") ? entry.substring(0, entry.length() - 1) : entry;
            return !name.contains("=") && env.containsKey(name) ? escaped(name + "=" + env.get(name)) : escapedEntry;
        }

        /** As the CLI: a value its substitution changed, at a path it casts, gets the path's type. */
        private static Object cast(String value, String path) {
            for (Map.Entry<Pattern, String> cast : CASTS.entrySet()) {
                if (cast.getKey().matcher(path).matches()) {
                    return switch (cast.getValue()) {
                        case "int" -> integer(value, path);
                        case "float" -> decimal(value, path);
                        default -> bool(value, path);
                    };
                }
            }
            return escaped(value);
        }

        private static Object integer(String value, String path) {
            try {
                return Long.parseLong(value.startsWith("+") ? value.substring(1) : value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("interpolates " + path + " to '" + value + "', which is not a whole"
                        + " number (the docker CLI fails to cast it)");
            }
        }

        private static Object decimal(String value, String path) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("interpolates " + path + " to '" + value + "', which is not a number");
            }
        }

        private static Object bool(String value, String path) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "y", "yes", "true", "on" -> true;
                case "n", "no", "false", "off" -> false;
                default -> throw new IllegalArgumentException("interpolates " + path + " to '" + value + "', which is not"
                        + " a boolean");
            };
        }
    }

    /** The CLI interpolates what it reads once more: a doubled {@code $} gives the value back. */
    private static String escaped(String value) {
        return value.replace("$", "$$");
    }
}
