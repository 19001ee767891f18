package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-app-domain lock (spec section 5): an exclusive flock on
 * {@code <lock dir>/cc-ci-app-<domain>.lock}. Held = a live run owns the domain.
 *
 * <p>Invariant: lock lifetime is inside run lifetime, inside process lifetime. The descriptor is
 * a plain int (no garbage collector can close it); the run that took it releases it once its
 * teardown is over ({@link Held#release}), since a JVM may run several recipes one after another
 * and a finished run is no live owner; the kernel drops it when the process dies first, however it
 * dies. Released or not, a clean run's unheld lockfile is unlinked by the next janitor sweep; a
 * teardown that left something behind is reaped by it.
 *
 * <p>Taken before the app is created, so a janitor never sees a run app without its held lock.
 */
@API(status = API.Status.INTERNAL)
public final class AppDomainLock {

    private static final Logger LOG = LoggerFactory.getLogger(AppDomainLock.class);

    static final String PREFIX = "cc-ci-app-";
    static final String SUFFIX = ".lock";

    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long KEEP_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Every descriptor this process holds locked, reachable until its run releases it. */
    private static final Set<Integer> HELD = ConcurrentHashMap.newKeySet();

    /** A domain's lock this process holds. */
    public static final class Held {
        private final Path path;
        private final int fd;
        /** Once per handle: a descriptor number a later lock reuses must never be closed by a stale handle. */
        private final AtomicBoolean released = new AtomicBoolean();

        private Held(Path path, int fd) {
            this.path = path;
            this.fd = fd;
        }

        public Path path() {
            return path;
        }

        /**
         * The locked descriptor, for a keeper to inherit (its open file description, hence the flock
         * itself: {@code keep} package). Valid until {@link #release}.
         */
        public int descriptor() {
            return fd;
        }

        /** The run that took it is over (its teardown done): nobody live owns the domain now. Idempotent. */
        public void release() {
            if (released.compareAndSet(false, true) && HELD.remove(fd)) {
                LockFile.release(fd);
            }
        }
    }

    private AppDomainLock() {
    }

    public static Path path(Path lockDir, String domain) {
        return lockDir.resolve(PREFIX + domain + SUFFIX);
    }

    /**
     * Blocks until this process holds the domain's lock; returns it, to release at the run's end. Waiting
     * polls the non-blocking form so the waiting thread stays interruptible (a SIGTERM must be
     * able to stop a parked run); flock grants no FIFO order either way.
     */
    public static Held acquire(Path lockDir, String domain) throws IOException, InterruptedException {
        Files.createDirectories(lockDir);
        Path path = path(lockDir, domain);
        boolean announced = false;
        boolean keepEnded = false;
        long nextKeepCheck = 0;
        while (true) {
            try (LockFile file = LockFile.open(path)) {
                if (file.tryLock()) {
                    if (file.isStillAtPath()) {
                        file.touch();
                        int fd = file.keep();
                        HELD.add(fd);
                        // a keeper holds the lock while it keeps; held by us, any record left is a dead keeper's
                        KeepRecord.remove(lockDir, domain);
                        return new Held(path, fd);
                    }
                    LOG.info("== app lock: {} was reaped while we waited — retrying on the live path ==", domain);
                    continue;
                }
            }
            if (!announced) {
                LOG.info("== app lock: another run of {} is in flight — waiting ==", domain);
                announced = true;
            }
            // A kept app (a failed run's, handed to its keeper) ends for a new run of its domain: once a keeper.
            if (!keepEnded && System.nanoTime() - nextKeepCheck >= 0) {
                keepEnded = KeepRecord.endKeepFor(lockDir, domain);
                nextKeepCheck = System.nanoTime() + KEEP_CHECK_NANOS;
            }
            LockSupport.parkNanos(RETRY_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the app lock of " + domain);
            }
        }
    }
}
