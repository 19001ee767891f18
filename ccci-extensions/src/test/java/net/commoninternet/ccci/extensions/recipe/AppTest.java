package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
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

    /**
     * The docker CLI reads each {@code -c} value as a comma-separated list (quotes included), so an
     * entry {@code compose.yml,hidden.yml} would be judged as one file and read by the CLI as two:
     * refused in one sentence before any file is judged or any child started.
     */
    @Test
    void aComposeFileEntryTheCliWouldSplitIsRefused() throws Exception {
        for (String entry : new String[] {"compose.yml,hidden.yml", "compose.yml,/etc/x.yml", "\"a,b\".yml"}) {
            App app = app("COMPOSE_FILE='compose.yml:" + entry + "'\n");

            assertThatThrownBy(app::composeFiles).as(entry).isInstanceOf(IOException.class)
                    .hasMessageContaining("COMPOSE_FILE entry " + entry + " of guestbook has a ',' or '\"'")
                    .hasMessageEndingWith("list the files separated by ':' and name no file with a ',' or a '\"'.");
        }
    }

    /**
     * A name that would steer a child program ({@code DOCKER_HOST}, the address of a recipe's own
     * socket-proxy sidecar; {@code LD_PRELOAD}) is an ordinary value of the app's: it interpolates the
     * compose and is never a process's environment (ComposeConfigTest holds the CLI to that).
     */
    @Test
    void anEnvNameThatWouldSteerAChildIsAValueForTheComposeOnly() throws Exception {
        Files.writeString(recipe.resolve("abra.sh"), "export LD_PRELOAD=/tmp/evil.so\n");
        Map<String, String> env = app("DOMAIN=x\nDOCKER_HOST=tcp://socket-proxy:2375\nGIT_CONFIG_COUNT=1\nDB_HOST=db\n").deployEnv();

        assertThat(env).containsEntry("DOCKER_HOST", "tcp://socket-proxy:2375").containsEntry("LD_PRELOAD", "/tmp/evil.so")
                .containsEntry("GIT_CONFIG_COUNT", "1").containsEntry("DB_HOST", "db").containsKey("STACK_NAME");
    }
}
