package net.commoninternet.ccci.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Service;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.recipe.App;

/**
 * The engine-only floors of the tiers, for {@link RunBench}: what the engine (and restic) alone
 * take for the work a tier asks of them, with nothing of ccci's around it.
 * <ul>
 *   <li>upgrade: the same {@code docker stack deploy} command ccci's driver runs, of the head over
 *       the deployed base, from the command's start until every current-spec task runs
 *       ({@link ConvergenceBench#allRunning}, as the deploy floor), and until swarm itself reports
 *       the rolling update of every service whose task spec changed {@code completed} (its own
 *       end of the update: the update monitor window, {@code UpdateConfig.Monitor}, 5 s by default,
 *       is swarm's, and ccci may not call an app converged while it is {@code updating}:
 *       swarm-convergence.md, rule 1);
 *   <li>backup: {@code restic init} on the host as ccci does it (a new repository per run; timed
 *       apart, see {@link RunBench}), then the recipe's backup hooks ({@code docker exec ... sh -c})
 *       and a bare {@code docker run} of ccci's restic image with the mounts, options and command of
 *       ccci's {@code ResticContainer} for the backed-up volumes;
 *   <li>restore: the recipe's restore hooks and the same {@code docker run} for the restore.
 * </ul>
 * What to back up (the labelled places, the running containers) is found beforehand, untimed.
 */
final class TierFloors {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String RESTIC_IMAGE = "ccci.local/restic:1";

    private TierFloors() {
    }

    /** The upgrade's floor: until every current-spec task runs, and until swarm says each changed service's update completed. */
    record Upgrade(long running, long settled) {
    }

