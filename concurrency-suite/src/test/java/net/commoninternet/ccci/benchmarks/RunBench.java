package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.lifecycle.DeployAllowance;

/**
 * The whole run, end to end (issue 16), on demand with {@code scripts/bench run [ROUNDS] [A,B]}:
 * per round and recipe, one real {@code mvn test -Drecipe=R} (its figures read off the run's own
 * results.json phase timings), then, side by side in the same round, the engine alone doing the
 * same work on the same recipe trees the run checked out (its runs folder keeps them; the
 * recipe's own tree is copied, so the floor moves its own copy from base to head with git as the
 * run's UPGRADE does):
 * <ul>
 *   <li>deploy floor: the same {@code docker stack deploy} command ccci's swarm driver runs (the
 *       run's dependencies first, as the run deploys them; the recipe at the upgrade's base
 *       release when the run upgraded), from the command's start until every current-spec task
 *       of the stacks runs (polled every 10 ms on the socket: no stability window, no
 *       healthcheck wait beyond swarm's own);
 *   <li>upgrade floor ({@link TierFloors#upgrade}): the head, checked out in the floor's copy,
 *       deployed with the same command over the deployed base (once the base has run as long as
 *       the run's did before its upgrade: its ready probe and install checks), until every current-spec task
 *       runs and swarm reports each changed service's rolling update {@code completed} (its
 *       update monitor window is swarm's: see {@link TierFloors}); the time until every task runs
 *       is printed beside it;
 *   <li>backup and restore floors ({@link TierFloors.Restic}): the recipe's backup hooks and a
 *       bare {@code docker run} of ccci's restic image with the mounts and command of ccci's
 *       {@code ResticContainer}, plus {@code restic init} on the host only when the run made its
 *       repository in its backup phase (with an UPGRADE, ccci makes it while swarm rolls the
 *       update out, so it is not in the backup's phase; timed apart and printed); then the
 *       restore the same way;
 *   <li>the recipe's own waits: a {@code READY_PROBE} of {@code tcp:<port>:<N>} asks for N
 *       connects one a second, so N-1 seconds of pauses are the recipe's (docs/tiers.md);
 *   <li>removal floor: {@code docker stack rm} of the stacks, until no container, volume,
 *       network, secret or config of them is left (polled every 10 ms).
 * </ul>
 * The env files and secrets of the floor's apps are made beforehand and not timed. Their
 * domains are {@code i16-floor-*}, never a run app's form, so no janitor takes them.
 *
 * <p>What counts as ccci's: everything of the wall time that no floor covers. Per phase the
 * floor counted is at most the phase less what is provably ccci's in it (its checks, read off
 * the run's Surefire report, and the upgrade's work before its redeploy command, off run.log):
 * a floor slower than ccci's phase credits ccci nothing and never hides its checks. So ccci's
 * share = (wall - sum over phases of min(phase - own, its floor)) / wall. Phases without a
 * floor count whole as ccci's: pre-deploy (guards, connection, janitor, fetch, lock), INSTALL's
 * checks, CUSTOM and LINT, and the results written after the teardown. The recipe's own hooks
 * and assertions count as ccci's wherever they run (they run on ccci's probe container and
 * exec); only the pauses the recipe asks for are the recipe's. Printed per round and as medians
 * (of each figure; the share as the median of the rounds' shares).
 */
