package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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

    /** The environment the compose files are interpolated with: the env file now, plus {@code STACK_NAME}. */
    public Map<String, String> deployEnv() throws IOException {
        Map<String, String> env = new HashMap<>(AppEnv.read(envFile).values());
        env.put("STACK_NAME", stack());
        return env;
    }

    /** The same app, also knowing {@code more} secret values (those the app mounts, read after its deploy). */
    public App withSecrets(Map<String, String> more) {
        Map<String, String> all = new java.util.LinkedHashMap<>(secretValues);
        more.forEach(all::putIfAbsent);
        return new App(recipe, domain, recipeDir, envFile, Map.copyOf(all));
    }

    @Override
    public String toString() {
        return "App[" + domain + ", stack " + stack() + "]";
    }
}
