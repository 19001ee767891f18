package net.commoninternet.ccci.extensions.driver.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.waits.LongWait;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.waits.Waits;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RecipeSaid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backup and restore of an app the way backup-bot-two does it in production, embedded: the
 * services labelled {@code backupbot.backup=true} name what is backed up (their volumes, or the
 * paths their labels name: {@link BackupLabels}), the stack's services may carry hooks
 * ({@code backupbot.backup.pre-hook}/{@code post-hook}, {@code backupbot.restore.pre-hook}/
 * {@code post-hook}, run with {@code sh -c} inside the running container, in service-name order);
 * the places are read from the volumes they live on with restic (what backup-bot-two uses), run
 * in a {@link ResticContainer} that mounts only those volumes, never on the host. One restic
 * repository per run, in the run's folder, with a generated password that never leaves that folder.
 */
final class BackupBot {

    private static final Logger LOG = LoggerFactory.getLogger(BackupBot.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration CONVERGED_BEFORE_BACKUP = Duration.ofSeconds(300);
    private static final Duration RESTIC_BOUND = Duration.ofMinutes(30);


    /** A backup: restic's snapshot id (one per node, comma-separated) and the paths it holds ({@code /volumes/<volume>/...}). */
    record Snapshot(String id, List<String> paths) {
    }

    private final DockerEngine docker;
    private final ChildProcesses processes;
    private final Path repository;
    private final Path passwordFile;
    private final Duration hookTimeout;
    /** One for the bot: it remembers which node's engine runs each container it found (a multi-node swarm). */
    private ContainerExec exec;
    /** The run's repository once {@code restic init} has made it (or failed to); null until asked for. */
    private CompletableFuture<Void> repositoryMade;

    /** Hooks bounded by the default ({@link RunSettings.HostTrust#DEFAULT_HOOK_TIMEOUT}). */
    BackupBot(DockerEngine docker, ChildProcesses processes, Path backupDir) {
        this(docker, processes, backupDir, RunSettings.HostTrust.DEFAULT_HOOK_TIMEOUT);
    }

    /** @param hookTimeout how long one of the recipe's hooks may run in its container ({@code ccci.hook-timeout}) */
    BackupBot(DockerEngine docker, ChildProcesses processes, Path backupDir, Duration hookTimeout) {
        this.hookTimeout = hookTimeout;
        this.docker = docker;
        this.processes = processes;
        this.repository = backupDir.resolve("restic");
        this.passwordFile = backupDir.resolve("password");
    }

    /**
     * Waits (bounded) for the stack to converge, runs the hooks, and snapshots every labelled path:
     * restic reads them in a {@link ResticContainer} on the node of the service's container (one
     * snapshot per node; their ids joined by commas when the services run on several).
     */
    Snapshot backup(String stack) throws IOException, InterruptedException {
        SwarmConvergence.Report converged = new SwarmConvergence(docker).await(stack, CONVERGED_BEFORE_BACKUP);
        if (!converged.converged()) {
            throw new IllegalStateException("backup of " + stack + " refused: the app is not converged: " + converged.describe());
        }
        // one list of the stack's services for the whole backup: the hooks' and the backed-up ones (specs do not change in it)
        List<Service> all = BackupLabels.all(docker.client(), stack);
        List<Service> services = BackupLabels.backedUp(all);
        if (services.isEmpty()) {
            throw new IllegalStateException(stack + " has no service labelled " + BackupLabels.BACKUP + "=true: nothing to back up.");
        }
        prepareRepository();
        hooks(all, BackupLabels.PRE_HOOK);
        Map<DockerClient, List<BackupLabels.Place>> byNode = places(services);
        awaitRepository();
        List<String> ids = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (Map.Entry<DockerClient, List<BackupLabels.Place>> node : byNode.entrySet()) {
            List<String> held = node.getValue().stream().map(BackupLabels.Place::inResticContainer).toList();
            List<String> command = new ArrayList<>(List.of("backup", "--json", "--tag", stack));
            command.addAll(held);
            ResticContainer.Ran ran = restic(stack).run(node.getKey(), volumes(node.getValue()), false, command, RESTIC_BOUND);
            ids.add(snapshotId(orThrow(ran, "backup", stack)));
            paths.addAll(held);
        }
        String id = String.join(",", ids);
        hooks(all, BackupLabels.POST_HOOK);
        LOG.info("backup of {}: snapshot {} of {}", stack, id, paths);
        return new Snapshot(id, List.copyOf(paths));
    }

    /**
     * Runs the restore pre-hooks, puts the snapshot's files back where they came from (restic in a
     * {@link ResticContainer} per node, writing only into the volumes it mounts), then runs the post-hooks.
     */
    void restore(String stack, String snapshotId) throws IOException, InterruptedException {
        List<Service> all = BackupLabels.all(docker.client(), stack);
        hooks(all, BackupLabels.RESTORE_PRE_HOOK);
        // the places again, as the volumes are now: a link the app planted since the backup is refused early, in one line
        Map<DockerClient, List<BackupLabels.Place>> byNode = places(BackupLabels.backedUp(all));
        for (Map.Entry<DockerClient, List<BackupLabels.Place>> node : byNode.entrySet()) {
            Set<String> volumes = volumes(node.getValue());
            for (String id : snapshotId.split(",")) {
                List<String> command = new ArrayList<>(List.of("restore", id, "--target", "/"));
                volumes.forEach(v -> command.addAll(List.of("--include", BackupLabels.Place.VOLUMES_ROOT + "/" + v)));
                orThrow(restic(stack).run(node.getKey(), volumes, true, command, RESTIC_BOUND), "restore", stack);
            }
        }
        hooks(all, BackupLabels.RESTORE_POST_HOOK);
        LOG.info("restore of {}: snapshot {} restored", stack, snapshotId);
    }

    /** Every labelled place of the services, by the engine of the node its service's running container is on. */
    private Map<DockerClient, List<BackupLabels.Place>> places(List<Service> services) {
        Map<DockerClient, List<BackupLabels.Place>> byNode = new LinkedHashMap<>();
        for (Service service : services) {
            String container = runningContainer(service);
            DockerClient engine = exec().engineOf(container);
            byNode.computeIfAbsent(engine, e -> new ArrayList<>()).addAll(places(service, engine, container));
        }
        return byNode;
    }

    private static Set<String> volumes(List<BackupLabels.Place> places) {
        return places.stream().map(BackupLabels.Place::volume).collect(Collectors.toCollection(TreeSet::new));
    }

    private ResticContainer restic(String stack) {
        return new ResticContainer(stack, repository, passwordFile);
    }

    /** restic's stdout if it exited 0; else one sentence with its exit and the end of what it said. */
    private static String orThrow(ResticContainer.Ran ran, String what, String stack) {
        if (ran.exit() == null) {
            throw new IllegalStateException("restic " + what + " of " + stack + " did not finish within "
                    + RESTIC_BOUND.toMinutes() + " min; its container was removed.");
        }
        if (!ran.ok()) {
            throw new IllegalStateException("restic " + what + " of " + stack + " exited " + ran.exit() + ": "
                    + ran.stderr().strip());
        }
        return ran.stdout();
    }

    /** The hook {@code label} of every service of the stack ({@code all}, by name) that has one, in service-name order. */
    private void hooks(List<Service> all, String label) throws InterruptedException {
        for (Service service : all) {
            String hook = BackupLabels.labels(service).get(label);
            if (hook != null && !hook.isBlank()) {
                hook(runningContainer(service), service, label, hook);
            }
        }
    }

    /** The snapshot id from restic's JSON summary line. */
    static String snapshotId(String resticJsonOutput) {
        for (String line : resticJsonOutput.lines().toList()) {
            if (!line.startsWith("{")) {
                continue;
            }
            try {
                JsonNode message = JSON.readTree(line);
                if ("summary".equals(message.path("message_type").asText()) && message.hasNonNull("snapshot_id")) {
                    return message.get("snapshot_id").asText();
                }
            } catch (IOException e) {
                // not a JSON message line
            }
        }
        throw new IllegalStateException("restic printed no snapshot id; its output began: "
                + resticJsonOutput.lines().limit(5).toList());
    }

    /** What the service's labels back up (inside the volumes they are on, checked on the host's view of them). */
    private static List<BackupLabels.Place> places(Service service, DockerClient engine, String container) {
        List<BackupLabels.Place> paths = BackupLabels.places(service, BackupLabels.mounts(engine, container));
        if (paths.isEmpty()) {
            throw new IllegalStateException(service.getSpec().getName() + " has " + BackupLabels.BACKUP + "=true but backs up"
                    + " nothing: mount a volume, or name a path on one (" + BackupLabels.PATH + ", "
                    + BackupLabels.VOLUMES + "<volume>.path).");
        }
        return paths;
    }

    private String runningContainer(Service service) {
        return exec().runningContainer(service.getSpec().getName());
    }

    private synchronized ContainerExec exec() {
        if (exec == null) {
            exec = new ContainerExec(docker.client());
        }
        return exec;
    }

    /** Runs the service's hook with {@code sh -c} in its container; non-zero fails the operation. */
    private void hook(String container, Service service, String label, String hook) throws InterruptedException {
        ContainerExec.Result result = exec().sh(container, hook,
                LongWait.begin(LOG, label + " of " + service.getSpec().getName(), hookTimeout)).orElseThrow(() -> new IllegalStateException(
                label + " of " + service.getSpec().getName() + " did not finish within " + hookTimeout.toSeconds()
                        + " s: a hook must end; this host bounds it with -Dccci.hook-timeout=" + hookTimeout.toSeconds()
                        + " (the hook goes on in the container until the teardown removes it)."));
        if (!result.ok()) {
            throw RecipeSaid.quotedIn(new IllegalStateException(label + " of " + service.getSpec().getName() + " exited "
                    + result.exitCode() + ": " + result.output()), result.output());
        }
        LOG.info("{} of {} ran", label, service.getSpec().getName());
    }

    /**
     * Starts making the run's restic repository (its password file, then {@code restic init} on
     * the host, in the run's folder: nothing of the app is read) on a thread of its own, once per
     * bot. {@code restic init} is about 2 s of key derivation on this machine kind: begun while the
     * run waits on swarm (the upgrade's rolling update), it is off the backup's path. Resource: the
     * run's backup folder, written by that one thread only; the backup reads it after
     * {@link #awaitRepository} (the future's completion is the linearization point), and the run's
     * teardown waits for it ({@link #settle}), so the child never outlives the run.
     */
    synchronized void prepareRepository() {
        if (repositoryMade != null) {
            return;
        }
        repositoryMade = new CompletableFuture<>();
        Thread init = new Thread(() -> {
            try {
                makeRepository();
                repositoryMade.complete(null);
            } catch (Exception | Error e) {
                repositoryMade.completeExceptionally(e);
            }
        }, "ccci-restic-init");
        init.setDaemon(true);
        init.start();
    }

    /** The repository made (started now if nobody asked before); its failure as it was thrown. */
    void awaitRepository() throws IOException, InterruptedException {
        prepareRepository();
        CompletableFuture<Void> made;
        synchronized (this) {
            made = repositoryMade;
        }
        try {
            made.get();
        } catch (ExecutionException e) {
            synchronized (this) {
                if (repositoryMade == made) {
                    repositoryMade = null; // a later backup tries again
                }
            }
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof InterruptedException stopped) {
                throw stopped;
            }
            throw new IllegalStateException("making the run's restic repository failed: " + e.getCause(), e.getCause());
        }
    }

    /** Waits (bounded) for a repository still being made, whatever comes of it: for the run's teardown. */
    void settle() {
        CompletableFuture<Void> made;
        synchronized (this) {
            made = repositoryMade;
        }
        if (made == null) {
            return;
        }
        Waits.awaitEnd(made, Duration.ofMinutes(2));
    }

    private void makeRepository() throws IOException, InterruptedException {
        if (Files.exists(repository.resolve("config"))) {
            return;
        }
        Files.createDirectories(passwordFile.getParent());
        if (!Files.exists(passwordFile)) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Files.createFile(passwordFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(passwordFile, HexFormat.of().formatHex(secret));
        }
        processes.run(List.of("restic", "init"), null, resticEnv(), Duration.ofMinutes(2)).orThrow();
    }

    private Map<String, String> resticEnv() {
        return Map.of("RESTIC_REPOSITORY", repository.toString(), "RESTIC_PASSWORD_FILE", passwordFile.toString());
    }

}
