package net.commoninternet.ccci.extensions.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.extensions.recipe.AbraSh;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.BoundedRead;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.ComposeInterpolation;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apiguardian.api.API;

/**
 * A recipe's checked-out tree as abra's lint reads it: the compose files {@code .env.sample}'s
 * {@code COMPOSE_FILE} names (else {@code compose.yml}), each parsed, their services merged by
 * name in that order (a later file's image, healthcheck and labels win, as compose merges them),
 * images and label values interpolated with {@code .env.sample}'s values as abra loads them;
 * the top-level secrets and configs; {@code .env.sample}, {@code abra.sh} and {@code README.md}.
 * Label keys are not interpolated (the CLI never does), so {@code coop-cloud.${STACK_NAME}.version}
 * stays as written.
 */
@API(status = API.Status.INTERNAL)
public final class LintedRecipe {

    private final Path dir;
    private final Optional<Map<String, String>> sample;
    private final List<ComposeFile> files = new ArrayList<>();
    private final Map<String, Service> services = new LinkedHashMap<>();
    private final Set<String> secrets = new LinkedHashSet<>();
    private final Map<String, JsonNode> configs = new LinkedHashMap<>();
    private Optional<String> unreadable;

    private LintedRecipe(Path dir, Optional<Map<String, String>> sample, Optional<String> unreadable) {
        this.dir = dir;
        this.sample = sample;
        this.unreadable = unreadable;
    }

    /** The recipe's folder. */
    public Path dir() {
        return dir;
    }

    /** The compose files read, in COMPOSE_FILE order. */
    public List<ComposeFile> files() {
        return List.copyOf(files);
    }

    /** Why a file could not be read (the first such), if one could not. */
    public Optional<String> unreadable() {
        return unreadable;
    }

    /** The services merged over the files, by name. */
    public Map<String, Service> services() {
        return Map.copyOf(services);
    }

    /** The top-level secrets' keys. */
    public Set<String> secrets() {
        return Set.copyOf(secrets);
    }

    /** The top-level configs, by key. */
    public Map<String, JsonNode> configs() {
        return Map.copyOf(configs);
    }

    /** {@code .env.sample}'s values, if it exists and reads. */
    public Optional<Map<String, String>> sample() {
        return sample;
    }

    /** One compose file as written: its name, its {@code version} (null if none) and its parsed tree. */
    public record ComposeFile(String name, String version, JsonNode tree) {
    }

    /**
     * One service merged over the files: its image interpolated (empty if none), whether it has a
     * healthcheck, its deploy labels (null if it has no {@code deploy.labels} stanza) and whether
     * it mounts a config.
     */
    public record Service(String name, String image, boolean healthcheck, Map<String, String> labels, boolean usesConfigs) {
        public boolean hasLabels() {
            return labels != null;
        }

        public Map<String, String> labelsOrEmpty() {
            return labels == null ? Map.of() : labels;
        }
    }

    public static final String SAMPLE = ".env.sample";
    public static final String README = "README.md";

    /** Reads the tree; a compose file that cannot be read or parsed is {@link #unreadable}, never thrown. */
    public static LintedRecipe read(Path dir) throws IOException {
        Path samplePath = dir.resolve(SAMPLE);
        Optional<Map<String, String>> sample = Optional.empty();
        List<String> names = List.of("compose.yml");
        Optional<String> unreadable = Optional.empty();
        if (Files.isRegularFile(samplePath)) {
            try {
                sample = Optional.of(EnvFile.read(samplePath).values());
                names = new App(dir.getFileName().toString(), "lint.invalid", dir, samplePath, Map.of()).composeFiles();
            } catch (IOException e) {
                unreadable = Optional.of(SAMPLE + " cannot be read: " + firstLine(e));
            }
        }
        Map<String, String> env = new LinkedHashMap<>(sample.orElse(Map.of()));
        LintedRecipe recipe = new LintedRecipe(dir, sample, unreadable);
        for (String name : names) {
            recipe.add(name, env);
        }
        return recipe;
    }

    private void add(String name, Map<String, String> env) {
        JsonNode tree;
        try {
            tree = RecipeLabels.parse(BoundedRead.text(dir.resolve(name), ComposeFiles.MAX_BYTES, "shrink it"));
        } catch (IOException | RuntimeException e) {
            unreadable = unreadable.or(() -> Optional.of(name + " does not parse: " + firstLine(e)));
            return;
        }
        if (tree == null || !tree.isObject()) {
            unreadable = unreadable.or(() -> Optional.of(name + " does not parse: the top level is not a mapping"));
            return;
        }
        files.add(new ComposeFile(name, tree.hasNonNull("version") ? tree.get("version").asText() : null, tree));
        for (Map.Entry<String, JsonNode> entry : RecipeLabels.services(tree)) {
            services.put(entry.getKey(), merge(services.get(entry.getKey()), entry.getKey(), entry.getValue(), env));
        }
        tree.path("secrets").fieldNames().forEachRemaining(secrets::add);
        tree.path("configs").fields().forEachRemaining(c -> configs.put(c.getKey(), c.getValue()));
    }

    private static Service merge(Service before, String name, JsonNode service, Map<String, String> env) {
        String image = service.hasNonNull("image") ? ComposeInterpolation.substitute(service.get("image").asText(), env).strip()
                : before == null ? "" : before.image();
        boolean healthcheck = !service.path("healthcheck").isMissingNode() || before != null && before.healthcheck();
        Map<String, String> labels = before == null || before.labels() == null ? null : new LinkedHashMap<>(before.labels());
        if (!service.path("deploy").path("labels").isMissingNode()) {
            labels = labels == null ? new LinkedHashMap<>() : labels;
            for (Map.Entry<String, String> label : RecipeLabels.deployLabels(service).entrySet()) {
                labels.put(label.getKey(), ComposeInterpolation.substitute(label.getValue(), env));
            }
        }
        boolean configs = service.path("configs").size() > 0 || before != null && before.usesConfigs();
        return new Service(name, image, healthcheck, labels, configs);
    }

    private static String firstLine(Exception e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
    }

    public boolean hasAbraSh() {
        return Files.isRegularFile(dir.resolve(AbraSh.FILE));
    }

    public Map<String, String> abraShExports() throws IOException {
        return hasAbraSh() ? AbraSh.exports(dir) : Map.of();
    }

    /** README.md's text, if the recipe has one: at most {@link #README_MAX_BYTES}, a larger one refused. */
    public Optional<String> readme() throws IOException {
        Path readme = dir.resolve(README);
        return Files.isRegularFile(readme) ? Optional.of(BoundedRead.text(readme, README_MAX_BYTES, "shorten it"))
                : Optional.empty();
    }

    /** The most of README.md ccci reads: its metadata block is a few lines at its top. */
    static final long README_MAX_BYTES = 1 << 20;
}
