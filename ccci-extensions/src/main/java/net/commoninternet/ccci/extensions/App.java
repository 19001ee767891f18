package net.commoninternet.ccci.extensions;

import java.nio.file.Path;
import java.util.Map;

/**
 * A run's app: where its recipe tree and env file are, and the environment its compose
 * files are interpolated with. {@code secretValues} holds the generated secrets, so artifacts
 * can be scanned for them; it is never logged.
 */
record App(String recipe, String domain, String stack, Path recipeDir, Path envFile,
           Map<String, String> deployEnv, Map<String, String> secretValues) {

    @Override
    public String toString() {
        return "App[" + domain + ", stack " + stack + "]";
    }
}