    /** The head over the deployed base, with the driver's deploy command: see the class comment. */
    static Upgrade upgrade(DockerEngine docker, ChildProcesses processes, App app, int wanted)
            throws IOException, InterruptedException {
        Map<String, JsonNode> before = taskTemplates(docker.http(), app.stack());
        long t0 = System.nanoTime();
        processes.run(SwarmDriver.deployCommand(app), app.recipeDir(), app.deployEnv(), Duration.ofMinutes(5)).orThrow();
        long running = ConvergenceBench.allRunning(docker.http(), t0, Set.of(app.stack()), wanted);
        while (true) {
            boolean settled = true;
            for (JsonNode service : services(docker.http(), app.stack())) {
                String name = service.path("Spec").path("Name").asText();
                if (service.path("Spec").path("TaskTemplate").equals(before.get(name))) {
                    continue; // no rolling update for this one
                }
                String state = service.path("UpdateStatus").path("State").asText("");
                if (state.startsWith("rollback") || state.equals("paused")) {
                    throw new IllegalStateException("the floor's upgrade of " + name + " did not complete: " + state + ", "
                            + service.path("UpdateStatus").path("Message").asText());
                }
                settled &= state.equals("completed");
            }
            if (settled) {
                return new Upgrade(running, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            }
            if (System.nanoTime() - t0 > LIMIT.toNanos()) {
                throw new IllegalStateException("the floor's upgrade of " + app.stack() + " did not complete within " + LIMIT);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** One stack's backup repository and what it backs up, found beforehand (untimed). */
    static final class Restic {
        private final DockerEngine docker;
        private final ChildProcesses processes;
        private final String stack;
        private final Path repository;
        private final Path password;
        /** Volume name to the places of it a backup holds ({@code /volumes/<volume>[/<path>]}). */
        private final Map<String, List<String>> places = new LinkedHashMap<>();
        /** Hook label to (container, script), in service-name order. */
        private final Map<String, List<String[]>> hooks = new LinkedHashMap<>();
        private String snapshot;

        Restic(DockerEngine docker, ChildProcesses processes, String stack, Path dir) throws IOException {
            this.docker = docker;
            this.processes = processes;
            this.stack = stack;
            this.repository = dir.resolve("restic");
            this.password = dir.resolve("password");
            Files.createDirectories(dir);
            Files.createFile(password, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(password, Long.toHexString(new java.security.SecureRandom().nextLong()) + "floor");
            ContainerExec exec = new ContainerExec(docker.client());
            for (Service service : BackupLabels.services(docker.client(), stack)) {
                String container = exec.runningContainer(service.getSpec().getName());
                for (BackupLabels.Place place : BackupLabels.places(service, BackupLabels.mounts(docker.client(), container))) {
                    places.computeIfAbsent(place.volume(), v -> new ArrayList<>()).add(place.inResticContainer());
                }
            }
            for (Service service : BackupLabels.all(docker.client(), stack)) {
                for (String label : List.of(BackupLabels.PRE_HOOK, BackupLabels.POST_HOOK, BackupLabels.RESTORE_PRE_HOOK,
                        BackupLabels.RESTORE_POST_HOOK)) {
                    String hook = BackupLabels.labels(service).get(label);
                    if (hook != null && !hook.isBlank()) {
                        hooks.computeIfAbsent(label, l -> new ArrayList<>())
                                .add(new String[] {exec.runningContainer(service.getSpec().getName()), hook});
                    }
                }
            }
            if (places.isEmpty()) {
                throw new IllegalStateException(stack + " backs up nothing: no backup floor");
            }
        }

        /** {@code restic init} on the host, as ccci makes the run's repository: the elapsed ms. */
        long init() throws IOException, InterruptedException {
            long t0 = System.nanoTime();
            processes.run(List.of("restic", "init"), null, Map.of("RESTIC_REPOSITORY", repository.toString(),
                    "RESTIC_PASSWORD_FILE", password.toString()), Duration.ofMinutes(2)).orThrow();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        }

        /** Backup hooks and the backup in restic's container (after {@link #init}): the elapsed ms. */
        long backup() throws IOException, InterruptedException {
            long t0 = System.nanoTime();
            hooks(BackupLabels.PRE_HOOK);
            List<String> args = new ArrayList<>(List.of("backup", "--json", "--tag", stack));
            places.values().forEach(args::addAll);
            String out = dockerRun(false, args);
            hooks(BackupLabels.POST_HOOK);
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            for (String line : out.lines().toList()) {
                if (line.startsWith("{") && line.contains("\"summary\"")) {
                    snapshot = JSON.readTree(line).path("snapshot_id").asText();
                }
            }
            if (snapshot == null || snapshot.isEmpty()) {
                throw new IllegalStateException("the floor's restic backup printed no snapshot id: " + out);
            }
            return elapsed;
        }

        /** Restore hooks around the restore of that backup in restic's container: the elapsed ms. */
        long restore() throws IOException, InterruptedException {
            long t0 = System.nanoTime();
            hooks(BackupLabels.RESTORE_PRE_HOOK);
            List<String> args = new ArrayList<>(List.of("restore", snapshot, "--target", "/"));
            places.keySet().forEach(v -> args.addAll(List.of("--include", BackupLabels.Place.VOLUMES_ROOT + "/" + v)));
            dockerRun(true, args);
            hooks(BackupLabels.RESTORE_POST_HOOK);
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        }

        private void hooks(String label) throws IOException, InterruptedException {
            for (String[] hook : hooks.getOrDefault(label, List.of())) {
                processes.run(List.of("docker", "exec", hook[0], "sh", "-c", hook[1]), null, Map.of(), LIMIT).orThrow();
            }
        }

        /** ccci's ResticContainer as one {@code docker run}: the same image, mounts, options and restic arguments. */
        private String dockerRun(boolean restore, List<String> args) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("docker", "run", "--rm", "--network", "none", "--read-only",
                    "--security-opt", "no-new-privileges", "--tmpfs", "/tmp", "--tmpfs", BackupLabels.Place.VOLUMES_ROOT,
                    "--label", StackLabels.NAMESPACE + "=" + stack,
                    "-e", "RESTIC_REPOSITORY=/repository", "-e", "RESTIC_PASSWORD_FILE=/password"));
            for (String volume : new TreeSet<>(places.keySet())) {
                command.addAll(List.of("--mount", "type=volume,source=" + volume + ",target=" + BackupLabels.Place.VOLUMES_ROOT
                        + "/" + volume + (restore ? "" : ",readonly")));
            }
            command.addAll(List.of("--mount", "type=bind,source=" + repository + ",target=/repository" + (restore ? ",readonly" : ""),
                    "--mount", "type=bind,source=" + password + ",target=/password,readonly", RESTIC_IMAGE, "--no-cache"));
            if (restore) {
                command.add("--no-lock");
            }
            command.addAll(args);
            return processes.run(command, null, Map.of(), LIMIT).orThrow().output();
        }
    }

    /** Service name to its task template, as the engine holds them now. */
    private static Map<String, JsonNode> taskTemplates(DockerHttpClient http, String stack) throws IOException {
        Map<String, JsonNode> templates = new LinkedHashMap<>();
        for (JsonNode service : services(http, stack)) {
            templates.put(service.path("Spec").path("Name").asText(), service.path("Spec").path("TaskTemplate"));
        }
        return templates;
    }

    private static JsonNode services(DockerHttpClient http, String stack) throws IOException {
        String filters = URLEncoder.encode("{\"label\":[\"" + StackLabels.NAMESPACE + "=" + stack + "\"]}", StandardCharsets.UTF_8);
        DockerHttpClient.Request request = DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET)
                .path("/services?filters=" + filters).build();
        try (DockerHttpClient.Response response = http.execute(request)) {
            return JSON.readTree(response.getBody());
        }
    }
}
