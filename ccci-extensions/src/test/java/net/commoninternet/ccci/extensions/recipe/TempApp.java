package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A recipe tree and the app's env file in a temporary directory, as a driver's newApp leaves them (no git, no swarm). */
public final class TempApp {

    private TempApp() {
    }

    public static App create(Path root, String recipe, Map<String, String> secretValues, String... envLines) throws IOException {
        Path recipeDir = Files.createDirectories(root.resolve("recipes").resolve(recipe));
        Files.writeString(recipeDir.resolve("compose.yml"), "services:\n  app:\n    image: nginx:alpine\n");
        String domain = recipe + "-abc123.ci.example.org";
        Path envFile = root.resolve("servers/default/" + domain + ".env");
        Files.createDirectories(envFile.getParent());
        Files.write(envFile, List.of(envLines));
        return new App(recipe, domain, recipeDir, envFile, Map.copyOf(secretValues));
    }
}
