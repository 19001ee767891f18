package net.commoninternet.ccci.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.commoninternet.ccci.testing.LocalImages;

/**
 * The fan-out bench's recipes: {@code fan-01} ... {@code fan-NN}, each a git repository of two
 * tagged releases (the upgrade's base and its head) of one busybox httpd service on {@code proxy},
 * routed by its traefik labels, as the bundled recipes are. All alike but their names, so every
 * run does the same work: install and upgrade.
 */
final class FanoutRecipes {

    private static final String COMPOSE = """
            version: "3.8"
            services:
              app:
                image: IMAGE
                command: ["sh", "-c", "mkdir -p /srv && echo VERSION > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                networks: [proxy]
                deploy:
                  labels:
                    - "traefik.enable=true"
                    - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                    - "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`)"
                    - "coop-cloud.${STACK_NAME}.version=VERSION"
            networks:
              proxy:
                external: true
            """;

    private FanoutRecipes() {
    }

    static String name(int i) {
        return String.format(Locale.ROOT, "fan-%02d", i);
    }

    /** {@code count} recipes under {@code dir}; returns {@code dir}. */
    static Path generate(Path dir, int count) throws IOException, InterruptedException {
        for (int i = 1; i <= count; i++) {
            Path recipe = Files.createDirectories(dir.resolve(name(i)));
            Files.writeString(recipe.resolve(".env.sample"), "TYPE=" + name(i) + "\nDOMAIN=" + name(i) + ".example.com\n");
            git(recipe, "init", "-q", "-b", "main");
            for (String version : List.of("0.1.0+1.0", "0.2.0+1.0")) {
                Files.writeString(recipe.resolve("compose.yml"), COMPOSE.replace("IMAGE", LocalImages.BUSYBOX)
                        .replace("VERSION", version), StandardCharsets.UTF_8);
                git(recipe, "add", "-A");
                git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "commit", "-q", "-m", version);
                git(recipe, "-c", "user.name=ccci", "-c", "user.email=ccci@localhost", "tag", "-a", "-m", version, version);
            }
        }
        return dir;
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
