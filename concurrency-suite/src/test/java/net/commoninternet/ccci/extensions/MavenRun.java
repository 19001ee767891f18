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

    static MavenRun start(Path log, Map<String, String> env, String... properties) throws IOException {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q", "test", "-pl", "recipe-suites", "-am"));
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

    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
