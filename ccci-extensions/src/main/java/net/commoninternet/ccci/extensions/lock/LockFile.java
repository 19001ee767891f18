package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.nio.file.Path;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.apiguardian.api.API;

/**
 * One open descriptor on an app lockfile and the {@code flock(2)} operations on it, shared by
 * the run's lock and the janitor's probe.
 *
 * <p>Not {@code FileChannel.lock}: that is an fcntl record lock, invisible to flock, and dropped
 * when any descriptor of the file closes in this process. A flock belongs to the open file
 * description: other descriptors opened and closed elsewhere do not release it.
 *
 * <p>Opened close-on-exec (children never inherit it, so a lock's lifetime stays inside this
 * process's) and {@code O_NOFOLLOW} (the lock directory is shared and may be world-writable: a
 * planted symbolic link is refused, never followed). A lockfile that is not ccci's (another
 * owner than this process's user, or not a regular file: a FIFO, a device) is refused loudly,
 * never trusted: whoever owns it can hold it, or replace it, and so fake a live run or a dead one.
 */
@API(status = API.Status.INTERNAL)
public final class LockFile implements AutoCloseable {

    /** flock(2) operations, fixed by the Linux ABI (jnr-constants has no table for them). */
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;

    private static final int OPEN_FLAGS = OpenFlags.O_RDWR.intValue() | OpenFlags.O_CREAT.intValue()
            | OpenFlags.O_CLOEXEC.intValue() | OpenFlags.O_NOFOLLOW.intValue();

    private static final POSIX POSIX = POSIXFactory.getNativePOSIX();

    private final Path path;
    private int fd;

    private LockFile(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /** Opens (creating if absent) the lockfile; an unopenable path is an IOException naming why. */
    public static LockFile open(Path path) throws IOException {
        int fd = POSIX.open(path.toString(), OPEN_FLAGS, 0644);
        if (fd < 0) {
            int errno = POSIX.errno();
            throw new IOException("cannot open lockfile " + path + ": " + Errno.valueOf(errno).description()
                    + (errno == Errno.ELOOP.intValue() ? " (a symbolic link is planted there; remove it)" : ""));
        }
        FileStat stat = POSIX.fstat(fd);
        if (!stat.isFile() || stat.uid() != POSIX.geteuid()) {
            POSIX.close(fd);
            throw new IOException("lockfile " + path + " is not ccci's (" + (stat.isFile() ? "owned by uid " + stat.uid()
                    + ", not " + POSIX.geteuid() : "not a regular file") + "): a lock someone else can hold or replace"
                    + " proves nothing, so ccci does not trust it; remove it (and find out who made it).");
        }
        return new LockFile(path, fd);
    }

    Path path() {
        return path;
    }

    /** {@code LOCK_EX|LOCK_NB}: true if this descriptor now holds the lock, false if another does. */
    public boolean tryLock() throws IOException {
        if (POSIX.flock(fd, LOCK_EX | LOCK_NB) == 0) {
            return true;
        }
        int errno = POSIX.errno();
        if (errno == Errno.EWOULDBLOCK.intValue() || errno == Errno.EAGAIN.intValue()) {
            return false;
        }
        throw new IOException("flock of " + path + " failed: " + Errno.valueOf(errno).description());
    }

    /**
     * {@code LOCK_EX}, waiting for it: for a short critical section shared by the host's processes
     * (a history file's read-then-replace), never for a lock held for a run's lifetime.
     */
    public void lock() throws IOException {
        while (POSIX.flock(fd, LOCK_EX) != 0) {
            int errno = POSIX.errno();
            if (errno != Errno.EINTR.intValue()) {
                throw new IOException("flock of " + path + " failed: " + Errno.valueOf(errno).description());
            }
        }
    }

    /**
     * Whether the locked descriptor is still the file the path names. The janitor unlinks
     * reaped lockfiles: a lock won on an unlinked inode protects nothing, since a later opener
     * of the path gets a fresh inode and "the same" lock.
     */
    public boolean isStillAtPath() {
        FileStat locked = POSIX.fstat(fd);
        FileStat named = POSIX.allocateStat();
        return POSIX.lstat(path.toString(), named) == 0 && named.ino() == locked.ino() && named.dev() == locked.dev();
    }

    /** Seconds since the lockfile was last touched (its acquisition time). */
    long ageSeconds() {
        return Math.max(0, System.currentTimeMillis() / 1000 - POSIX.fstat(fd).mtime());
    }

    /** Marks the acquisition time: lock age feeds the janitor's long-held flag. */
    void touch() {
        long now = System.currentTimeMillis() / 1000;
        POSIX.futimes(fd, new long[] {now, 0}, new long[] {now, 0});
    }

    /** Removes the path; only ever called while holding the lock, after its identity check. */
    void unlink() throws IOException {
        if (POSIX.unlink(path.toString()) != 0 && POSIX.errno() != Errno.ENOENT.intValue()) {
            throw new IOException("cannot unlink " + path + ": " + Errno.valueOf(POSIX.errno()).description());
        }
    }

    /**
     * Keeps the descriptor open beyond this object: the lock is released only by {@link #release}
     * of that descriptor, or by the kernel when the process dies.
     */
    int keep() {
        int kept = fd;
        fd = -1;
        return kept;
    }

    /** Closes a descriptor {@link #keep} kept: the flock on its open file description goes with it. */
    static void release(int keptFd) {
        POSIX.close(keptFd);
    }

    @Override
    public void close() {
        if (fd >= 0) {
            POSIX.close(fd);
            fd = -1;
        }
    }
}
