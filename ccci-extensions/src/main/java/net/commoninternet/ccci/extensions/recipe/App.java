package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import org.apiguardian.api.API;

/**
 * A run's app: where its recipe tree and env file are. The env file is the truth a deploy reads
 * (as abra reads it): EXTRA_ENV, hooks and install steps change it before the deploy,
 * UPGRADE_EXTRA_ENV before the upgrade. {@code secretValues} holds the generated secrets, so
 * output and artifacts can be filtered and scanned for them; it is never logged.
 */
@API(status = API.Status.INTERNAL)
public record App(String recipe, String domain, Path recipeDir, Path envFile, Map<String, String> secretValues) {

    /** The app's stack: its domain with dots as underscores, as abra names it. */
    public String stack() {
        return AppNaming.stackName(domain);
    }

    /**
     * The values the compose files are interpolated with, as abra's deploy builds them: the env file
     * now, then the {@code export}s of the checked-out tree's {@code abra.sh} (they win: a recipe's
     * config versions are the recipe's, not the app's), then {@code STACK_NAME}. Exactly these
     * values, nothing of ccci's own environment.
     *
     * <p>They are the recipe's to choose ({@code DOCKER_HOST=tcp://socket-proxy:2375}, the address of
     * its own sidecar, is an ordinary value), so they are never a process's environment: the compose
     * is interpolated with them in ccci's JVM ({@code ComposeInterpolation}), and a child that is
     * handed them (an approved recipe's install steps) gets none that {@link ChildEnvironment#steersAChild}.
     */
    public Map<String, String> deployEnv() throws IOException {
        Map<String, String> env = new HashMap<>(EnvFile.read(envFile).values());
        env.putAll(AbraSh.exports(recipeDir));
        env.put("STACK_NAME", stack());
        return env;
    }

    /**
     * {@code COMPOSE_FILE} of the env file (colon-separated, relative to the recipe; default
     * {@code compose.yml}), as abra reads it. An empty
     * entry is what {@code COMPOSE_FILE="$COMPOSE_FILE:x.yml"} gives without an earlier
     * {@code COMPOSE_FILE} line, so it is refused with the fix rather than skipped.
     */
    public List<String> composeFiles() throws IOException {
        String value = EnvFile.read(envFile).values().getOrDefault("COMPOSE_FILE", "compose.yml");
        List<String> files = new ArrayList<>();
        for (String entry : value.split(":", -1)) {
            String file = entry.strip();
            if (file.isEmpty()) {
                throw new IOException("COMPOSE_FILE=" + value + " of " + recipe + " has an empty entry: its .env.sample"
                        + " appends to COMPOSE_FILE (\"$COMPOSE_FILE:...\") with no COMPOSE_FILE line before it, or has"
                        + " a doubled ':'; set COMPOSE_FILE=\"compose.yml\" first.");
            }
            if (file.contains(",") || file.contains("\"")) {
                // the docker CLI reads each -c value as comma-separated (CSV, quotes and all): ccci would
                // judge one file where the CLI reads others
                throw new IOException("COMPOSE_FILE entry " + file + " of " + recipe + " has a ',' or '\"', which the"
                        + " docker CLI reads as a list of other files than the one ccci judges; list the files separated"
                        + " by ':' and name no file with a ',' or a '\"'.");
            }
            files.add(file);
        }
        return List.copyOf(files);
    }

    /** The same app, also knowing {@code more} secret values (those the app mounts, read after its deploy). */
    public App withSecrets(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(secretValues);
        more.forEach(all::putIfAbsent);
        return new App(recipe, domain, recipeDir, envFile, Map.copyOf(all));
    }

    @Override
    public String toString() {
        return "App[" + domain + ", stack " + stack() + "]";
    }
}
