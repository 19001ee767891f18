package net.commoninternet.ccci.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
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
 *
 * <p>Each fork also writes when its classes and tests begin and end, and how long each waited for
 * the engine, to {@code target/ccci-fork-shares/timeline-<build's start>.tsv} (one appended line per event:
 * milliseconds since the epoch, fork, event, class, test): where the suite's wall goes, for
 * {@code scripts/bench timeline}.
 */
public final class ForkShares implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback,
        BeforeTestExecutionCallback, AfterTestExecutionCallback {

    /**
     * The test (or every test of the class) stops or restarts the shared engine: no other test of any
     * fork runs meanwhile. Tagged {@value #ALONE}: the suite's build runs these tests after all the
     * others, in one fork of their own (concurrency-suite/pom.xml), so no fork idles waiting for them.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Tag(ALONE)
    public @interface AloneOnTheEngine {
    }

    /**
     * The test must meet an engine race whose window a loaded machine makes rare (the other forks'
     * runs): tagged {@value #ALONE}, so the suite's build runs it after the parallel forks, in one
     * fork of its own, where the race is met within a few trials. It takes no lock of its own: where
     * forks run beside it (an IDE's run of several classes), it only meets its race less often.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @Tag(ALONE)
    public @interface OnAQuietMachine {
    }

    /** The class brings the multi-node test bed up and down: one such class at a time across the forks. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    public @interface OnTheTestBed {
    }

    /** The tag of the tests the suite's build runs alone, after the parallel forks. */
    public static final String ALONE = "alone";

    private static final Path DIR = Path.of("target/ccci-fork-shares");
    /** This build's timeline: one file per build (its start, from Maven), written by all its forks. */
    private static final Path TIMELINE = DIR.resolve("timeline-" + System.getProperty("ccci.test.build", "outside-maven") + ".tsv");
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
        log("class-begin", context);
        ExtensionContext.Store store = context.getStore(SHARES);
        // the bed before the engine: a class waiting for the bed holds nothing another class of the bed may
        // wait for (one of the bed's tests holds the engine alone for its span)
        if (test.isAnnotationPresent(OnTheTestBed.class)) {
            store.put("bed", Flock.take(DIR.resolve("test-bed.lock"), LOCK_EX));
        }
        store.put("engine", new EngineHold(test.isAnnotationPresent(AloneOnTheEngine.class) ? LOCK_EX : LOCK_SH));
        log(test.isAnnotationPresent(AloneOnTheEngine.class) ? "engine-alone" : "engine-shared", context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!context.getRequiredTestClass().isAnnotationPresent(Nested.class)) {
            log("class-end", context);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().isAnnotationPresent(AloneOnTheEngine.class)) {
            log("alone-wait", context);
            hold(context).take(LOCK_EX);
            log("engine-alone", context);
        }
    }

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        log("test-begin", context);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        log("test-end", context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getRequiredTestMethod().isAnnotationPresent(AloneOnTheEngine.class)) {
            hold(context).take(context.getRequiredTestClass().isAnnotationPresent(AloneOnTheEngine.class) ? LOCK_EX : LOCK_SH);
        }
    }

    /** One line of the timeline; a timeline that cannot be written changes nothing of the test. */
    private static void log(String event, ExtensionContext context) {
        String line = System.currentTimeMillis() + "\t" + ForkNamespace.FORK + "\t" + event + "\t"
                + context.getRequiredTestClass().getName() + "\t" + context.getTestMethod().map(m -> m.getName()).orElse("")
                + "\n";
        try {
            Files.writeString(TIMELINE, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the timeline is a figure, never a verdict
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
