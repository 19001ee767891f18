package net.commoninternet.ccci.testing;

import java.nio.file.Path;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * Observes real app-lock state from outside the holder, as the janitor will: a non-blocking
 * {@code flock} on a descriptor of our own.
 */
public final class LockProbe {

    /** flock(2) operations, fixed by the Linux ABI. */
    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;

    private LockProbe() {
    }

    /** Whether some process holds the lock (a missing lockfile is not held). */
    public static boolean held(Path lockfile) {
        POSIX posix = POSIXFactory.getNativePOSIX();
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
     * Cleans up after a test's run the way the janitor reaps: only if no live run holds the
     * domain's lock, and while holding it ourselves (so a new run of that domain waits until the
     * reap is done), then unlinks the lockfile if the path still names the inode we locked.
     * A live run's app and lock are never touched.
     *
     * @return whether it reaped (false: a live run owns the domain)
     */
    static boolean reapIfUnheld(Path lockfile, Reap reap) throws Exception {
        POSIX posix = POSIXFactory.getNativePOSIX();
        int fd = posix.open(lockfile.toString(), OpenFlags.O_RDWR.intValue() | OpenFlags.O_CREAT.intValue()
                | OpenFlags.O_CLOEXEC.intValue() | OpenFlags.O_NOFOLLOW.intValue(), 0644);
        if (fd < 0) {
            throw new AssertionError("cannot open " + lockfile + ": " + Errno.valueOf(posix.errno()));
        }
        try {
            if (!tryLock(posix, fd, lockfile)) {
                return false;
            }
            FileStat locked = posix.fstat(fd);
            FileStat named = posix.allocateStat();
            if (posix.lstat(lockfile.toString(), named) != 0 || named.ino() != locked.ino() || named.dev() != locked.dev()) {
                return false;
            }
            reap.run();
            posix.unlink(lockfile.toString());
            return true;
        } finally {
            posix.close(fd);
        }
    }

    @FunctionalInterface
    interface Reap {
        void run() throws Exception;
    }

    private static int open(POSIX posix, Path lockfile) {
        return posix.open(lockfile.toString(), OpenFlags.O_RDWR.intValue() | OpenFlags.O_CLOEXEC.intValue()
                | OpenFlags.O_NOFOLLOW.intValue(), 0);
    }

    private static boolean tryLock(POSIX posix, int fd, Path lockfile) {
        if (posix.flock(fd, LOCK_EX | LOCK_NB) == 0) {
            return true;
        }
        int errno = posix.errno();
        if (errno == Errno.EWOULDBLOCK.intValue() || errno == Errno.EAGAIN.intValue()) {
            return false;
        }
        throw new AssertionError("flock probe of " + lockfile + " failed: " + Errno.valueOf(errno));
    }
}
