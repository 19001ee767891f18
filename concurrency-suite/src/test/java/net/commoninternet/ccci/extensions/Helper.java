package net.commoninternet.ccci.extensions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real helper process whose output lines a test reads one by one: the test waits for the
 * line that says the helper reached a state (lock held, waiting), never for a length of time.
 * Everything it printed is kept for failure messages; {@link #close()} kills it and its children.
 */
final class Helper implements AutoCloseable {

    private static final long LINE_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final BufferedReader out;
    private final List<String> seen = new ArrayList<>();

    private Helper(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A JVM running {@code main} of a test class, with this JVM's class path. */
    static Helper jvm(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command(command);
    }

    static Helper command(List<String> command) throws IOException {
        return new Helper(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Reads lines until one contains {@code fragment}; returns it. Fails on EOF or timeout. */
    String awaitLine(String fragment) throws IOException, InterruptedException {
        while (true) {
            String line = nextLine();
            if (line == null) {
                throw new AssertionError("helper " + pid() + " ended (exit " + exitCode() + ") before printing '"
                        + fragment + "'; it printed: " + seen);
            }
            if (line.contains(fragment)) {
                return line;
            }
        }
    }

    /** Reads lines until one contains any of {@code fragments}; returns it, so a test sees which came first. */
    String awaitAnyOf(String... fragments) throws IOException, InterruptedException {
        while (true) {
            String line = nextLine();
            if (line == null) {
                throw new AssertionError("helper " + pid() + " ended (exit " + exitCode() + ") before printing any of "
                        + List.of(fragments) + "; it printed: " + seen);
            }
            for (String fragment : fragments) {
                if (line.contains(fragment)) {
                    return line;
                }
            }
        }
    }

    /** The next line, or null at end of output. */
    String nextLine() throws IOException, InterruptedException {
        try {
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (line != null) {
                seen.add(line);
            }
            return line;
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("helper " + pid() + " printed no line within " + LINE_TIMEOUT_SECONDS
                    + " s; so far: " + seen, e);
        }
    }

    List<String> seen() {
        return List.copyOf(seen);
    }

    /** Closes stdin (a LockHolder then exits normally) and waits for the exit status. */
    int finish() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("helper " + pid() + " did not exit after its stdin closed");
        }
        return process.exitValue();
    }

    /** SIGKILL, then the exit status (137 = killed by signal 9). */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
        return process.exitValue();
    }

    private String exitCode() {
        return process.isAlive() ? "still running" : Integer.toString(process.exitValue());
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
