package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An image reference in the engine's path: as the engine routes it, and nothing of it a query. */
class ImagePathTest {

    @Test
    void aNameWithRegistryTagAndDigestStaysAsItIs() {
        assertThat(SwarmDriver.imagePath("ccci.local/nginx:1.22")).isEqualTo("ccci.local/nginx:1.22");
        assertThat(SwarmDriver.imagePath("registry.example:5000/org/app@sha256:0a1b"))
                .isEqualTo("registry.example:5000/org/app@sha256:0a1b");
    }

    @Test
    void anythingElseIsEscaped() {
        assertThat(SwarmDriver.imagePath("a b%c&d=e")).isEqualTo("a%20b%25c%26d%3De");
    }
}
