package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.workspace.DeployPolicy;
import net.commoninternet.ccci.spi.DeployAllowance;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;

/**
 * The whole run, end to end (issue 16), on demand with {@code scripts/bench run [ROUNDS] [A,B]}:
 * per round and recipe, one real {@code mvn test -Drecipe=R} (its figures read off the run's own
 * results.json phase timings), then, side by side in the same round, the engine alone doing the
 * same deploy and removal of the same recipe trees the run checked out (its runs folder keeps
 * them):
 * <ul>
 *   <li>deploy floor: the same {@code docker stack deploy} command ccci's swarm driver runs (the
 *       run's dependencies first, as the run deploys them), from the command's start until every
 *       current-spec task of the stacks runs (polled every 10 ms on the socket: no stability
 *       window, no healthcheck wait beyond swarm's own);
 *   <li>removal floor: {@code docker stack rm} of the stacks, until no container, volume,
 *       network, secret or config of them is left (polled every 10 ms).
 * </ul>
 * The env files and secrets of the floor's apps are made beforehand and not timed. Their
 * domains are {@code i16-floor-*}, never a run app's form, so no janitor takes them.
 *
 * <p>Printed per round: the run's wall time, its pre-deploy (from its start to its first
 * deploy), its deploy-to-converged and teardown against the floors, its tiers (engine and ccci
 * together: a rolling update, restic, probes; no floor is measured for them), and ccci's own share
 * of the phases that have a floor: pre-deploy, plus what deploy-to-converged and teardown took
 * beyond their floors, over the wall time. Medians at the end.
 */
