package net.commoninternet.ccci.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the concurrency suite's parallel forks share, and who may use it when: every test class
 * holds the engine SHARED while it runs; a test that stops the engine ({@link AloneOnTheEngine} on
 * the method, or on a class for all its methods) holds it EXCLUSIVELY for its own span, so no test
 * of any fork runs meanwhile; a class on the multi-node test bed ({@link OnTheTestBed}: one bed,
 * brought up and down by each class) holds the bed exclusively.
 *
 * <p>Resource: the shared Docker engine and the test bed, across the forks of one build. Scope: the
 * host (kernel {@code flock(2)}s on files in the module's {@code target/}, released by the kernel
 * when a fork dies). Linearization point: the flock on {@code engine.lock}. A test waiting for the
 * engine alone holds the turnstile while it waits, and every class passes the turnstile before it
 * takes the engine shared: so the forks' back-to-back classes cannot keep an exclusive test waiting
 * forever. A fork holds one engine lock at a time: its class's shared one is let go before its
 * exclusive test takes the engine alone, and taken again after (the test's own {@code @AfterEach},
 * which may start the engine again, runs inside). Lock order: turnstile, engine, bed; the turnstile
 * is let go once the engine is held. Registered for every class of the suite
 * (junit-platform.properties: extension autodetection); a class's locks are released when its
 * class context closes (the store closes what it holds).
 */
public final class ForkShares implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {

    /** The test (or every test of the class) stops or restarts the shared engine: no other test of any fork runs meanwhile. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface AloneOnTheEngine {
    }

    /** The class brings the multi-node test bed up and down: one such class at a time across the forks. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    public @interface OnTheTestBed {
    }

    private static final Path DIR = Path.of("target/ccci-fork-shares");
    /** flock(2) operations, fixed by the Linux ABI. */
    private static final int LOCK_SH = 1;
    private static final int LOCK_EX = 2;
    private static final ExtensionContext.Namespace SHARES = ExtensionContext.Namespace.create(ForkShares.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Class<?> test = context.getRequiredTestClass();
        if (test.isAnnotationPresent(Nested.class)) {
            return; // its enclosing class holds what it needs
        }
        Files.createDirectories(DIR);
        ExtensionContext.Store store = context.getStore(SHARES);
        // the bed before the engine: a class waiting for the bed holds nothing another class of the bed may
        // wait for (one of the bed's tests holds the engine alone for its span)
        if (test.isAnnotationPresent(OnTheTestBed.class)) {
            store.put("bed", Flock.take(DIR.resolve("test-bed.lock"), LOCK_EX));
        }
        store.put("engine", new EngineHold(test.isAnnotationPresent(AloneOnTheEngine.class) ? LOCK_EX : LOCK_SH));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().isAnnotationPresent(AloneOnTheEngine.class)) {
            hold(context).take(LOCK_EX);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().isAnnotationPresent(AloneOnTheEngine.class)) {
            hold(context).take(context.getRequiredTestClass().isAnnotationPresent(AloneOnTheEngine.class) ? LOCK_EX : LOCK_SH);
        }
    }

    private static EngineHold hold(ExtensionContext context) {
        return context.getStore(SHARES).get("engine", EngineHold.class);
    }

    /** The class's lock on the engine, shared or exclusive; the one engine lock of its fork. */
    private static final class EngineHold implements AutoCloseable {
        private Flock held;
        private int mode;

        EngineHold(int mode) {
            take(mode);
        }

        synchronized void take(int wanted) {
            if (held != null && mode == wanted) {
                return;
            }
            if (held != null) {
                held.close();
            }
            try (Flock turnstile = Flock.take(DIR.resolve("turnstile.lock"), LOCK_EX)) {
                held = Flock.take(DIR.resolve("engine.lock"), wanted);
                mode = wanted;
            }
        }

        @Override
        public synchronized void close() {
            held.close();
        }
    }

    /** A blocking flock on a descriptor of its own, held until closed (or the process dies). */
    private static final class Flock implements AutoCloseable {
        private static final POSIX POSIX = POSIXFactory.getNativePOSIX();
        private final int fd;

        private Flock(int fd) {
            this.fd = fd;
        }

        static Flock take(Path file, int operation) {
            int fd = POSIX.open(file.toString(), OpenFlags.O_RDWR.intValue() | OpenFlags.O_CREAT.intValue()
                    | OpenFlags.O_CLOEXEC.intValue() | OpenFlags.O_NOFOLLOW.intValue(), 0644);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + file + ": " + Errno.valueOf(POSIX.errno()));
            }
            while (POSIX.flock(fd, operation) != 0) {
                if (POSIX.errno() != Errno.EINTR.intValue()) {
                    POSIX.close(fd);
                    throw new IllegalStateException("cannot lock " + file + ": " + Errno.valueOf(POSIX.errno()));
                }
            }
            return new Flock(fd);
        }

        @Override
        public void close() {
            POSIX.close(fd);
        }
    }
}
