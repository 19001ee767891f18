package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COMPOSE_FILE as abra reads it from the env file: chains expanded, every entry a file name. */
class AppTest {

    @TempDir
    Path recipe;

    private App app(String env) throws Exception {
        Path file = recipe.resolve("app.env");
        Files.writeString(file, env);
        return new App("guestbook", "g.example", recipe, file, Map.of());
    }

    @Test
    void composeFileChainsAreTheFilesInOrder() throws Exception {
        assertThat(app("COMPOSE_FILE=\"compose.yml\"\nCOMPOSE_FILE=\"$COMPOSE_FILE:compose.postgres.yml\"\n"
                + "#COMPOSE_FILE=\"$COMPOSE_FILE:compose.smtp.yml\"\n").composeFiles())
                .containsExactly("compose.yml", "compose.postgres.yml");
        assertThat(app("DOMAIN=x\n").composeFiles()).containsExactly("compose.yml");
    }

    @Test
    void anAppendWithNoComposeFileBeforeItIsOneSentenceNamingTheFix() throws Exception {
        App app = app("COMPOSE_FILE=\"$COMPOSE_FILE:compose.postgres.yml\"\n");

        assertThatThrownBy(app::composeFiles).hasMessage("COMPOSE_FILE=:compose.postgres.yml of guestbook has an empty entry:"
                + " its .env.sample appends to COMPOSE_FILE (\"$COMPOSE_FILE:...\") with no COMPOSE_FILE line before it, or"
                + " has a doubled ':'; set COMPOSE_FILE=\"compose.yml\" first.");
    }
}
