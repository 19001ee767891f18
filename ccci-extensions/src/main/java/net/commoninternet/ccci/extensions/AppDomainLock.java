package net.commoninternet.ccci.extensions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-app-domain lock: a real {@code flock(2)} on
 * {@code <lock dir>/cc-ci-app-<domain>.lock}. Held = a live run owns the domain.
 *
 * <p>Invariant: lock lifetime is inside process lifetime. The lock is an exclusive flock on a
 * descriptor only this process holds (close-on-exec, so abra/docker children never carry it);
 * the kernel drops it when the process dies, however it dies. There is deliberately no unlock
 * path, and the descriptor is a plain int that no garbage collector can close.
 *
 * <p>Not {@code FileChannel.lock}: that is an fcntl record lock, invisible to flock and
 * dropped when any descriptor of the file closes in this process.
 */
final class AppDomainLock {

    private static final Logger LOG = LoggerFactory.getLogger(AppDomainLock.class);

    /** flock(2) operations, fixed by the Linux ABI (jnr-constants has no Flock table). */
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;

    static final String PREFIX = "cc-ci-app-";
    static final String SUFFIX = ".lock";

    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** Every descriptor this process locked, kept for the life of the process. */
    private static final Set<Integer> HELD = ConcurrentHashMap.newKeySet();

    private final POSIX posix;
    private final Path path;

    private AppDomainLock(POSIX posix, Path path) {
        this.posix = posix;
        this.path = path;
    }

    static Path path(Path lockDir, String domain) {
        return lockDir.resolve(PREFIX + domain + SUFFIX);
    }

    static POSIX posix() {
        return POSIXFactory.getNativePOSIX();
    }

    /**
     * Blocks until this process holds the domain's lock. Waiting polls the non-blocking form so
     * the waiting thread stays interruptible (a SIGTERM must be able to stop a parked run).
     */
    static AppDomainLock acquire(Path lockDir, String domain) throws IOException, InterruptedException {
        Files.createDirectories(lockDir);
        AppDomainLock lock = new AppDomainLock(posix(), path(lockDir, domain));
        boolean announced = false;
        while (true) {
            int fd = lock.open();
            try {
                if (lock.tryFlock(fd)) {
                    if (lock.sameInodeAsPath(fd)) {
                        HELD.add(fd);
                        fd = -1;
                        lock.touch();
                        return lock;
                    }
                    // Won a lock on an inode the janitor has just unlinked: it protects nothing,
                    // since a later opener gets a fresh inode. Drop it and retry on the live path.
                    LOG.info("== app lock: {} was reaped while we waited — retrying on the live path ==", domain);
                    continue;
                }
                if (!announced) {
                    LOG.info("== app lock: another run of {} is in flight — waiting ==", domain);
                    announced = true;
                }
            } finally {
                if (fd >= 0) {
                    lock.posix.close(fd);
                }
            }
            LockSupport.parkNanos(RETRY_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the app lock of " + domain);
            }
        }
    }

    Path path() {
        return path;
    }

    private int open() throws IOException {
        int flags = OpenFlags.O_RDWR.intValue() | OpenFlags.O_CREAT.intValue() | OpenFlags.O_CLOEXEC.intValue()
                | OpenFlags.O_NOFOLLOW.intValue();
        int fd = posix.open(path.toString(), flags, 0644);
        if (fd < 0) {
            throw new IOException("cannot open app lockfile " + path + ": " + Errno.valueOf(posix.errno())
                    + (posix.errno() == Errno.ELOOP.intValue() ? " (a symbolic link is planted there; remove it)" : ""));
        }
        return fd;
    }

    private boolean tryFlock(int fd) throws IOException {
        if (posix.flock(fd, LOCK_EX | LOCK_NB) == 0) {
            return true;
        }
        int errno = posix.errno();
        if (errno == Errno.EWOULDBLOCK.intValue() || errno == Errno.EAGAIN.intValue()) {
            return false;
        }
        throw new IOException("flock of " + path + " failed: " + Errno.valueOf(errno));
    }

    private boolean sameInodeAsPath(int fd) {
        FileStat locked = posix.fstat(fd);
        FileStat named = posix.allocateStat();
        return posix.lstat(path.toString(), named) == 0 && named.ino() == locked.ino() && named.dev() == locked.dev();
    }

    /** The lock's age feeds the janitor's long-held flag. */
    private void touch() throws IOException {
        Files.setLastModifiedTime(path, FileTime.from(Instant.now()));
    }
}
