package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lint.LintedRecipe;
import net.commoninternet.ccci.extensions.results.RunResults.Rung;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's scores against what a run saw, on the lint tests' fixture recipe. */
class ReadmeScoresTest {

    @TempDir
    Path recipe;

    private static Map<Rung, Verdict> rungs(Verdict backup, Verdict functional) {
        Map<Rung, Verdict> rungs = new EnumMap<>(Rung.class);
        rungs.put(Rung.INSTALL, Verdict.PASS);
        rungs.put(Rung.UPGRADE, Verdict.PASS);
        rungs.put(Rung.BACKUP_RESTORE, backup);
        rungs.put(Rung.FUNCTIONAL, functional);
        rungs.put(Rung.LINT, Verdict.PASS);
        return rungs;
    }

    private void fixture(String from, String to) throws Exception {
        try (var files = Files.walk(Path.of("src/test/resources/lint/clean"))) {
            for (Path file : files.toList()) {
                Path target = recipe.resolve(Path.of("src/test/resources/lint/clean").relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        Files.writeString(recipe.resolve("README.md"), Files.readString(recipe.resolve("README.md")).replace(from, to));
    }

    @Test
    void aScoreTheRunDidNotShowIsAFindingAndTheSupportedScoresAreSuggested() throws Exception {
        fixture("* **Backups**: No", "* **Backups**: Yes");

        var scores = ReadmeScores.of(LintedRecipe.read(recipe), rungs(Verdict.SKIP, Verdict.PASS));

        assertThat(scores).extracting(s -> s.key() + " | " + s.says() + " | " + s.supported() + " | " + s.finding().orElse("-"))
                .containsExactly("Healthcheck | Yes | Yes | -",
                        "Backups | Yes | No (the backup and restore rung reads skip) | README.md says Backups: Yes, and the backup"
                                + " and restore rung reads skip",
                        "Tests | No | Yes (the functional rung passed) | -");
    }

    @Test
    void healthcheckYesWithNoHealthcheckIsAFinding() throws Exception {
        fixture("* **Healthcheck**: Yes", "* **Healthcheck**: Yes");
        Files.writeString(recipe.resolve("compose.yml"), Files.readString(recipe.resolve("compose.yml"))
                .replace("    healthcheck:\n      test: [\"CMD\", \"true\"]\n", "")
                .replace("    healthcheck:\n      test: [\"CMD\", \"pg_isready\"]\n", ""));

        var scores = ReadmeScores.of(LintedRecipe.read(recipe), rungs(Verdict.PASS, Verdict.PASS));

        assertThat(scores.get(0).finding()).isEqualTo(Optional.of("README.md says Healthcheck: Yes, and no service of the recipe"
                + " has a healthcheck"));
        assertThat(scores.get(0).supported()).isEqualTo("No");
    }
}
