package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.testing.MavenRun;

/**
 * Parallel runs benchmark (issue 14), run on demand with {@code scripts/bench parallel [ROUNDS]
 * [A,B]}: per round, three real {@code mvn test} commands on the local swarm, each in a runs folder
 * of its own: recipe A alone, recipe B alone, then {@code -Drecipe=A,B} (the two in parallel, the
 * default parallelism 2). The figure of a run is its own span from its results.json (the run's
 * start to its results, on the run's clock); for the pair, from the first run's start to the last
 * run's end. Maven's own start-up is printed apart. Target: the pair takes at most 1.25x the slower
 * recipe alone.
 */
public final class ParallelRunsBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        String[] pair = (args.length > 1 ? args[1] : "custom-html,notes-demo").split(",");
        Path runs = Files.createTempDirectory("ccci-bench-parallel-");
        List<Double> ratios = new ArrayList<>();
        List<Long> aloneA = new ArrayList<>();
        List<Long> aloneB = new ArrayList<>();
        List<Long> together = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%-6s %12s %12s %12s %8s   %s%n", "round", pair[0] + " ms", pair[1] + " ms", "both ms",
                "ratio", "mvn wall s (a, b, both)");
        for (int round = 1; round <= rounds; round++) {
            Measured a = command(runs, "bench-" + round + "-a", pair[0]);
            Measured b = command(runs, "bench-" + round + "-b", pair[1]);
            Measured both = command(runs, "bench-" + round + "-ab", pair[0] + "," + pair[1]);
            double ratio = both.span / (double) Math.max(a.span, b.span);
            aloneA.add(a.span);
            aloneB.add(b.span);
            together.add(both.span);
            ratios.add(ratio);
            System.out.printf(Locale.ROOT, "%-6d %12d %12d %12d %8.2f   %.0f, %.0f, %.0f%n", round, a.span, b.span, both.span,
                    ratio, a.wallSeconds, b.wallSeconds, both.wallSeconds);
        }
        System.out.printf(Locale.ROOT, "%-6s %12d %12d %12d %8.2f%n", "median", median(aloneA), median(aloneB),
                median(together), medianOf(ratios));
        System.out.printf(Locale.ROOT, "target: both <= 1.25 x the slower alone: %s%n", medianOf(ratios) <= 1.25 ? "met" : "NOT met");
    }

    /** What one command took: its runs' span and Maven's wall time. */
    private record Measured(long span, double wallSeconds) {
    }

    private static Measured command(Path runs, String runId, String recipes) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(runs.resolve(runId));
        long t0 = System.nanoTime();
        List<Path> results = mvnTest(dir, runId, recipes);
        double wall = (System.nanoTime() - t0) / (double) TimeUnit.SECONDS.toNanos(1);
        Instant first = null;
        Instant last = null;
        for (Path file : results) {
            JsonNode timings = JSON.readTree(file.toFile()).get("timings");
            Instant start = Instant.parse(timings.get("started_at").asText());
            Instant end = start.plusMillis(timings.get("total_ms").asLong());
            first = first == null || start.isBefore(first) ? start : first;
            last = last == null || end.isAfter(last) ? end : last;
        }
        return new Measured(Duration.between(first, last).toMillis(), wall);
    }

    /**
     * One real {@code mvn test -Drecipe=...} with the runs folder {@code dir} (its output in
     * {@code dir/mvn.log}); the results.json of each of its runs, or an error if it failed.
     */
    static List<Path> mvnTest(Path dir, String runId, String recipes) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q", "test", "-pl", "recipe-suites", "-am",
                "-Drecipe=" + recipes, "-Dccci.run-id=" + runId, "-Dccci.pr=" + (4000 + Math.abs(runId.hashCode() % 1000))));
        // BENCH_ARGLINE: the run's JVM options, to compare them (e.g. -XX:TieredStopAtLevel=1)
        Optional.ofNullable(System.getenv("BENCH_ARGLINE")).ifPresent(a -> command.add("-DargLine=" + a));
        ProcessBuilder mvn = new ProcessBuilder(command)
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("mvn.log").toFile());
        mvn.environment().put("CCCI_RUNS_DIR", dir.toString());
        MavenRun.besideOtherBuilds(mvn.environment());
        int exit = mvn.start().waitFor();
        List<Path> results;
        try (var files = Files.walk(dir)) {
            results = files.filter(f -> f.getFileName().toString().equals("results.json")).toList();
        }
        if (exit != 0 || results.size() != recipes.split(",").length) {
            throw new IllegalStateException("mvn -Drecipe=" + recipes + " exited " + exit + " with " + results.size()
                    + " results; see " + dir.resolve("mvn.log"));
        }
        return results;
    }

    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static double medianOf(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
