package net.commoninternet.ccci.testing;

import java.nio.file.Path;
import java.util.Map;
import net.commoninternet.ccci.lifecycle.HostVariables;

/**
 * The run-app namespace of this Surefire fork: the domain suffix and the lock folder of every run
 * a test of this fork starts ({@link MavenRun}). The concurrency suite runs in parallel forks
 * (concurrency-suite/pom.xml: {@code ccci.test.fork} is the fork's number), and each fork's runs
 * judge liveness by their own lock folder: a janitor reaps a run app whose lock is free in ITS
 * folder, so two forks' runs must never see each other's apps as run apps. Their domains end in
 * {@code f<fork>.ci.commoninternet.net} ({@code CCCI_DOMAIN_SUFFIX}), which no other
 * namespace's janitor takes for a run app ({@code ForkNamespacesTest}). Outside a fork (an IDE), the
 * host's defaults. What a test's own JVM creates on the swarm keeps the default namespace, and
 * its sweeps take only its own domains.
 */
public final class ForkNamespace {

    /** The fork's number, 1.., from Surefire's {@code ${surefire.forkNumber}}; empty outside a fork. */
    public static final String FORK = System.getProperty("ccci.test.fork", "");

    /** The host's default lock folder: the runs of a test's own JVM, and every run outside a fork. */
    public static final Path DEFAULT_LOCK_DIR = Path.of("/run/lock");

    /** The lock folder of this fork's runs. */
    public static final Path LOCK_DIR = FORK.isEmpty() ? DEFAULT_LOCK_DIR : Path.of("/run/lock/ccci-fork-" + FORK);

    /** The domain suffix of this fork's runs. */
    public static final String SUFFIX = FORK.isEmpty() ? "ci.commoninternet.net" : "f" + FORK + ".ci.commoninternet.net";

    private ForkNamespace() {
    }

    /** The environment that puts a run in this fork's namespace (nothing outside a fork). */
    public static Map<String, String> env() {
        return FORK.isEmpty() ? Map.of()
                : Map.of(HostVariables.APP_LOCK_DIR, LOCK_DIR.toString(), HostVariables.DOMAIN_SUFFIX, SUFFIX);
    }
}