public final class RunBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration FLOOR_LIMIT = Duration.ofMinutes(3);

    /** One round of one recipe: the run's figures and the floors beside them, in ms. */
    private record Round(long total, long preDeploy, long deployed, long deployFloor, long teardown, long removalFloor,
            long tiers) {
        long ccciShare() {
            return preDeploy + Math.max(0, deployed - deployFloor) + Math.max(0, teardown - removalFloor);
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String[] recipes = (args.length > 1 ? args[1] : "custom-html,notes-demo").split(",");
        Path work = Files.createTempDirectory("ccci-bench-run-");
        Map<String, List<Round>> all = new LinkedHashMap<>();
        String header = String.format(Locale.ROOT, "%-12s %-5s %8s %9s %17s %19s %8s %11s", "recipe", "round", "wall ms",
                "pre-dep", "deployed/floor", "teardown/floor", "tiers", "ccci share");
        System.out.println(header);
        try (DockerEngine docker = DockerEngine.connect()) {
            for (int round = 1; round <= rounds; round++) {
                for (String recipe : recipes) {
                    Round r = round(docker, work, recipe, round);
                    all.computeIfAbsent(recipe, k -> new ArrayList<>()).add(r);
                    print(recipe, String.valueOf(round), r);
                }
            }
        }
        System.out.println(header);
        for (Map.Entry<String, List<Round>> e : all.entrySet()) {
            List<Round> rs = e.getValue();
            print(e.getKey(), "median", new Round(median(rs, Round::total), median(rs, Round::preDeploy),
                    median(rs, Round::deployed), median(rs, Round::deployFloor), median(rs, Round::teardown),
                    median(rs, Round::removalFloor), median(rs, Round::tiers)));
            List<Double> shares = rs.stream().map(r -> r.ccciShare() / (double) r.total()).toList();
            List<Double> teardownRatios = rs.stream().map(r -> r.teardown() / (double) r.removalFloor()).toList();
            System.out.printf(Locale.ROOT, "%-12s median of the rounds' ratios: ccci share %.1f%% (target <= 10%%), "
                    + "pre-deploy %d ms (target <= 500), teardown %.2fx its floor (target <= 1.2x), deployed %.2fx its floor%n",
                    e.getKey(), 100 * medianOf(shares), median(rs, Round::preDeploy), medianOf(teardownRatios),
                    medianOf(rs.stream().map(r -> r.deployed() / (double) r.deployFloor()).toList()));
        }
    }

    private static void print(String recipe, String round, Round r) {
        System.out.printf(Locale.ROOT, "%-12s %-5s %8d %9d %8d/%-8d %9d/%-9d %8d %10.1f%%%n", recipe, round, r.total(),
                r.preDeploy(), r.deployed(), r.deployFloor(), r.teardown(), r.removalFloor(), r.tiers(),
                100.0 * r.ccciShare() / r.total());
    }

    private static Round round(DockerEngine docker, Path work, String recipe, int round) throws Exception {
        String runId = "bench-run-" + recipe + "-" + round;
        Path runs = Files.createDirectories(work.resolve(runId));
        Path results = ParallelRunsBench.mvnTest(runs, runId, recipe).get(0);
        Map<String, JsonNode> phases = new LinkedHashMap<>();
        JsonNode timings = JSON.readTree(results.toFile()).get("timings");
        timings.get("phases").forEach(p -> phases.put(p.get("phase").asText(), p));
        long total = timings.get("total_ms").asLong();
        JsonNode firstDeploy = phases.containsKey("dependencies") ? phases.get("dependencies") : phases.get("deploy");
        long preDeploy = firstDeploy.get("start_ms").asLong();
        JsonNode convergence = phases.get("convergence");
        long deployed = convergence.get("start_ms").asLong() + convergence.get("duration_ms").asLong() - preDeploy;
        long teardown = phases.get("teardown").get("duration_ms").asLong();
        long tiers = phases.get("teardown").get("start_ms").asLong() - preDeploy - deployed;

        // The same trees the run deployed, from its runs folder: the dependencies first, then the recipe.
        Path abra;
        try (var dirs = Files.walk(runs, 3)) {
            abra = dirs.filter(d -> d.getFileName().toString().equals("abra") && Files.isDirectory(d.resolve("recipes")))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no run folder with abra/recipes under " + runs));
        }
        List<String> order = new ArrayList<>();
        try (var trees = Files.list(abra.resolve("recipes"))) {
            trees.map(t -> t.getFileName().toString()).filter(t -> !t.equals(recipe)).sorted().forEach(order::add);
        }
        order.add(recipe);
        Floors floors = floors(docker, work.resolve(runId + "-floor"), abra.resolve("recipes"), order);
        return new Round(total, preDeploy, deployed, floors.deploy(), teardown, floors.removal(), tiers);
    }

    private record Floors(long deploy, long removal) {
    }

    private static Floors floors(DockerEngine docker, Path dir, Path trees, List<String> recipes) throws Exception {
        Path runDir = Files.createDirectories(dir);
        RunAbraDir abra = RunAbraDir.create(runDir, Files.createDirectories(dir.resolve("canonical")));
        ChildProcesses processes = new ChildProcesses(Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
        SwarmDriver driver = new SwarmDriver(docker, processes, Files.createDirectories(dir.resolve("backups")),
                abra.canonicalServers(), new DeployPolicy(DeployAllowance.NONE, processes));
        StackTeardown teardown = new StackTeardown(docker.client());
        List<App> apps = new ArrayList<>();
        Set<String> stacks = new java.util.LinkedHashSet<>();
        try {
            for (String recipe : recipes) {
                App app = driver.newApp(recipe, "i16-floor-" + recipe + ".bench.local", trees.resolve(recipe), abra);
                apps.add(app);
                stacks.add(app.stack());
            }
            // one after the other, as the run deploys them: a dependency runs before the app is deployed
            long deployFloor = 0;
            for (App app : apps) {
                long t0 = System.nanoTime();
                deploy(processes, app);
                deployFloor += ConvergenceBench.allRunning(docker.http(), t0, Set.of(app.stack()), tasks(docker, app.stack()));
            }
            long t1 = System.nanoTime();
            List<String> rm = new ArrayList<>(List.of("docker", "stack", "rm"));
            rm.addAll(stacks);
            processes.run(rm, runDir, Map.of(), Duration.ofMinutes(2)).orThrow();
            awaitGone(docker, stacks, t1);
            long removalFloor = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
            return new Floors(deployFloor, removalFloor);
        } finally {
            for (String stack : stacks) {
                teardown.teardown(stack);
            }
        }
    }

    /** What ccci's swarm driver runs for a deploy, without its checks before it. */
    private static void deploy(ChildProcesses processes, App app) throws IOException, InterruptedException {
        processes.run(SwarmDriver.deployCommand(app), app.recipeDir(), app.deployEnv(), Duration.ofMinutes(5)).orThrow();
    }

    /** How many tasks the stack's services want (replicated: their replicas; one otherwise). */
    private static int tasks(DockerEngine docker, String stack) {
        return docker.client().listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec().stream()
                .mapToInt(s -> s.getSpec().getMode() != null && s.getSpec().getMode().getReplicated() != null
                        ? (int) s.getSpec().getMode().getReplicated().getReplicas() : 1).sum();
    }

    /**
     * After {@code docker stack rm} (services, secrets, configs and networks removed before it
     * returns; volumes never): until the stacks' containers are gone, then their volumes removed,
     * until no network is left either.
     */
    private static void awaitGone(DockerEngine docker, Set<String> stacks, long t0) throws InterruptedException {
        var client = docker.client();
        for (String stack : stacks) {
            until(() -> client.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec().isEmpty(),
                    t0, stacks);
            client.listVolumesCmd().withFilter("label", List.of(StackLabels.NAMESPACE + "=" + stack)).exec().getVolumes()
                    .forEach(v -> client.removeVolumeCmd(v.getName()).exec());
            until(() -> client.listNetworksCmd().withFilter("label", List.of(StackLabels.NAMESPACE + "=" + stack)).exec()
                    .isEmpty(), t0, stacks);
        }
    }

    private static void until(java.util.function.BooleanSupplier gone, long t0, Set<String> stacks) throws InterruptedException {
        while (!gone.getAsBoolean()) {
            if (System.nanoTime() - t0 > FLOOR_LIMIT.toNanos()) {
                throw new IllegalStateException("docker stack rm of " + stacks + " left objects after " + FLOOR_LIMIT);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static long median(List<Round> rounds, java.util.function.ToLongFunction<Round> figure) {
        return ParallelRunsBench.median(rounds.stream().map(figure::applyAsLong).toList());
    }

    private static double medianOf(List<Double> values) {
        return ParallelRunsBench.medianOf(values);
    }
}
