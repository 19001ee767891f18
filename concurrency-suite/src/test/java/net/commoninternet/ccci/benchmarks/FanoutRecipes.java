package net.commoninternet.ccci.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.TwoReleaseRecipe;

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
            TwoReleaseRecipe.make(dir, name(i), version -> COMPOSE.replace("IMAGE", LocalImages.BUSYBOX).replace("VERSION", version));
        }
        return dir;
    }
}
