package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RecipeSetupTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipe's symbolic links never take ccci out of the recipe's tree: copies keep a link as a
 * link, a tree whose link leaves it is refused at checkout, and the CI overlay is never written
 * through one. Real files, real git; "the host" is a folder outside the tree with a marker in it.
 */
class RecipeTreeTest {

    @TempDir
    Path dir;

    private Path host;
    private final ChildProcesses children = new ChildProcesses(Map.of());
    private final RecipeFetch fetch = new RecipeFetch(children);

    @BeforeEach
    void hostFolder() throws Exception {
        host = Files.createDirectories(dir.resolve("host"));
        Files.writeString(host.resolve("marker"), "host's own file\n");
    }

    private Path recipe(String name) throws Exception {
        Path source = Files.createDirectories(dir.resolve("source").resolve(name));
        Files.writeString(source.resolve("compose.yml"), "services: {}\n");
        return source;
    }

    @Test
    void aCopyKeepsALinkAsALinkAndNeverCopiesWhatItPointsAt() throws Exception {
        Path source = recipe("linked");
        Files.createSymbolicLink(source.resolve("h"), host);
        Path target = dir.resolve("copy/linked");

        RecipeFetch.copyTree(source, target);

        assertThat(target.resolve("h")).isSymbolicLink();
        assertThat(Files.readSymbolicLink(target.resolve("h"))).isEqualTo(host);
        assertThat(Files.isDirectory(target.resolve("h"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    /**
     * A link's target is judged where it really leads, not as written: with {@code d -> .}, the
     * target {@code d/d/../../host/marker} reads as inside the tree but climbs out of it.
     */
    @Test
    void aLinkThatLeavesTheTreeThroughALinkToItselfIsRefused() throws Exception {
        Path tree = recipe("climbs").toRealPath();
        Files.createSymbolicLink(tree.resolve("d"), Path.of("."));
        Files.createSymbolicLink(tree.resolve(".env.sample"), Path.of("d/d/../../host/marker"));
        assertThat(Files.readString(tree.resolve(".env.sample"))).as("the link reaches the host's file").isEqualTo("host's own file\n");

        assertThatThrownBy(() -> RecipeTree.requireSelfContained(tree)).isInstanceOf(IllegalStateException.class)
                .hasMessage("climbs: .env.sample is a symbolic link to d/d/../../host/marker, outside the recipe: ccci reads a"
                        + " recipe from its own tree only and never follows a link out of it; replace the link by the file itself.");
    }

    @Test
    void aLinkToItselfOrToAFileOfTheTreeThroughOneIsNotRefused() throws Exception {
        Path tree = recipe("inward").toRealPath();
        Files.createSymbolicLink(tree.resolve("d"), Path.of("."));
        Files.createSymbolicLink(tree.resolve("compose.link.yml"), Path.of("d/d/compose.yml"));
        Files.createSymbolicLink(tree.resolve("gone.yml"), Path.of("not-there.yml"));

        assertThatCode(() -> RecipeTree.requireSelfContained(tree)).doesNotThrowAnyException();
    }

    @Test
    void aTreeWithALinkLeavingItIsRefusedAtCheckoutInOneSentence() throws Exception {
        Path source = recipe("escapes");
        Files.delete(source.resolve("compose.yml"));
        Files.writeString(host.resolve("compose.yml"), "services: {}\n");
        Files.createSymbolicLink(source.resolve("compose.yml"), host.resolve("compose.yml"));
        // FileUtils.copyDirectory copied the link's target as a file; the plain recipe is recognised either way
        assertThatThrownBy(() -> fetch.fetch(source, dir.resolve("run/escapes"), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("escapes: compose.yml is a symbolic link to " + host.resolve("compose.yml") + ", outside the"
                        + " recipe: ccci reads a recipe from its own tree only and never follows a link out of it; replace"
                        + " the link by the file itself.");
    }

    @Test
    void aRelativeLinkThatClimbsOutIsRefusedAndOneThatStaysInsideIsFine() throws Exception {
        Path source = recipe("climbs");
        Files.writeString(source.resolve("real.env"), "A=1\n");
        Files.createSymbolicLink(source.resolve("inside.env"), Path.of("real.env"));
        RecipeFetch.Fetched fine = fetch.fetch(source, dir.resolve("run1/climbs"), null);
        assertThat(fine.dir().resolve("inside.env")).isSymbolicLink();

        Files.createSymbolicLink(source.resolve(".env.sample"), Path.of("../../host/marker"));
        assertThatThrownBy(() -> fetch.fetch(source, dir.resolve("run2/climbs"), null))
                .hasMessageStartingWith("climbs: .env.sample is a symbolic link to ../../host/marker, outside the recipe");
    }

    @Test
    void composeFileNamingAFileOutsideTheTreeIsRefused() throws Exception {
        App app = TempApp.create(dir, "outside", Map.of(), "TYPE=outside", "COMPOSE_FILE=compose.yml:../../../host/marker");

        assertThatThrownBy(() -> ComposeConfig.of(app, children)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("COMPOSE_FILE names ../../../host/marker of outside is outside the recipe");
    }

    @Test
    void theCiOverlayIsNeverWrittenThroughALinkTheRecipeShips() throws Exception {
        App app = TempApp.create(dir, "demo", Map.of(), "TYPE=demo");
        Files.createSymbolicLink(app.recipeDir().resolve(".ccci"), host);
        RecipeSetup setup = new RecipeSetup(java.util.Set.of(), Optional.of(new RecipeSetupTest.Overlay()), children);

        assertThatThrownBy(() -> setup.applyOverlays(app)).isInstanceOf(IllegalStateException.class)
                .hasMessage("demo: .ccci is a symbolic link, and ccci writes its CI overlay there: remove it from the"
                        + " recipe (the name is ccci's).");
        assertThat(host).isDirectoryNotContaining("glob:**/compose.customization.yml");

        Files.delete(app.recipeDir().resolve(".ccci"));
        Files.createDirectories(app.recipeDir().resolve(".ccci"));
        Files.createSymbolicLink(app.recipeDir().resolve(RecipeSetup.CUSTOMIZATION_OVERLAY), host.resolve("marker"));
        assertThatThrownBy(() -> setup.applyOverlays(app)).hasMessageStartingWith(
                "demo: .ccci/compose.customization.yml is a symbolic link");
        assertThat(host.resolve("marker")).content().isEqualTo("host's own file\n");
    }
}
