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

    @Test
    void anEnvNameThatWouldSteerCccisOwnChildrenIsRefusedBeforeAnyChildGetsIt() throws Exception {
        for (String name : new String[] {"LD_PRELOAD", "DOCKER_HOST", "PATH", "GIT_CONFIG_COUNT", "HOME"}) {
            App app = app("DOMAIN=x\n" + name + "=/tmp/evil\n");

            assertThatThrownBy(app::deployEnv).as(name).isInstanceOf(IllegalStateException.class).hasMessage("guestbook:"
                    + " the app's env (its .env.sample, EXTRA_ENV or a hook) sets " + name + ", which would change how"
                    + " ccci's own docker CLI and git run, not the app (a recipe's environment only feeds its compose"
                    + " files): remove it from .env.sample, or rename it there and in the compose file.");
        }
        assertThat(app("DOMAIN=x\nDB_HOST=db\n").deployEnv()).containsEntry("DB_HOST", "db").containsKey("STACK_NAME");
    }

    @Test
    void anAbraShExportThatWouldSteerAChildIsRefusedToo() throws Exception {
        Files.writeString(recipe.resolve("abra.sh"), "export LD_PRELOAD=/tmp/evil.so\n");

        assertThatThrownBy(app("DOMAIN=x\n")::deployEnv).hasMessageStartingWith("guestbook: the recipe's abra.sh sets"
                + " LD_PRELOAD");
    }
}