public final class RunBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration FLOOR_LIMIT = Duration.ofMinutes(3);
    /** The run's phases as the bench groups them, and the floor each is held against (none: all ccci's). */
    private static final Map<String, String> FLOOR_OF = orderedMap("pre-deploy", "", "deployed", "deploy",
            "ready-probe", "recipe waits", "install", "", "upgrade", "upgrade", "backup", "backup", "restore", "restore",
            "custom+lint", "", "teardown", "removal", "after teardown", "");

    /** One round of one recipe: the run's wall time, its grouped phases and the floors measured beside them, in ms. */
    private record Round(long total, Map<String, Long> phases, Map<String, Long> floors) {
        /**
         * ccci's own ms: the wall time less every phase's floor, where a floor covers at most the
         * phase less what is provably ccci's in it ({@code own: <phase>}: its checks, and the
         * upgrade's work before its deploy command).
         */
        long ccci() {
            long covered = 0;
            for (Map.Entry<String, String> p : FLOOR_OF.entrySet()) {
                long phase = phases.getOrDefault(p.getKey(), 0L);
                long own = Math.min(phase, phases.getOrDefault("own: " + p.getKey(), 0L));
                covered += Math.min(phase - own, floors.getOrDefault(p.getValue(), 0L));
            }
            return total - covered;
        }

        double share() {
            return ccci() / (double) total;
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        String[] recipes = (args.length > 1 ? args[1] : "custom-html,notes-demo").split(",");
        Path work = Files.createTempDirectory("ccci-bench-run-");
        Map<String, List<Round>> all = new LinkedHashMap<>();
        try (DockerEngine docker = DockerEngine.connect()) {
            for (int round = 1; round <= rounds; round++) {
                for (String recipe : recipes) {
                    Round r = round(docker, work, recipe, round);
                    all.computeIfAbsent(recipe, k -> new ArrayList<>()).add(r);
                    print(recipe + " round " + round, r, r.share());
                }
            }
        }
        for (Map.Entry<String, List<Round>> e : all.entrySet()) {
            List<Round> rs = e.getValue();
            Map<String, Long> phases = new LinkedHashMap<>();
            Map<String, Long> floors = new LinkedHashMap<>();
            rs.get(0).phases().keySet().forEach(k -> phases.put(k, ParallelRunsBench.median(
                    rs.stream().map(r -> r.phases().getOrDefault(k, 0L)).toList())));
            rs.get(0).floors().keySet().forEach(k -> floors.put(k, ParallelRunsBench.median(
                    rs.stream().map(r -> r.floors().getOrDefault(k, 0L)).toList())));
            long wall = ParallelRunsBench.median(rs.stream().map(Round::total).toList());
            double share = ParallelRunsBench.medianOf(rs.stream().map(Round::share).toList());
            print(e.getKey() + " median of " + rs.size(), new Round(wall, phases, floors), share);
            System.out.printf(Locale.ROOT, "%s: ccci's share of the wall time %.1f%% (median of the rounds' shares; target"
                    + " <= 10%%), pre-deploy %d ms (target <= 500), teardown %.2fx its floor (target <= 1.2x)%n", e.getKey(),
                    100 * share, phases.get("pre-deploy"), ParallelRunsBench.medianOf(rs.stream()
                            .map(r -> r.phases().get("teardown") / (double) r.floors().get("removal")).toList()));
        }
    }

    private static void print(String title, Round r, double share) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%s: wall %d ms, ccci's own %d ms = %.1f%%%n",
                title, r.total(), r.ccci(), 100 * share));
        out.append(String.format(Locale.ROOT, "  %-15s %8s %9s %7s  %s%n", "phase", "run ms", "floor ms", "own ms", "floor"));
        for (Map.Entry<String, String> p : FLOOR_OF.entrySet()) {
            Long floor = p.getValue().isEmpty() ? null : r.floors().get(p.getValue());
            Long own = r.phases().get("own: " + p.getKey());
            out.append(String.format(Locale.ROOT, "  %-15s %8d %9s %7s  %s%n", p.getKey(), r.phases().getOrDefault(p.getKey(), 0L),
                    floor == null ? "-" : floor.toString(), own == null ? "-" : own.toString(),
                    p.getValue().isEmpty() ? "(ccci's)" : p.getValue()
                            + (p.getValue().equals("upgrade") && r.floors().containsKey("upgrade: all running")
                            ? " (all tasks running at " + r.floors().get("upgrade: all running") + ")" : "")
                            + (p.getValue().equals("backup") && r.floors().containsKey("restic init")
                            ? " (restic init apart: " + r.floors().get("restic init") + ")" : "")));
        }
        System.out.print(out);
    }

    private static Round round(DockerEngine docker, Path work, String recipe, int round) throws Exception {
        String runId = "bench-run-" + recipe + "-" + round;
        Path runs = Files.createDirectories(work.resolve(runId));
        Path results = ParallelRunsBench.mvnTest(runs, runId, recipe).get(0);
        Map<String, JsonNode> phases = new LinkedHashMap<>();
        JsonNode resultsJson = JSON.readTree(results.toFile());
        JsonNode timings = resultsJson.get("timings");
        timings.get("phases").forEach(p -> phases.put(p.get("phase").asText(), p));
        long total = timings.get("total_ms").asLong();
        JsonNode firstDeploy = phases.containsKey("dependencies") ? phases.get("dependencies") : phases.get("deploy");
        long preDeploy = firstDeploy.get("start_ms").asLong();
        Map<String, Long> grouped = new LinkedHashMap<>();
        grouped.put("pre-deploy", preDeploy);
        grouped.put("deployed", end(phases.get("convergence")) - preDeploy);
        for (String tier : List.of("ready-probe", "install", "upgrade", "backup", "restore")) {
            grouped.put(tier, phases.containsKey(tier) ? phases.get(tier).get("duration_ms").asLong() : 0L);
        }
        grouped.put("custom+lint", List.of("custom", "lint").stream().filter(phases::containsKey)
                .mapToLong(p -> phases.get(p).get("duration_ms").asLong()).sum());
        grouped.put("teardown", phases.get("teardown").get("duration_ms").asLong());
        grouped.put("after teardown", total - end(phases.get("teardown")));
        String log = Files.readString(results.getParent().resolve("run.log"));
        grouped.putAll(ownOfTiers(recipe, log));

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
        Matcher plan = Pattern
                .compile("== upgrade plan: deploy (\\S+) first, then upgrade in place to ([0-9a-f]{40}) ==").matcher(log);
        Optional<String[]> upgrade = plan.find() ? Optional.of(new String[] {plan.group(1), plan.group(2)}) : Optional.empty();
        // the base runs as long before its upgrade as in the run (ready probe and install checks), untimed
        Duration baseAge = Duration.ofMillis(phases.containsKey("upgrade")
                ? Math.max(0, phases.get("upgrade").get("start_ms").asLong() - end(phases.get("convergence"))) : 0);
        Map<String, Long> floors = floors(docker, work.resolve(runId + "-floor"), abra.resolve("recipes"), order,
                new Plan(upgrade, baseAge, phases.containsKey("backup")));
        floors.put("recipe waits", recipeWaits(resultsJson.path("customization").path("keys").path("READY_PROBE").asText("")));
        return new Round(total, grouped, floors);
    }

    /**
     * What of each tier is ccci's whatever its floor: its checks (the run's Surefire report, as
     * the run left it: {@code <recipe> > <tier> > <check>}). The upgrade's checks are not counted
     * so: they run while swarm holds the update open for its monitor window, which its floor waits
     * out too, and its {@code converged} check is that wait. What is ccci's of the upgrade is its
     * work before the redeploy's command (from the tier's start to the driver's second
     * {@code deploying} line of run.log: hooks, checkout, set-up, the config-version check) and
     * everything after swarm ended the update (from the tier's {@code converged} line to its end:
     * what of the checks, the picture and the service logs was left).
     */
    private static Map<String, Long> ownOfTiers(String recipe, String log) throws IOException {
        Map<String, Long> own = new LinkedHashMap<>();
        Path reports = Path.of("").toAbsolutePath().getParent().resolve("recipe-suites/target/surefire-reports");
        Pattern testcase = Pattern.compile(
                "<testcase name=\"" + Pattern.quote(recipe) + " &gt; ([a-z-]+) &gt; [^\"]*\"[^>]*time=\"([0-9.]+)\"");
        try (var xml = Files.list(reports)) {
            for (Path report : xml.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).toList()) {
                Matcher m = testcase.matcher(Files.readString(report));
                while (m.find()) {
                    if (!m.group(1).equals("upgrade")) {
                        own.merge("own: " + m.group(1), Math.round(Double.parseDouble(m.group(2)) * 1000), Long::sum);
                    }
                }
            }
        }
        String time = "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) [^\\n]*";
        Matcher upgrade = Pattern.compile("(?s)" + time + ">> " + Pattern.quote(recipe) + " upgrade started.*?" + time
                + "SwarmDriver - deploying.*?" + time + "SwarmConvergence - stack \\S+: converged\\n.*?" + time + "<< "
                + Pattern.quote(recipe) + " upgrade done").matcher(log);
        if (upgrade.find()) {
            own.merge("own: upgrade", between(upgrade.group(1), upgrade.group(2)) + between(upgrade.group(3), upgrade.group(4)),
                    Long::sum);
        }
        return own;
    }

    private static long between(String from, String to) {
        return Duration.between(LocalTime.parse(from), LocalTime.parse(to)).toMillis();
    }

    private static long end(JsonNode phase) {
        return phase.get("start_ms").asLong() + phase.get("duration_ms").asLong();
    }

    /** The pauses the recipe's READY_PROBE asks for: {@code tcp:<port>[:<N>]} is N connects one a second (N-1 s). */
    static long recipeWaits(String readyProbe) {
        String[] parts = readyProbe.split(":");
        if (!parts[0].equals("tcp")) {
            return 0;
        }
        int connects = parts.length > 2 ? Integer.parseInt(parts[2]) : 3;
        return Math.max(0, connects - 1) * 1000L;
    }

    /**
     * The floors, in the run's order: deploy (the base when the run upgraded), upgrade, backup,
     * restore, removal. {@code upgrade}: the run's base release and head commit, if it upgraded.
     */
    /** What the run did beyond its deploy: its upgrade (base release, head commit), how long its base ran first, a backup. */
    private record Plan(Optional<String[]> upgrade, Duration baseAge, boolean backup) {
    }

    private static Map<String, Long> floors(DockerEngine docker, Path dir, Path trees, List<String> recipes, Plan plan)
            throws Exception {
        Optional<String[]> upgrade = plan.upgrade();
        boolean backup = plan.backup();
        Path runDir = Files.createDirectories(dir);
        RunAbraDir abra = RunAbraDir.create(runDir, Files.createDirectories(dir.resolve("canonical")));
        ChildProcesses processes = new ChildProcesses(Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
        SwarmDriver driver = new SwarmDriver(docker, processes, Files.createDirectories(dir.resolve("backups")),
                abra.canonicalServers(), new DeployPolicy(DeployAllowance.NONE, processes));
        StackTeardown teardown = new StackTeardown(docker.client());
        RecipeFetch git = new RecipeFetch(processes);
        List<App> apps = new ArrayList<>();
        Set<String> stacks = new LinkedHashSet<>();
        Map<String, Long> floors = new LinkedHashMap<>();
        try {
            // the recipe's own tree copied, so the floor moves its copy (base, then head) and never the run's
            String recipe = recipes.get(recipes.size() - 1);
            Path own = Files.createDirectories(dir.resolve("tree"));
            processes.run(List.of("cp", "-a", trees.resolve(recipe).toString(), own.toString()), null, Map.of(),
                    Duration.ofMinutes(1)).orThrow();
            if (upgrade.isPresent()) {
                git.moveTo(own.resolve(recipe), upgrade.get()[0]);
            }
            for (String r : recipes) {
                App app = driver.newApp(r, "i16-floor-" + r + ".bench.local", r.equals(recipe) ? own.resolve(r) : trees.resolve(r),
                        abra);
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
            floors.put("deploy", deployFloor);
            App app = apps.get(apps.size() - 1);
            if (upgrade.isPresent()) {
                Thread.sleep(plan.baseAge().toMillis());
                git.moveTo(app.recipeDir(), upgrade.get()[1]);
                TierFloors.Upgrade upgraded = TierFloors.upgrade(docker, processes, app, tasks(docker, app.stack()));
                floors.put("upgrade", upgraded.settled());
                floors.put("upgrade: all running", upgraded.running());
            }
            if (backup) {
                TierFloors.Restic restic = new TierFloors.Restic(docker, processes, app.stack(), dir.resolve("restic"));
                long init = restic.init();
                floors.put("restic init", init);
                // ccci makes the repository while the upgrade's update runs (not in its backup phase) when it upgraded
                floors.put("backup", restic.backup() + (upgrade.isPresent() ? 0 : init));
                floors.put("restore", restic.restore());
            }
            long t1 = System.nanoTime();
            List<String> rm = new ArrayList<>(List.of("docker", "stack", "rm"));
            rm.addAll(stacks);
            processes.run(rm, runDir, Map.of(), Duration.ofMinutes(2)).orThrow();
            awaitGone(docker, stacks, t1);
            floors.put("removal", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
            return floors;
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

    private static void until(BooleanSupplier gone, long t0, Set<String> stacks) throws InterruptedException {
        while (!gone.getAsBoolean()) {
            if (System.nanoTime() - t0 > FLOOR_LIMIT.toNanos()) {
                throw new IllegalStateException("docker stack rm of " + stacks + " left objects after " + FLOOR_LIMIT);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
