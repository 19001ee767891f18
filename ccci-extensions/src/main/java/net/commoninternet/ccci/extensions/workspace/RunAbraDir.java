package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.apache.commons.io.FileUtils;
import org.apiguardian.api.API;

/**
 * The per-run ABRA_DIR (spec section 4): {@code <runs dir>/<run id>/abra/} with
 * {@code servers/} and {@code catalogue/} linked to the canonical abra directory and a fresh,
 * empty {@code recipes/}. Two runs of one recipe each get their own recipe tree, so neither
 * can check out a ref under the other; app env files still land in the canonical
 * {@code servers/}, where the janitor and out-of-run tooling see them.
 */
@API(status = API.Status.INTERNAL)
public record RunAbraDir(Path root, Path canonical) {

    /** The abra server every run app lives on: the local swarm, {@code servers/default/}. */
    public static final String SERVER = "default";

    /**
     * Builds the tree. {@code recipes/} always starts empty: a folder left by an earlier run with
     * the same id (a reused {@code -Dccci.run-id}) would otherwise be fetched on top of. Run ids
     * are unique among live runs (Drone build numbers, {@code manual-<pid>}), so no live run
     * owns what is removed here.
     */
    public static RunAbraDir create(Path runDir, Path canonicalAbraDir) throws IOException {
        Path root = runDir.resolve("abra");
        if (Files.isDirectory(root.resolve("recipes"), LinkOption.NOFOLLOW_LINKS)) {
            FileUtils.deleteDirectory(root.resolve("recipes").toFile());
        }
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

    /** The app's env file, {@code servers/default/<domain>.env}, where abra keeps it. */
    public Path envFile(String domain) {
        return servers().resolve(SERVER).resolve(domain + ".env");
    }

    /** The canonical {@code servers/}, shared by every run and by out-of-run tooling. */
    public Path canonicalServers() {
        return canonical.resolve("servers");
    }

    Path recipes() {
        return root.resolve("recipes");
    }

    public Path servers() {
        return root.resolve("servers");
    }

    public Path recipe(String name) {
        return recipes().resolve(name);
    }

    /** Where {@code CCCI_SKIP_FETCH} finds the staged clone: the canonical, shared tree. */
    public Path stagedRecipe(String name) {
        return canonical.resolve("recipes").resolve(name);
    }
}
