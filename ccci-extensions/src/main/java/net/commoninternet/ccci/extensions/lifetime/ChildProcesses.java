package net.commoninternet.ccci.extensions.lifetime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * Every child process of a run starts here, so every child gets the run's environment
 * ({@code ABRA_DIR} above all) and the run knows which children are alive when it must stop
 * them.
 */
@API(status = API.Status.INTERNAL)
public final class ChildProcesses {

    /** What a finished child left: its exit status and its merged output. */
    public record Result(List<String> command, int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }

        public Result orThrow() throws IOException {
            if (!ok()) {
                throw new IOException(String.join(" ", command) + " exited " + exitCode + ": " + output.strip());
            }
            return this;
        }
    }

    private final Map<String, String> environment;
    private final Set<Process> live = ConcurrentHashMap.newKeySet();

    public ChildProcesses(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    Map<String, String> environment() {
        return environment;
    }

    public Result run(List<String> command, Path workDir, Map<String, String> extraEnv, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        builder.environment().putAll(environment);
        builder.environment().putAll(extraEnv);
        Process process = builder.start();
        live.add(process);
        try {
            process.getOutputStream().close();
            CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(process);
                throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
            }
            return new Result(List.copyOf(command), process.exitValue(), output.join());
        } catch (InterruptedException e) {
            killTree(process);
            throw e;
        } finally {
            live.remove(process);
        }
    }

    public Result run(List<String> command, Path workDir) throws IOException, InterruptedException {
        return run(command, workDir, Map.of(), Duration.ofMinutes(5));
    }

    /** Kills every live child and its descendants, descendants first (see JVM-NOTES). */
    void killAll() {
        live.forEach(ChildProcesses::killTree);
    }

    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
