package net.commoninternet.ccci.extensions.workspace;

import com.google.common.hash.Hashing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The recipe repository's own CI code ({@code compose.ccci.yml}, {@code install_steps.sh}) as one
 * digest, what an operator's approval binds to: {@code sha256:} and the SHA-256 of the lines
 * {@code sha256sum} prints for the files present, in that order, so an operator computes the same
 * from a checkout: {@code sha256sum compose.ccci.yml install_steps.sh 2>/dev/null | sha256sum}. Each
 * file is read streamed (Guava's hashing), never whole; the tree's links were checked at checkout
 * (they stay inside it), and are followed as {@code sha256sum} follows them.
 */
final class RecipeCode {

    /** The files, in the order the digest lists them. */
    static final List<String> FILES = List.of(RecipeSetup.RECIPE_OVERLAY, RecipeSetup.INSTALL_STEPS);

    private RecipeCode() {
    }

    /** Which of {@link #FILES} the tree has. */
    static List<String> present(Path tree) {
        return FILES.stream().filter(f -> Files.isRegularFile(tree.resolve(f))).toList();
    }

    /** {@code sha256:<hex>} of the tree's CI code, as the operator's command computes it. */
    static String digest(Path tree) throws IOException {
        StringBuilder listing = new StringBuilder();
        for (String file : present(tree)) {
            listing.append(com.google.common.io.Files.asByteSource(tree.resolve(file).toFile()).hash(Hashing.sha256()))
                    .append("  ").append(file).append('\n');
        }
        return "sha256:" + Hashing.sha256().hashString(listing, StandardCharsets.UTF_8);
    }
}
