package net.commoninternet.ccci.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost the secret filter adds to every line the run prints: one typical log line (about 120
 * characters) through {@link RedactedConsole} with 10 registered secrets, into a discarding
 * console and a run.log on tmpfs, against the same line printed to the discarding console
 * directly. Target: under 10 microseconds a line, so even a chatty run (10,000 lines) pays
 * less than 0.1 s.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ConsoleFilterBenchmark {

    private static final String LINE = "10:17:30.711 INFO  SwarmDriver - deploying cust-f34f9f_ci_commoninternet_net"
            + " (--prune --detach=true -c compose.yml)";

    private PrintStream original;
    private PrintStream plain;
    private RedactedConsole console;
    private Path dir;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        original = System.out;
        plain = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        System.setOut(plain);
        dir = Files.createTempDirectory(Path.of("/run/lock"), "ccci-bench-console");
        console = RedactedConsole.install(dir.resolve("run.log"));
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            secrets.add("generatedSecretValue" + i + "xYz0123456789ab");
        }
        console.addSecrets(secrets);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        console.close();
        System.setOut(original);
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @Benchmark
    public void filteredLine() {
        System.out.println(LINE);
    }

    @Benchmark
    public void unfilteredLine() {
        plain.println(LINE);
    }
}
