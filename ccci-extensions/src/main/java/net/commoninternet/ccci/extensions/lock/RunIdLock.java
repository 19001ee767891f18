package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * One run id, one live run. Resource: a run's folder, {@code <runs dir>/<run id>/} (its ABRA_DIR,
 * recipe tree, state files, run.log, results). Invariant: no two live runs ever share it; a
 * second run given a live run's id refuses at once, before it writes anything there (it would
 * empty the live run's recipe tree and append to its run.log), while the folder of a run that
 * has ended may be reused. Scope: the host, like the app lock: an exclusive {@code flock(2)} on
 * {@code <run folder>/run.lock} (close-on-exec, no symlink followed), held until the process dies
 * and released by the kernel however it dies. Linearization point: the {@code LOCK_NB}
 * acquisition, taken before anything of the run is written to the folder.
 *
 * <table>
 *   <caption>races</caption>
 *   <tr><th>A</th><th>B</th><th>outcome</th></tr>
 *   <tr><td>run 1 holds id X</td><td>run 2 starts with id X</td><td>run 2 refuses, nothing of run 1 touched</td></tr>
 *   <tr><td>run 1 with id X was killed</td><td>run 2 starts with id X</td><td>the kernel released the lock: run 2
 *       takes the folder</td></tr>
 *   <tr><td>two runs start with id X at once</td><td></td><td>flock admits one; the other refuses</td></tr>
 * </table>
 * The lockfile is never unlinked (unlike app lockfiles), so there is no stale-inode case: the
 * folder's retention removes it with the folder, when no run uses the id.
 *
 * <p>A failed run whose app is kept ({@code keep.KeepOnFailure}) hands its keeper this lock's
 * descriptor with the app's: the run goes on, as far as its folder is concerned, until its keep ends
 * (the keeper runs from {@code keep/} in the folder, and a maintainer reads the run's report and
 * logs there meanwhile), and a run given its id refuses until then.
 */
@API(status = API.Status.INTERNAL)
public final class RunIdLock {

    static final String FILE = "run.lock";

    /** Descriptors held for the life of the process, by run folder: no garbage collector can close them. */
    private static final Map<Path, Integer> HELD = new ConcurrentHashMap<>();

    /** Where a kept app's end command lies in its run's folder ({@code keep.KeeperFiles}): named in a refusal. */
    private static final Path KEEP_END = Path.of("keep", "end");

    private RunIdLock() {
    }

    /**
     * Takes the run folder for this process, creating it if needed.
     *
     * @throws IllegalStateException naming the fix, when a live run holds the id
     */
    public static void acquire(Path runDir, String runId) throws IOException {
        if (Files.exists(runDir) && !Files.isDirectory(runDir)) {
            throw new IllegalStateException("the run folder " + runDir + " is a file, not a folder: remove it, or give this"
                    + " run its own -Dccci.run-id.");
        }
        Files.createDirectories(runDir);
        // the run's evidence (logs, env copies, results) is root's alone: 0700, whoever made the folder first
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwx------"));
        try (LockFile file = LockFile.open(runDir.resolve(FILE))) {
            if (!file.tryLock()) {
                Path end = runDir.resolve(KEEP_END);
                throw new IllegalStateException("run id " + runId + " belongs to a live run (its folder " + runDir
                        + " is locked by another process): give this run an id of its own with -Dccci.run-id=<id>"
                        + " (a Drone build number is unique), or wait for that run to end"
                        + (Files.exists(end) ? " (its failed app may still be kept: `sh " + end + "` ends the keep now)" : "")
                        + ".");
            }
            HELD.put(runDir.toAbsolutePath().normalize(), file.keep());
        }
    }

    /**
     * The descriptor this process holds the lock of {@code runDir} on, if it took it ({@link #acquire}):
     * what a keeper inherits, so the lock never is free between the run and its keeper.
     */
    public static OptionalInt descriptor(Path runDir) {
        Integer fd = HELD.get(runDir.toAbsolutePath().normalize());
        return fd == null ? OptionalInt.empty() : OptionalInt.of(fd);
    }

    /**
     * Every file of the run folder 0600 and every folder 0700 (what it holds is root's alone: env
     * copies, logs, results). The folder itself is 0700 from its start, so nothing in it was ever
     * reachable by another user; this also keeps the files private once an artifact step copies the
     * folder as it is. A symbolic link (a recipe tree keeps its links as links) is never followed:
     * its target is not the run's. Best effort: a file that cannot be changed is left as it is.
     */
    public static void keepPrivate(Path runDir) {
        try (Stream<Path> paths = Files.walk(runDir)) {
            paths.forEach(path -> {
                try {
                    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                        Files.setPosixFilePermissions(path, PRIVATE_FOLDER);
                    } else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                        Files.setPosixFilePermissions(path, PRIVATE_FILE);
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // gone since the walk saw it, or not ours to change: the folder's 0700 still holds
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // the folder is gone or unreadable (a full disk does not stop it being 0700)
        }
    }

    private static final Set<PosixFilePermission> PRIVATE_FILE =
            PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> PRIVATE_FOLDER =
            PosixFilePermissions.fromString("rwx------");
}
