package net.commoninternet.ccci.extensions.usage;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitor;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.apiguardian.api.API;

/**
 * The bytes a folder really holds on its file system: the blocks allocated to every file under it
 * ({@code st_blocks}, as {@code du} counts), not their apparent sizes. Under gVisor a container's
 * writable layer is one sparse file ({@code .gvisor.filestore.*}, 1 GiB apparent for a container that
 * wrote 100 MiB, checked on this engine): the engine's own {@code SizeRw} reads the apparent size,
 * which would stop a run for bytes it never wrote. A file linked several times is counted once; a
 * file system mounted below the folder (a secret's tmpfs in a container's folder) is not this disk's
 * and is skipped; a file removed while it is walked is passed over.
 */
@API(status = API.Status.INTERNAL)
public final class DiskUsage {

    private static final POSIX POSIX = POSIXFactory.getNativePOSIX();

    private DiskUsage() {
    }

    /** Bytes allocated under {@code root} on its own file system; 0 if it does not exist. */
    public static long allocated(Path root) throws IOException {
        FileStat top = lstat(root);
        if (top == null) {
            return 0;
        }
        long[] bytes = {0};
        Set<String> linked = new HashSet<>();
        Files.walkFileTree(root, new FileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                FileStat stat = lstat(dir);
                if (stat == null || stat.dev() != top.dev()) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                bytes[0] += stat.blocks() * 512;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                FileStat stat = lstat(file);
                if (stat != null && stat.dev() == top.dev()
                        && (stat.nlink() < 2 || linked.add(stat.dev() + ":" + stat.ino()))) {
                    bytes[0] += stat.blocks() * 512;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
                if (failure instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw failure;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null && !(failure instanceof NoSuchFileException)) {
                    throw failure;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return bytes[0];
    }

    /** The file's own status (a link's, not its target's), or null if it is gone. */
    private static FileStat lstat(Path path) {
        FileStat stat = POSIX.allocateStat();
        return POSIX.lstat(path.toString(), stat) == 0 ? stat : null;
    }
}
