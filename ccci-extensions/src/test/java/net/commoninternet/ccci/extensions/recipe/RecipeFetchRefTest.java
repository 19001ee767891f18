package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ref under test that git cannot resolve is one sentence naming the fix, never git's own error; real git. */
class RecipeFetchRefTest {

    @TempDir
    Path dir;

    private final RecipeFetch fetch = new RecipeFetch(new ChildProcesses(Map.of()));

    private Path plainRecipe() throws IOException {
        Path source = Files.createDirectories(dir.resolve("source/plainsite"));
        Files.writeString(source.resolve("compose.yml"), "version: \"3.8\"\nservices: {}\n", StandardCharsets.UTF_8);
        return source;
    }

    @Test
    void aRefGitCannotResolveIsOneSentenceNamingTheFix() throws Exception {
        Path source = plainRecipe();
        for (String ref : new String[] {"no-such-branch", "0123456789abcdef0123456789abcdef01234567",
                "--pathspec-from-file=/etc/hostname"}) {
            Path target = dir.resolve("run-" + Math.abs(ref.hashCode()) + "/plainsite");
            assertThatThrownBy(() -> fetch.fetch(source, target, ref)).as(ref)
                    .isInstanceOf(IOException.class)
                    .hasMessage("ref '" + ref + "' is not a commit, branch or tag of the recipe in plainsite (git cannot"
                            + " resolve it): pass -Dccci.ref=<a commit id, branch or tag of the recipe's repository>, or"
                            + " leave it out to test the recipe's HEAD.");
        }
    }

    @Test
    void aRefGitResolvesIsCheckedOutByItsCommit() throws Exception {
        Path source = plainRecipe();
        RecipeFetch.Fetched head = fetch.fetch(source, dir.resolve("a/plainsite"), null);

        RecipeFetch.Fetched again = fetch.fetch(source, dir.resolve("b/plainsite"), head.commit().substring(0, 10));

        assertThat(again.commit()).isEqualTo(head.commit());
    }
}
