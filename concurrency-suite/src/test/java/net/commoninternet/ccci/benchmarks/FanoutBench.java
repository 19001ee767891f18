package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.SecretSpec;
import com.github.dockerjava.api.model.ServiceModeConfig;
import com.github.dockerjava.api.model.ServiceReplicatedModeOptions;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RunSpans;
import org.apache.commons.io.FileUtils;

/**
 * Fan-out (issue 26), on demand with {@code scripts/bench fanout [N,...] [P,...] [U,...]}: one
 * command of N generated busybox recipes (install and upgrade: two tagged releases of one httpd
 * service on {@code proxy}) at parallelism P, for every N and P, against one run alone: the
 * command's wall (its first run's start to its last run's end, off each run's results.json) is held
 * against ceil(N/P) x the run alone, most runs in flight at once (off the same spans) against P, and
 * each run's phases against the run alone's (where runs slow each other). Then, with U unrelated
 * stacks on the engine (not run apps: a stack-labelled service scaled to 0, a network and a secret
 * each), the janitor's discovery and sweep and one stack's leftover check, in-process, and a real
 * run's janitor phase. Writes the curve as a PNG ({@link FanoutChart}). Default N 1,4,8,16,32, P
 * 2,4,8, U 0,50,200.
 */
public final class FanoutBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** The phases whose medians say where runs slow each other. */
    private static final List<String> PHASES = List.of("connect", "janitor", "fetch", "lock", "deploy", "convergence",
            "install", "upgrade", "teardown");

    /** One command of several runs: its span, its runs' spans and phases, Maven's wall, the machine's load. */
    record Command(int n, int p, long span, int mostInFlight, List<Long> runs, Map<String, List<Long>> phases,
            double mavenSeconds, String loadBefore, String loadAfter, double cpuBusy) {

        long medianRun() {
            return ParallelRunsBench.median(runs);
        }

        long medianPhase(String phase) {
            List<Long> values = phases.getOrDefault(phase, List.of());
            return values.isEmpty() ? 0 : ParallelRunsBench.median(values);
        }
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        List<Integer> ns = numbers(args, 0, "1,4,8,16,32");
        List<Integer> ps = numbers(args, 1, "2,4,8");
        List<Integer> us = numbers(args, 2, "0,50,200");
        Path work = Files.createTempDirectory("ccci-bench-fanout-");
        Path recipes = FanoutRecipes.generate(work.resolve("recipes"), ns.stream().mapToInt(Integer::intValue).max().orElse(1));
        System.out.printf(Locale.ROOT, "fan-out: recipes in %s, work in %s%n", recipes, work);

        Command alone = command(work, recipes, 1, 1, "alone");
        long t1 = alone.medianRun();
        System.out.printf(Locale.ROOT, "one run alone: %d ms (mvn %.0f s); phases %s%n", t1, alone.mavenSeconds(),
                phaseLine(alone));
        List<Command> rows = new ArrayList<>();
        for (int p : ps) {
            for (int n : ns) {
                Command c = command(work, recipes, n, p, "p" + p + "-n" + n);
                rows.add(c);
                System.out.println(row(c, t1));
            }
        }
        System.out.println();
        System.out.println("| P | N | wall s | ceil(N/P) x alone s | ratio | most in flight | median run s | slowest run s"
                + " | mvn wall s | load before -> after | CPU busy |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(c -> System.out.println(row(c, t1)));
        System.out.println();
        System.out.println("median phase ms (alone: " + phaseLine(alone) + ")");
        rows.forEach(c -> System.out.printf(Locale.ROOT, "  P=%d N=%d: %s%n", c.p(), c.n(), phaseLine(c)));
        Path chart = ROOT.resolve("docs/benchmarks-fanout.png");
        FanoutChart.write(chart, rows, t1);
        System.out.println("chart: " + chart);

        unrelatedStacks(work, recipes, us);
    }

    private static String row(Command c, long t1) {
        long ideal = (long) Math.ceil(c.n() / (double) c.p()) * t1;
        return String.format(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.2f | %d | %.1f | %.1f | %.0f | %s -> %s | %.0f%% |",
                c.p(), c.n(), c.span() / 1000.0, ideal / 1000.0, c.span() / (double) ideal, c.mostInFlight(),
                c.medianRun() / 1000.0, c.runs().stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0,
                c.mavenSeconds(), c.loadBefore(), c.loadAfter(), 100 * c.cpuBusy());
    }

    private static String phaseLine(Command c) {
        StringBuilder line = new StringBuilder();
        for (String phase : PHASES) {
            line.append(phase).append(' ').append(c.medianPhase(phase)).append(", ");
        }
        return line.substring(0, line.length() - 2);
    }

    /** {@code mvn test -Drecipe=fan-01,...,fan-N -Dccci.parallel.parallelism=P}, install and upgrade. */
    static Command command(Path work, Path recipes, int n, int p, String name) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(work.resolve(name));
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            names.add(FanoutRecipes.name(i));
        }
        String load = load();
        long[] cpu = cpu();
        long t0 = System.nanoTime();
        ProcessBuilder mvn = new ProcessBuilder("mvn", "-B", "-q", "test", "-pl", "recipe-suites", "-am",
                "-Drecipe=" + String.join(",", names), "-Dccci.recipes=" + recipes, "-Dccci.stages=install,upgrade",
                "-Dccci.parallel.parallelism=" + p, "-Dccci.run-id=fan-" + name, "-Dccci.pr=" + (5000 + 100 * p + n),
                "-Dreports.dir=" + dir.resolve("reports"))
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("mvn.log").toFile());
        mvn.environment().put("CCCI_RUNS_DIR", dir.toString());
        MavenRun.besideOtherBuilds(mvn.environment());
        int exit = mvn.start().waitFor();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double busy = busy(cpu, cpu());
        String loadAfter = load();
        List<Path> results;
        try (var files = Files.walk(dir)) {
            // the runs' own (the reports folder holds copies, attached to the report's nodes)
            results = files.filter(f -> f.getFileName().toString().equals("results.json"))
                    .filter(f -> !f.startsWith(dir.resolve("reports"))).toList();
        }
        if (exit != 0 || results.size() != n) {
            throw new IllegalStateException("mvn of " + n + " recipes at parallelism " + p + " exited " + exit + " with "
                    + results.size() + " results; see " + dir.resolve("mvn.log"));
        }
        List<Instant[]> spans = new ArrayList<>();
        List<Long> runs = new ArrayList<>();
        Map<String, List<Long>> phases = new TreeMap<>();
        for (Path file : results) {
            JsonNode timings = JSON.readTree(file.toFile()).get("timings");
            Instant start = Instant.parse(timings.get("started_at").asText());
            long total = timings.get("total_ms").asLong();
            spans.add(new Instant[] {start, start.plusMillis(total)});
            runs.add(total);
            timings.get("phases").forEach(ph -> phases.computeIfAbsent(ph.get("phase").asText(), k -> new ArrayList<>())
                    .add(ph.get("duration_ms").asLong()));
        }
        Instant first = spans.stream().map(s -> s[0]).min(Instant::compareTo).orElseThrow();
        Instant last = spans.stream().map(s -> s[1]).max(Instant::compareTo).orElseThrow();
        return new Command(n, p, Duration.between(first, last).toMillis(), RunSpans.mostAtOnce(spans), runs, phases, seconds,
                load, loadAfter, busy);
    }

    /**
     * With U unrelated stacks on the engine: the janitor's discovery (one list call per object kind),
     * its sweep of what it found (a lock folder of its own; nothing of theirs is a run app), one run
     * app's leftover check (20 of each, median ms), then one real run of fan-01 and its janitor phase.
     */
    private static void unrelatedStacks(Path work, Path recipes, List<Integer> counts) throws Exception {
        System.out.println();
        System.out.println("| unrelated stacks | janitor discovery ms | janitor sweep ms | leftovers check ms | a run's janitor"
                + " phase ms | the run's wall ms | load |");
        System.out.println("|---|---|---|---|---|---|---|");
        try (DockerEngine docker = DockerEngine.connect(); UnrelatedStacks unrelated = new UnrelatedStacks(docker)) {
            Path servers = Files.createDirectories(work.resolve("servers"));
            Path locks = Files.createTempDirectory(Path.of("/run/lock"), "ccci-bench-fanout-");
            // the bench's own folder, which no other process uses: removed when the bench ends
            Runtime.getRuntime().addShutdownHook(new Thread(() -> FileUtils.deleteQuietly(locks.toFile())));
            Janitor janitor = new Janitor(locks, Duration.ofHours(2), domain -> {
                throw new IllegalStateException("the bench reaps nothing: " + domain);
            });
            StackTeardown teardown = new StackTeardown(docker.client());
            String runApp = AppNaming.stackName(AppNaming.domain(FanoutRecipes.name(1), 1, "bench", AppNaming.DEFAULT_SUFFIX));
            for (int count : counts) {
                unrelated.makeUpTo(count);
                long discovery = medianMillis(() -> {
                    try {
                        return JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                var candidates = JanitorCandidates.discover(servers, docker, AppNaming.DEFAULT_SUFFIX);
                long sweep = medianMillis(() -> janitor.sweep(candidates));
                long leftovers = medianMillis(() -> teardown.leftovers(runApp));
                Command run = command(work, recipes, 1, 1, "unrelated-" + count);
                System.out.printf(Locale.ROOT, "| %d | %d | %d | %d | %d | %d | %s |%n", count, discovery, sweep, leftovers,
                        run.medianPhase("janitor"), run.medianRun(), run.loadAfter());
            }
        }
    }

    /** Median of 20 timed calls, after 3 untimed. */
    private static long medianMillis(Supplier<?> call) {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            long t0 = System.nanoTime();
            call.get();
            if (i >= 3) {
                times.add((System.nanoTime() - t0) / 1_000_000);
            }
        }
        return ParallelRunsBench.median(times);
    }

    private static List<Integer> numbers(String[] args, int at, String fallback) {
        return Arrays.stream((args.length > at ? args[at] : fallback).split(",")).map(String::trim).map(Integer::parseInt)
                .toList();
    }

    /** The load averages (1, 5, 15 minutes). */
    private static String load() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    /** The host's CPU jiffies: busy (user, nice, system, irq, softirq, steal) and all. */
    private static long[] cpu() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long[] v = Arrays.stream(f).skip(1).mapToLong(Long::parseLong).toArray();
        long all = Arrays.stream(v).limit(8).sum();
        return new long[] {all - v[3] - v[4], all};
    }

    private static double busy(long[] before, long[] after) {
        return (after[0] - before[0]) / (double) Math.max(1, after[1] - before[1]);
    }

    /** The generated stacks of {@link #unrelatedStacks}, removed at the end. */
    private static final class UnrelatedStacks implements AutoCloseable {
        private final DockerEngine docker;
        private final List<String> made = new ArrayList<>();

        UnrelatedStacks(DockerEngine docker) {
            this.docker = docker;
        }

        void makeUpTo(int count) {
            var client = docker.client();
            while (made.size() < count) {
                String stack = String.format(Locale.ROOT, "unrelated%03d", made.size());
                Map<String, String> labels = StackLabels.of(stack);
                client.createNetworkCmd().withName(stack + "_default").withDriver("overlay").withLabels(labels).exec();
                client.createSecretCmd(new SecretSpec().withName(stack + "_secret").withData("c2VjcmV0").withLabels(labels))
                        .exec();
                client.createServiceCmd(new ServiceSpec().withName(stack + "_app").withLabels(labels)
                        .withMode(new ServiceModeConfig().withReplicated(new ServiceReplicatedModeOptions().withReplicas(0)))
                        .withTaskTemplate(new TaskSpec().withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                                .withCommand(List.of("sleep", "600"))))).exec();
                made.add(stack);
            }
        }

        @Override
        public void close() throws Exception {
            StackTeardown teardown = new StackTeardown(docker.client());
            for (String stack : made) {
                teardown.teardown(stack);
            }
        }
    }
}
