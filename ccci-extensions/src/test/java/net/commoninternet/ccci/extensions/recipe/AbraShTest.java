package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** abra.sh is read, never run: its top-level exports are deploy values, and they win over the env file. */
class AbraShTest {

    @TempDir
    Path recipe;

    @Test
    void topLevelExportsAreReadAndNothingElse() throws Exception {
        Path marker = recipe.resolve("ran");
        Files.writeString(recipe.resolve("abra.sh"), """
                #!/usr/bin/env bash
                export NGINX_CONF_VERSION=v2
                export ENTRYPOINT_VERSION="v1" # quoted, with a comment
                export APP_CMD_VERSION=v3
                export APP_CMD_VERSION=v4
                touch %s
                export -f some_function
                exportNOT=1
                NOT_EXPORTED=1

                backup() {
                  export INSIDE_A_FUNCTION=1
                }
                """.formatted(marker));

        assertThat(AbraSh.exports(recipe)).isEqualTo(Map.of("NGINX_CONF_VERSION", "v2", "ENTRYPOINT_VERSION", "v1",
                "APP_CMD_VERSION", "v4"));
        assertThat(marker).doesNotExist();
    }

    @Test
    void noAbraShIsNoExports() throws Exception {
        assertThat(AbraSh.exports(recipe)).isEmpty();
    }

    @Test
    void anExportThatIsNotNameEqualsValueIsOneSentence() throws Exception {
        Files.writeString(recipe.resolve("abra.sh"), "export BROKEN=\"unclosed\n");

        assertThatThrownBy(() -> AbraSh.exports(recipe)).isInstanceOf(EnvFileException.class)
                .hasMessage(recipe.resolve("abra.sh") + ": the line \"export BROKEN=\"unclosed\" is not NAME=value: write it"
                        + " as export NAME=value (abra reads these lines, it does not run them).");
    }

    @Test
    void theDeployEnvIsTheEnvFileThenAbraShThenTheStackName() throws Exception {
        Files.writeString(recipe.resolve("abra.sh"), "export NGINX_CONF_VERSION=v2\n");
        Path env = recipe.resolve("app.env");
        Files.writeString(env, "DOMAIN=a.example\nNGINX_CONF_VERSION=v1\nSTACK_NAME=forged\n");
        App app = new App("r", "a.example", recipe, env, Map.of());

        assertThat(app.deployEnv()).isEqualTo(Map.of("DOMAIN", "a.example", "NGINX_CONF_VERSION", "v2",
                "STACK_NAME", "a_example"));
    }
}
