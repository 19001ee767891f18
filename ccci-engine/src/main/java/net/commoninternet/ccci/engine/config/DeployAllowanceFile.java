package net.commoninternet.ccci.engine.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The host file form of the deploy allowance ({@link Constants#DEPLOY_ALLOWANCE_FILE}, by default
 * {@value Constants#DEFAULT_DEPLOY_ALLOWANCE_FILE}): one {@code <recipe>:<key>[=<value>]} per line,
 * {@code #} comments and blank lines ignored.
 *
 * <p>It escalates what a recipe may do to the host, so it is read only if the host's root alone
 * can have written it: a regular file (never a link, which is not followed), owned by root and not
 * group- or world-writable, in a folder that is root's and not group- or world-writable either (so
 * nobody else can swap the file between this check and the read). Anything else is refused in one
 * sentence, never read. Its path comes from the configuration parameters only, never from the
 * environment or the recipe.
 */
final class DeployAllowanceFile {

    /** One entry as written and where: {@code /etc/ccci/deploy-allowance line 3}. */
    record Line(String entry, String where) {
    }

    private DeployAllowanceFile() {
    }

    /**
     * The file's entries; none if it is absent and was not named explicitly; else {@code problems}
     * gets the one sentence that says why it is not read.
     */
    static List<Line> read(Path file, boolean named, List<String> problems) {
        Optional<String> untrusted;
        try {
            untrusted = untrusted(file, Kind.FILE).or(() -> untrustedFolder(file.toAbsolutePath().getParent()));
        } catch (NoSuchFileException absent) {
            if (named) {
                problems.add(Constants.DEPLOY_ALLOWANCE_FILE + "=" + file + " does not exist: create it (root's, mode 0644"
                        + " or stricter) or leave the key out.");
            }
            return List.of();
        } catch (IOException e) {
            problems.add("the deploy allowance file " + file + " cannot be read (" + e.getMessage() + "): fix it or remove it.");
            return List.of();
        }
        if (untrusted.isPresent()) {
            problems.add("the deploy allowance file " + file + " is refused, not read: " + untrusted.get()
                    + "; it must be a regular file owned by root and writable by root alone, in a folder of root's"
                    + " (chown root:root, chmod go-w).");
            return List.of();
        }
        List<Line> lines = new ArrayList<>();
        try {
            List<String> text = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < text.size(); i++) {
                String line = text.get(i).strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    lines.add(new Line(line, file + " line " + (i + 1)));
                }
            }
        } catch (IOException e) {
            problems.add("the deploy allowance file " + file + " cannot be read (" + e.getMessage() + "): fix it or remove it.");
        }
        return lines;
    }

    private static Optional<String> untrustedFolder(Path folder) {
        try {
            return folder == null ? Optional.empty() : untrusted(folder, Kind.FOLDER);
        } catch (IOException e) {
            return Optional.of("its folder cannot be checked (" + e.getMessage() + ")");
        }
    }

    /** Why {@code path} (a file or a folder, links never followed) is not root's alone, if it is not. */
    /** What is checked: the file, or the folder that holds it. */
    private enum Kind {
        FILE, FOLDER;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static Optional<String> untrusted(Path path, Kind kind) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        boolean folder = kind == Kind.FOLDER;
        if (folder ? !attributes.isDirectory() : !attributes.isRegularFile()) {
            return Optional.of(path + (attributes.isSymbolicLink() ? " is a symbolic link" : " is not a regular " + kind));
        }
        Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (!Integer.valueOf(0).equals(uid)) {
            return Optional.of("the " + kind + " " + path + " is owned by uid " + uid + ", not root");
        }
        if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)) {
            return Optional.of("the " + kind + " " + path + " is group-writable");
        }
        if (attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of("the " + kind + " " + path + " is world-writable");
        }
        return Optional.empty();
    }
}
