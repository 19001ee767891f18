package net.commoninternet.ccci.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.extensions.docker.DockerEngine;

/**
 * Stops and starts THE shared Docker engine for real, for tests of what a run does when the
 * engine goes away. Only ever under the team's engine lock (the whole concurrency suite runs
 * under it): stopping dockerd stops every container on the host. The engine is started again
 * with scripts/setup-local-swarm's own command, {@code setsid dockerd >/var/log/ccci-dockerd.log
 * 2>&1 < /dev/null &}, and {@link #start()} returns only once the swarm is active again.
 */
public final class EngineRestart {

    private static final Path PIDFILE = Path.of("/var/run/docker.pid");
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final int SIGTERM = 15;

    private EngineRestart() {
    }

    /** SIGTERM to the engine (the pid in its pidfile), then waits until that process is gone. */
    public static void stop() throws IOException {
        long pid = Long.parseLong(Files.readString(PIDFILE, StandardCharsets.UTF_8).strip());
        Helper.kill(pid, SIGTERM);
        await("dockerd " + pid + " to exit", () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    /** Starts the engine as the set-up does and waits until it answers with an active swarm. */
    public static void start() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c",
                "setsid dockerd >/var/log/ccci-dockerd.log 2>&1 < /dev/null &");
        builder.environment().clear();
        builder.environment().putAll(Map.of("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "HOME", "/root", "LANG", "C.UTF-8"));
        if (builder.start().waitFor() != 0) {
            throw new AssertionError("could not start dockerd");
        }
        await("the engine to answer with an active swarm", EngineRestart::swarmActive);
    }

    /** Whether the engine answers and its swarm is active with a manager ready (what a run needs). */
    public static boolean swarmActive() {
        try {
            Process info = new ProcessBuilder(List.of("/usr/local/bin/docker", "node", "ls", "--format", "{{.Status}} {{.ManagerStatus}}"))
                    .redirectErrorStream(true).start();
            String out = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return info.waitFor() == 0 && out.startsWith("Ready Leader");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Whether the engine answers at all. */
    public static boolean answers() {
        try (DockerEngine docker = DockerEngine.connect()) {
            return docker.client() != null;
        } catch (Exception e) {
            return false;
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for " + what + " after " + PATIENCE);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }
}
