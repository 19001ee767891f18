package net.commoninternet.ccci.testing.helpers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.lock.Janitor;

/**
 * Helper process: a run's janitor sweep under the real {@link LifetimeGuards}, shaped like
 * {@code RunPhases}' (the stop check after the sweep included). Its reaper says
 * {@code reaping <domain>}, then waits, the way a teardown waits for the engine (interruptibly),
 * until the file {@code release} exists, and says {@code reaped <domain>}.
 *
 * <p>Usage: {@code SweepUnderGuards <lock dir> <release file> <domain>...}. Exit status: the
 * guards' (143 after SIGTERM), 0 after a sweep nobody stopped.
 */
public final class SweepUnderGuards {

    private SweepUnderGuards() {
    }

    public static void main(String[] args) throws Exception {
        Path lockDir = Path.of(args[0]);
        Path release = Path.of(args[1]);
        Set<String> candidates = Set.copyOf(List.of(args).subList(2, args.length));
        LifetimeGuards guards = LifetimeGuards.install(Duration.ofMinutes(10));
        try (guards) {
            try {
                Map<String, Janitor.Outcome> outcomes = new Janitor(lockDir, Duration.ofMinutes(120), domain -> {
                    say("reaping " + domain);
                    while (!Files.exists(release)) {
                        Thread.sleep(20);
                    }
                    say("reaped " + domain);
                }).sweep(candidates, guards::stopRequested);
                say("outcomes " + outcomes);
                if (guards.stopRequested()) {
                    throw new InterruptedException("stopped during the sweep");
                }
            } finally {
                guards.beginTeardown();
            }
        } catch (InterruptedException stopped) {
            say("run ended: " + stopped);
        }
    }

    private static void say(String line) {
        System.out.println("sweep: " + line);
        System.out.flush();
    }
}
