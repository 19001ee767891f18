package net.commoninternet.ccci.extensions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code mvn test} of the recipe-suites module, started as a child process from the
 * repository root, exactly as a user or Drone runs it. Its output goes to a file so a test can
 * read it while the run is still going.
 */
final class MavenRun {

    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    final Process process;
    final Path log;

    private MavenRun(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts mvn in a session of its own (setsid), so its whole process group (Maven and the
     * Surefire fork) can be signalled at once, as Drone's wrapper does.
     */
    static MavenRun start(Path log, Map<String, String> env, String... properties) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", "mvn", "-B", "-q", "test", "-pl", "recipe-suites", "-am"));
        command.addAll(List.of(properties));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return new MavenRun(builder.start(), log);
    }

    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("mvn did not finish within " + timeout + "; output in " + log);
        }
        return process.exitValue();
    }

    /** Waits until the run's output has a line containing {@code fragment} (the run reached that state). */
    String awaitOutput(String fragment, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : output().lines().toList()) {
                if (line.contains(fragment)) {
                    return line;
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("mvn exited " + process.exitValue() + " before printing '" + fragment + "':\n" + output());
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("no '" + fragment + "' within " + timeout + ":\n" + output());
    }

    /** SIGKILL to the whole process group, then waits until every process of it is gone. */
    void killGroup() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).start().waitFor();
        process.waitFor();
        while (new ProcessBuilder("kill", "-0", "--", "-" + process.pid()).start().waitFor() == 0) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
