package net.commoninternet.ccci.extensions.recipe;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.io.input.BoundedInputStream;

/**
 * The bundled {@code versions/<version>/} trees as one {@code git fast-import} stream: a commit
 * per version on {@code main}, in version order, each tagged with an annotated tag, with the same
 * author, committer, tagger, dates and messages as {@code git add --all}, {@code git commit} and
 * {@code git tag -a} give them one version after the other, so the commit ids (and so the run
 * domains) are the same, and one git process writes them all instead of three per version.
 * What {@code git add} takes of a tree: regular files (100755 when the owner may execute them,
 * else 100644) and symbolic links as links (120000, never followed); empty folders and other
 * kinds of file are left out. A tree with a {@code .gitignore} or {@code .gitattributes} (which
 * change what {@code git add} takes) is not for this stream: {@link #applies}.
 */
final class VersionImport {

    private VersionImport() {
    }

    /** Whether the trees hold nothing that {@code git add} would read as an instruction. */
    static boolean applies(Path versions) throws IOException {
        try (Stream<Path> all = Files.walk(versions)) {
            return all.map(p -> p.getFileName().toString()).noneMatch(n -> n.equals(".gitignore") || n.equals(".gitattributes"));
        }
    }

    /** Writes the stream for {@code ordered} (in version order) under {@code versions} to {@code out}. */
    static void write(Path versions, List<RecipeVersion> ordered, Path out) throws IOException {
        try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(out))) {
            int day = 1;
            for (RecipeVersion version : ordered) {
                String who = "ccci <ccci@localhost> " + Instant.parse(RecipeFetch.releaseDate(day++)).getEpochSecond() + " +0000";
                String message = "release " + version + "\n";
                line(stream, "commit refs/heads/main");
                line(stream, "author " + who);
                line(stream, "committer " + who);
                data(stream, message.getBytes(StandardCharsets.UTF_8));
                line(stream, "deleteall");
                Path tree = versions.resolve(version.text());
                try (Stream<Path> files = Files.walk(tree)) {
                    for (Path file : files.sorted().toList()) {
                        entry(stream, tree, file);
                    }
                }
                line(stream, "");
                line(stream, "tag " + version.text());
                line(stream, "from refs/heads/main");
                line(stream, "tagger " + who);
                data(stream, message.getBytes(StandardCharsets.UTF_8));
            }
            line(stream, "done");
        }
    }

    private static void entry(OutputStream stream, Path tree, Path file) throws IOException {
        Path relative = tree.relativize(file);
        for (Path segment : relative) {
            if (segment.toString().equals(".git")) {
                return; // git never takes a .git of a tree
            }
        }
        if (Files.isSymbolicLink(file)) {
            line(stream, "M 120000 inline " + quoted(relative.toString()));
            data(stream, Files.readSymbolicLink(file).toString().getBytes(StandardCharsets.UTF_8));
        } else if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            String mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)
                    .contains(PosixFilePermission.OWNER_EXECUTE) ? "100755" : "100644";
            line(stream, "M " + mode + " inline " + quoted(relative.toString()));
            streamed(stream, file);
        }
    }

    /**
     * A file's bytes as fast-import data, streamed (the folder was bounded before, {@link FetchBound}):
     * exactly the size said first, so a file that changes while it is read fails the import here.
     */
    private static void streamed(OutputStream stream, Path file) throws IOException {
        long size = Files.size(file);
        line(stream, "data " + size);
        long copied;
        try (InputStream in = BoundedInputStream.builder().setPath(file).setMaxCount(size).get()) {
            copied = in.transferTo(stream);
        }
        if (copied != size) {
            throw new IOException(file + " changed while it was read for the import: run again.");
        }
        stream.write('\n');
    }

    /** C-style quoting, which fast-import always accepts: quotes, backslashes, control and non-ASCII bytes escaped. */
    static String quoted(String path) {
        StringBuilder quoted = new StringBuilder("\"");
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c == '"' || c == '\\') {
                quoted.append('\\').append((char) c);
            } else if (c < 0x20 || c >= 0x7f) {
                quoted.append(String.format("\\%03o", c));
            } else {
                quoted.append((char) c);
            }
        }
        return quoted.append('"').toString();
    }

    private static void data(OutputStream stream, byte[] content) throws IOException {
        line(stream, "data " + content.length);
        stream.write(content);
        stream.write('\n');
    }

    private static void line(OutputStream stream, String text) throws IOException {
        stream.write(text.getBytes(StandardCharsets.UTF_8));
        stream.write('\n');
    }
}
