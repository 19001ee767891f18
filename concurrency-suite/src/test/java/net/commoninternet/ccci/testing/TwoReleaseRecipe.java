package net.commoninternet.ccci.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A recipe repository of two tagged releases, {@value #BASE} (the upgrade's base) and {@value #HEAD},
 * as a run fetches one: a {@code .env.sample} naming its type and domain, and the compose file
 * {@code composeOf} gives for each release.
 */
public final class TwoReleaseRecipe {

    public static final String BASE = "0.1.0+1.0";
    public static final String HEAD = "0.2.0+1.0";

    private TwoReleaseRecipe() {
    }

    /** The repository {@code dir}/{@code name}; returns its folder. */
    public static Path make(Path dir, String name, UnaryOperator<String> composeOf) throws IOException, InterruptedException {
        Path recipe = Files.createDirectories(dir.resolve(name));
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=" + name + "\nDOMAIN=" + name + ".example.com\n");
        git(recipe, "init", "-q", "-b", "main");
        for (String version : List.of(BASE, HEAD)) {
            Files.writeString(recipe.resolve("compose.yml"), composeOf.apply(version), StandardCharsets.UTF_8);
            git(recipe, "add", "-A");
            git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "commit", "-q", "-m", version);
            git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "tag", "-a", "-m", version, version);
        }
        return recipe;
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (git.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
    }
}
