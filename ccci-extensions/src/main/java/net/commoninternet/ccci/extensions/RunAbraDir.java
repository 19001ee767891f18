package net.commoninternet.ccci.extensions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The per-run ABRA_DIR (spec section 4): {@code <runs dir>/<run id>/abra/} with
 * {@code servers/} and {@code catalogue/} linked to the canonical abra directory and a fresh,
 * empty {@code recipes/}. Two runs of one recipe each get their own recipe tree, so neither
 * can check out a ref under the other; app env files still land in the canonical
 * {@code servers/}, where the janitor and out-of-run tooling see them.
 */
record RunAbraDir(Path root, Path canonical) {

    static RunAbraDir create(Path runDir, Path canonicalAbraDir) throws IOException {
        Path root = runDir.resolve("abra");
        Files.createDirectories(root.resolve("recipes"));
        for (String shared : new String[] {"servers", "catalogue"}) {
            Path target = Files.createDirectories(canonicalAbraDir.resolve(shared));
            Path link = root.resolve(shared);
            if (!Files.isSymbolicLink(link)) {
                Files.createSymbolicLink(link, target);
            }
        }
        return new RunAbraDir(root, canonicalAbraDir);
    }

    Path recipes() {
        return root.resolve("recipes");
    }

    Path servers() {
        return root.resolve("servers");
    }

    Path recipe(String name) {
        return recipes().resolve(name);
    }

    /** Where {@code CCCI_SKIP_FETCH} finds the staged clone: the canonical, shared tree. */
    Path stagedRecipe(String name) {
        return canonical.resolve("recipes").resolve(name);
    }
}
