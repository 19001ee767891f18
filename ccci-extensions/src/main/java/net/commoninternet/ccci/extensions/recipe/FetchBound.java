package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apache.commons.io.FileUtils;
import org.apiguardian.api.API;

/**
 * What a fetch of a recipe may write into the run's folder ({@code -Dccci.fetch.max-bytes},
 * {@code -Dccci.fetch.max-files}), judged before it is written.
 *
 * <p>Resource: the file system of the runs folder, which {@code /var/lib/docker} and every run and
 * warm app of the host share. Invariant: a fetch never writes more than {@link #maxBytes} of the
 * recipe's repository, nor a tree at any ref of more than {@link #maxBytes} or {@link #maxFiles},
 * whatever the pull request holds. A repository is measured where it lies before it is cloned (what a
 * local clone copies or links); a tree is measured from git's object headers ({@code git ls-tree -l}
 * reads each blob's size without inflating it) before the checkout inflates it, so a few MiB of
 * packed zeros that would become gigabytes (a zlib bomb) is refused while it is still a few MiB; a
 * folder that is copied is walked (never through a link) before the copy. A checkout may still
 * convert what it writes as the tree's own {@code .gitattributes} ask (line endings, a working-tree
 * encoding): at most four bytes for each one measured.
 *
 * @param maxBytes the most bytes of a repository, and of a tree
 * @param maxFiles the most files (and links) of a tree
 */
@API(status = API.Status.INTERNAL)
public record FetchBound(long maxBytes, long maxFiles) {

    /** The bounds of the keys' defaults (tests and listings that write nothing). */
    public static final FetchBound DEFAULT = of(RunSettings.Bounds.DEFAULT);

    public FetchBound {
        if (maxBytes < 1 || maxFiles < 1) {
            throw new IllegalArgumentException("a fetch's bounds must be positive: " + maxBytes + " bytes, " + maxFiles + " files");
        }
    }

    /** The host's bounds of a run. */
    public static FetchBound of(RunSettings.Bounds bounds) {
        return new FetchBound(bounds.fetchMaxBytes(), bounds.fetchMaxFiles());
    }

    /** Thrown when a fetch would write more than the host's bounds: one sentence naming them and the fix. */
    public static final class TooLarge extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    /** What was counted: files, bytes, and the largest file with its size. */
    private record Count(long files, long bytes, String largest, long largestBytes) {
        Count add(String path, long size) {
            return new Count(files + 1, bytes + size, size > largestBytes ? path : largest, Math.max(size, largestBytes));
        }
    }

    /**
     * The tree {@code git ls-tree -r -l -z} listed (at the commit {@code at} names), judged before it is
     * checked out: its files, and the sum of their sizes as git's object headers give them.
     *
     * @throws TooLarge past a bound
     */
    void requireTree(String listing, String recipe, String at) {
        Count count = new Count(0, 0, null, 0);
        for (String entry : listing.split("\0")) {
            int tab = entry.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String[] fields = entry.substring(0, tab).trim().split(" +");
            // a submodule's entry is a commit with no size ("-"): git never checks one out unasked
            long size = fields.length == 4 && fields[3].matches("[0-9]{1,18}") ? Long.parseLong(fields[3]) : 0;
            count = count.add(entry.substring(tab + 1), size);
        }
        judge(count, recipe, "at " + at + " is refused before its checkout: its tree holds");
    }

    /**
     * A listing of the tree at {@code at} that is itself larger than {@code listingBytes}: more names
     * than any tree within the bound lists.
     */
    TooLarge listingTooLarge(String recipe, String at, int listingBytes) {
        return new TooLarge("the recipe " + recipe + " at " + at + " is refused before its checkout: git's listing of its"
                + " tree is larger than " + FileUtils.byteCountToDisplaySize(listingBytes) + ", more names than " + maxFiles
                + " files (this host's -Dccci.fetch.max-files) have: take what the recipe does not need out of it, or raise"
                + " the bound on this host.");
    }

    /** How many bytes of {@code git ls-tree -r -l -z} output a tree within the bounds may print, at most. */
    int listingBytes() {
        return (int) Math.min(256L << 20, Math.max(4L << 20, maxFiles * 512));
    }

    /**
     * A folder ccci copies or commits as it is (a plain recipe, {@code versions/}, a staged clone's
     * working tree when {@code withoutGit}), walked without following a link before anything of it
     * is written; the walk stops at the first file past a bound.
     */
    void requireFolder(Path folder, boolean withoutGit, String recipe, String what) throws IOException {
        // the walk stops at the first file past a bound: what it counted is the least the folder holds
        judge(walk(folder, withoutGit, true), recipe, "is refused before its copy: " + what + " holds at least");
    }

    /**
     * The recipe's repository ({@code .git}) before it is cloned: a local clone copies (or links) its
     * objects as they are, so their size on disk is what the clone may write.
     */
    void requireRepository(Path gitDir, String recipe) throws IOException {
        // where it really lies: a clone reads through a linked .git, so the walk starts there too
        if (walk(gitDir.toRealPath(), false, false).bytes() > maxBytes) {
            throw new TooLarge("the recipe " + recipe + " is refused before its clone: its repository (.git) holds more than"
                    + " the " + FileUtils.byteCountToDisplaySize(maxBytes) + " a fetch may write on this host"
                    + " (-Dccci.fetch.max-bytes): prune what the repository does not need, or raise the bound on this host.");
        }
    }

    private Count walk(Path folder, boolean withoutGit, boolean countFiles) throws IOException {
        Count[] count = {new Count(0, 0, null, 0)};
        Files.walkFileTree(folder, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return withoutGit && dir.equals(folder.resolve(".git")) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                count[0] = count[0].add(folder.relativize(file).toString(), attrs.isRegularFile() ? attrs.size() : 0);
                // stop at the first file past a bound: a million files need not all be seen to be too many
                return count[0].bytes() > maxBytes || (countFiles && count[0].files() > maxFiles)
                        ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }
        });
        return count[0];
    }

    private void judge(Count count, String recipe, String refused) {
        if (count.bytes() <= maxBytes && count.files() <= maxFiles) {
            return;
        }
        throw new TooLarge("the recipe " + recipe + " " + refused + " " + count.files() + " files, "
                + FileUtils.byteCountToDisplaySize(count.bytes()) + " (the largest " + printable(count.largest()) + ", "
                + FileUtils.byteCountToDisplaySize(count.largestBytes()) + "), more than the "
                + FileUtils.byteCountToDisplaySize(maxBytes) + " and " + maxFiles + " files a fetch may write on this host"
                + " (-Dccci.fetch.max-bytes, -Dccci.fetch.max-files): take what the recipe does not need out of it, or raise"
                + " the bounds on this host.");
    }

    /** A path of the recipe as data in one line: control characters as {@code ?}, at most 200 characters. */
    private static String printable(String path) {
        String text = path == null ? "" : path.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
