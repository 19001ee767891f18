package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A recipe's checked-out tree as a boundary: what ccci reads of a recipe (its compose files,
 * {@code .env.sample}, {@code abra.sh}, the files its secrets and configs are made from) is
 * inside the tree, and nothing ccci does follows a link out of it.
 *
 * <p>The tree comes with the pull request under test, so a symbolic link in it is the PR's
 * choice: {@code compose.yml -> /srv/other/compose.yml}, {@code .env.sample -> /etc/shadow},
 * {@code h -> /}. A recipe is its own tree; a link that leaves it has no meaning on another host
 * and is refused, with one sentence, each time the tree is checked out at a ref (before anything
 * reads it). Links that stay inside the tree are fine.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeTree {

    private RecipeTree() {
    }

    /** The file every app's env is made from, at the recipe's root. */
    public static final String ENV_SAMPLE = ".env.sample";

    /**
     * The recipe's {@code .env.sample}, or one sentence: abra makes every app's env from it
     * ({@code abra app new}), so a recipe without one cannot be deployed as abra would, and running it
     * with an empty env would test something no server runs.
     */
    public static Path envSample(String recipe, Path tree) {
        Path sample = tree.resolve(ENV_SAMPLE);
        if (!Files.isRegularFile(sample)) {
            throw new IllegalStateException(recipe + " has no " + ENV_SAMPLE + " at its root, which abra makes every app's env"
                    + " from (abra app new): add one with TYPE=" + recipe + " and the values its compose uses.");
        }
        return sample;
    }

    /**
     * Refuses the tree if any symbolic link in it (its {@code .git} aside, which is git's) points
     * outside it, as written (lexically or absolutely) or where it really leads (followed through
     * every link on the way, as a reader of it would: {@code d -> .} makes {@code d/d/../..} the
     * tree's parent); nothing is read through a link here.
     */
    public static void requireSelfContained(Path tree) throws IOException {
        Path root = tree.toRealPath();
        Optional<String> escape = firstEscape(root);
        if (escape.isPresent()) {
            throw new IllegalStateException(escape.get());
        }
    }

    private static Optional<String> firstEscape(Path root) throws IOException {
        String[] found = new String[1];
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.equals(root.resolve(".git")) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isSymbolicLink()) {
                    Path target = Files.readSymbolicLink(file);
                    if (!file.getParent().resolve(target).normalize().startsWith(root) || !leadsInside(file, root)) {
                        found[0] = root.getFileName() + ": " + root.relativize(file) + " is a symbolic link to " + target
                                + ", outside the recipe: ccci reads a recipe from its own tree only and never follows a"
                                + " link out of it; replace the link by the file itself.";
                        return FileVisitResult.TERMINATE;
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return Optional.ofNullable(found[0]);
    }

    /**
     * Whether the link, followed as a reader of it would (every link on the way, {@code d -> .}
     * included), ends inside the tree: a target that reads as inside can climb out through a link
     * to the tree itself. A link to nothing leads nowhere (nothing of the host is read through it);
     * one that cannot be followed (a loop) is not inside.
     */
    private static boolean leadsInside(Path link, Path root) {
        try {
            return link.toRealPath().startsWith(root);
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The file {@code relative} names in the tree, if it stays inside the tree both as written
     * and once every link is followed; else one sentence naming {@code what} and the fix.
     * {@code relative} may name a file that does not exist yet.
     */
    public static Path inside(Path tree, String relative, String what) throws IOException {
        Path root = tree.toRealPath();
        Path file = root.resolve(relative).normalize();
        Path real = Files.exists(file) ? file.toRealPath() : file;
        if (!file.startsWith(root) || !real.startsWith(root)) {
            throw new IllegalStateException(what + " " + relative + " of " + root.getFileName() + " is outside the recipe ("
                    + real + "): ccci reads a recipe from its own tree only; name a file of the recipe.");
        }
        return file;
    }
}
