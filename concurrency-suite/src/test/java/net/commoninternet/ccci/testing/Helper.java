package net.commoninternet.ccci.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import jnr.constants.platform.Errno;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * A helper process a test drives. Its merged output is read line by line as it arrives, so a
 * test waits for what the helper says it did, never for time to pass; its exit status is
 * captured; {@link #close()} kills it with all its descendants and waits until they are gone.
 */
public final class Helper implements AutoCloseable {

    public static final Duration PATIENCE = Duration.ofSeconds(60);

    private final List<String> command;
    private final Process process;
    private final Writer stdin;
    private final List<String> lines = new ArrayList<>();
    private boolean ended;

    private Helper(List<String> command, Process process) {
        this.command = command;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, "helper-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    public static Helper start(List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new Helper(List.copyOf(command), builder.start());
    }

    public static Helper start(List<String> command) throws IOException {
        return start(command, Map.of());
    }

    /** The command line of a helper JVM running {@code main} from this module's test class path. */
    public static List<String> java(Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** A helper JVM running {@code main} of a test class with this JVM's class path. */
    public static Helper jvm(Class<?> main, String... args) throws IOException {
        return start(java(main, args));
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** The first line containing {@code fragment}, waiting for it as long as the helper may still say it. */
    public String awaitLine(String fragment, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            while (true) {
                Optional<String> line = lines.stream().filter(l -> l.contains(fragment)).findFirst();
                if (line.isPresent()) {
                    return line.get();
                }
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    throw new AssertionError((ended ? "helper ended" : "helper still running after " + timeout)
                            + " without saying '" + fragment + "'; " + describe());
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    public String awaitLine(String fragment) throws InterruptedException {
        return awaitLine(fragment, PATIENCE);
    }

    /**
     * The first line, in output order, that contains any of {@code fragments}: a test sees which
     * state the helper reached first (waiting for a lock, or holding it).
     */
    public String awaitAnyOf(String... fragments) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        synchronized (lines) {
            while (true) {
                for (String line : lines) {
                    for (String fragment : fragments) {
                        if (line.contains(fragment)) {
                            return line;
                        }
                    }
                }
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    throw new AssertionError("helper said none of " + List.of(fragments) + "; " + describe());
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** Closes the helper's stdin (a LockHolder then exits normally); returns its exit status. */
    public int finish() throws IOException, InterruptedException {
        stdin.close();
        return awaitExit();
    }

    /** SIGKILL; returns the exit status (137). */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        return awaitExit();
    }

    public void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** A real signal to the helper (or, with a negative pid, to a process group). */
    public static void kill(long pid, int signal) {
        POSIX posix = POSIXFactory.getNativePOSIX();
        if (posix.kill(pid, signal) != 0) {
            throw new AssertionError("kill(" + pid + ", " + signal + ") failed: " + Errno.valueOf(posix.errno()));
        }
    }

    public void signal(int signal) {
        kill(process.pid(), signal);
    }

    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("helper did not exit within " + timeout + "; " + describe());
        }
        awaitEndOfOutput();
        return process.exitValue();
    }

    public int awaitExit() throws InterruptedException {
        return awaitExit(PATIENCE);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    public String describe() {
        String shown = String.join(" ", command).replace(System.getProperty("java.class.path"), "<test class path>");
        return "command " + shown + ", output:\n" + output();
    }

    /** Kills the helper and every descendant (descendants first) and waits until all are gone. */
    @Override
    public void close() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        tree.add(process.toHandle());
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("helper process " + handle.pid() + " did not die", e);
            }
        }
    }

    /** The state, parent and process group of a live process, from {@code /proc/<pid>/stat}. */
    public record Stat(char state, long parent, long group) {
        public static Optional<Stat> of(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Optional.of(new Stat(fields[0].charAt(0), Long.parseLong(fields[1]), Long.parseLong(fields[2])));
            } catch (IOException gone) {
                return Optional.empty();
            }
        }

        /** Whether any process of group {@code pgid}, zombies aside, is alive. */
        public static boolean groupAlive(long pgid) {
            try (var pids = Files.list(Path.of("/proc"))) {
                return pids.map(p -> p.getFileName().toString()).filter(n -> n.chars().allMatch(Character::isDigit))
                        .map(n -> of(Long.parseLong(n))).flatMap(Optional::stream)
                        .anyMatch(s -> s.group() == pgid && s.state() != 'Z');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException closed) {
            // the helper was killed: what it said is kept
        } finally {
            synchronized (lines) {
                ended = true;
                lines.notifyAll();
            }
        }
    }

    /** Output ends when the last holder of the pipe (the helper, or an orphan of it) has gone. */
    private void awaitEndOfOutput() throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        synchronized (lines) {
            while (!ended) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("helper exited but something of it still holds its output open; " + describe());
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }
}
