package net.commoninternet.ccci.extensions;

import java.nio.file.Path;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.FileStat;
import jnr.posix.POSIX;

/**
 * Observes real app-lock state from outside the holder, as the janitor will: a non-blocking
 * {@code flock} on a descriptor of our own. Never creates a lockfile.
 */
final class LockProbe {

    private LockProbe() {
    }

    /** Whether some process holds the lock (a missing lockfile is not held). */
    static boolean held(Path lockfile) {
        POSIX posix = AppDomainLock.posix();
        int fd = open(posix, lockfile);
        if (fd < 0) {
            return false;
        }
        try {
            return !tryLock(posix, fd, lockfile);
        } finally {
            posix.close(fd);
        }
    }

    /**
     * Removes a lockfile our tests left, only if nobody holds it, under our own lock and only if
     * the path still names the inode we locked (the janitor's tidy rule), so a live run's lock is
     * never touched.
     */
    static void removeUnheld(Path lockfile) {
        POSIX posix = AppDomainLock.posix();
        int fd = open(posix, lockfile);
        if (fd < 0) {
            return;
        }
        try {
            if (tryLock(posix, fd, lockfile)) {
                FileStat locked = posix.fstat(fd);
                FileStat named = posix.allocateStat();
                if (posix.lstat(lockfile.toString(), named) == 0 && named.ino() == locked.ino()
                        && named.dev() == locked.dev()) {
                    posix.unlink(lockfile.toString());
                }
            }
        } finally {
            posix.close(fd);
        }
    }

    private static int open(POSIX posix, Path lockfile) {
        return posix.open(lockfile.toString(), OpenFlags.O_RDWR.intValue() | OpenFlags.O_CLOEXEC.intValue()
                | OpenFlags.O_NOFOLLOW.intValue(), 0);
    }

    private static boolean tryLock(POSIX posix, int fd, Path lockfile) {
        if (posix.flock(fd, AppDomainLock.LOCK_EX | AppDomainLock.LOCK_NB) == 0) {
            return true;
        }
        int errno = posix.errno();
        if (errno == Errno.EWOULDBLOCK.intValue() || errno == Errno.EAGAIN.intValue()) {
            return false;
        }
        throw new AssertionError("flock probe of " + lockfile + " failed: " + Errno.valueOf(errno));
    }
}
