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

    /** The app's final compose, or one sentence naming the compose files and the fix. */
    public static ComposeConfig of(App app, ChildProcesses children) throws IOException, InterruptedException {
        List<String> files = app.composeFiles();
        List<String> command = new ArrayList<>(List.of("docker", "stack", "config"));
        for (String file : files) {
            // COMPOSE_FILE comes with the recipe: /etc/x.yml or ../../x.yml is no file of it
            if (!Files.isRegularFile(RecipeTree.inside(app.recipeDir(), file, "COMPOSE_FILE names"))) {
                throw new IOException("COMPOSE_FILE of " + app.recipe() + " names " + file + ", which the recipe does not"
                        + " have: fix COMPOSE_FILE in its .env.sample.");
            }
            command.add("-c");
            command.add(file);
        }
        ChildProcesses.Result config = children.run(command, app.recipeDir(), app.deployEnv(), Duration.ofMinutes(1));
        if (!config.ok()) {
            throw new IOException("the compose files of " + app.recipe() + " (" + String.join(", ", files)
                    + ") do not parse: " + config.output().strip() + " — fix the recipe's compose file.");
        }
        return new ComposeConfig(config.output(), RecipeLabels.parse(config.output()));
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
