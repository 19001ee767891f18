package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.extensions.driver.swarm.RecipeLint;
import net.commoninternet.ccci.extensions.lint.CcciRules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file ccci reads whole from a recipe is read within a bound: a 3 GiB file (sparse, so the test
 * writes nothing) as the recipe's {@code .env.sample}, its {@code abra.sh} or its {@code compose.yml}
 * for lint is refused in one sentence, where a whole read of it threw {@code OutOfMemoryError} in
 * ccci's JVM ({@code Files.readAllBytes}: "Required array size too large").
 */
class BoundedReadTest {

    @TempDir
    Path recipe;

    private Path huge(String name) throws Exception {
        Path file = recipe.resolve(name);
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }
        return file;
    }

    @Test
    void aRecipesEnvSampleOrAbraShOfGibibytesIsRefusedUnreadInOneSentence() throws Exception {
        Path sample = huge(".env.sample");
        assertThatThrownBy(() -> EnvFile.read(sample)).isInstanceOf(BoundedRead.TooLarge.class)
                .hasMessage(sample + " is larger than 1 MB, the most ccci reads of it (a recipe's file is read whole or not"
                        + " at all): shrink it.");

        huge("abra.sh");
        assertThatThrownBy(() -> AbraSh.exports(recipe)).isInstanceOf(BoundedRead.TooLarge.class)
                .hasMessageContaining("abra.sh is larger than 1 MB");
    }

    @Test
    void aComposeFileOfGibibytesIsALintFindingNotAnOutOfMemoryError() throws Exception {
        huge("compose.yml");
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=x\n");

        assertThat(RecipeLint.lint(recipe, Optional.empty(), List.of()).get(CcciRules.COMPOSE_PARSES).reason())
                .contains("compose.yml is larger than 4 MB");
    }

    @Test
    void aFileAtItsBoundIsReadWholeAndOneByteMoreIsNot() throws Exception {
        Path file = Files.write(recipe.resolve("f"), new byte[1024]);
        assertThat(BoundedRead.bytes(file, 1024, "shrink it")).hasSize(1024);
        assertThatThrownBy(() -> BoundedRead.bytes(file, 1023, "shrink it")).isInstanceOf(BoundedRead.TooLarge.class);
    }
}
