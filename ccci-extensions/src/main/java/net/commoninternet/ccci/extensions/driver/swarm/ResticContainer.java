package net.commoninternet.ccci.extensions.driver.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.StreamType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.children.CappedOutput;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.waits.LongWait;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;

/**
 * restic, run for a backup or a restore in a short-lived container that mounts only the volumes it
 * reads or writes (at {@code /volumes/<volume>}), the run's repository and its password file.
 *
 * <p>Why not restic on the host: the app's container owns its volumes' contents and can swap a
 * directory for a symbolic link at any moment, after ccci checked the path and before restic opens
 * it. On the host, restic (root) would then read the host's files into the snapshot, or restore
 * through the link anywhere on the host. In this container every link resolves in the container's
 * own mount namespace, where nothing of the host exists but the repository and the password: the
 * root file system is the image's (restic and its libraries), read-only, with no network; the
 * volumes are read-only for a backup, the repository read-only for a restore. A link can at most
 * lead to another mounted volume of the same backup, or to the run's own repository.
 *
 * <p>Resource: one container per restic command, on the engine of the node the volumes are on
 * (a volume is node-local). Invariant: it never outlives its command; a run killed meanwhile leaves
 * one that its stack's teardown removes (it carries the stack's {@link StackLabels#NAMESPACE} label,
 * so the teardown, this run's or a janitor's, sees it on every node like a task container).
 * Linearization point: the engine's create of the labelled container.
 */
final class ResticContainer {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ResticContainer.class);

    /** Built by scripts/setup-local-swarm from the host's restic: restic and the libraries it links, nothing else. */
    static final String IMAGE = "ccci.local/restic:1";
    /** Names the stack a restic container works for. */
    static final String LABEL = "net.commoninternet.ccci.restic";
    private static final String REPOSITORY = "/repository";
    private static final String PASSWORD = "/password";

    /** What restic left: its exit status (null: it did not end in time), stdout and stderr, each capped. */
    record Ran(Long exit, String stdout, String stderr) {
        boolean ok() {
            return exit != null && exit == 0;
        }
    }

    private final String stack;
    private final Path repository;
    private final Path passwordFile;

    ResticContainer(String stack, Path repository, Path passwordFile) {
        this.stack = stack;
        this.repository = repository;
        this.passwordFile = passwordFile;
    }

    /**
     * Runs {@code restic <args>} on {@code engine} with {@code volumes} mounted (read-only unless
     * {@code restore}), for at most {@code bound}; the container is removed whatever happened.
     */
    Ran run(DockerClient engine, Collection<String> volumes, boolean restore, List<String> args, Duration bound)
            throws InterruptedException {
        List<Mount> mounts = new ArrayList<>();
        for (String volume : volumes) {
            mounts.add(new Mount().withType(MountType.VOLUME).withSource(volume)
                    .withTarget(BackupLabels.Place.VOLUMES_ROOT + "/" + volume).withReadOnly(!restore));
        }
        mounts.add(new Mount().withType(MountType.BIND).withSource(repository.toString()).withTarget(REPOSITORY)
                .withReadOnly(restore));
        mounts.add(new Mount().withType(MountType.BIND).withSource(passwordFile.toString()).withTarget(PASSWORD)
                .withReadOnly(true));
        List<String> command = new ArrayList<>(List.of("--no-cache"));
        if (restore) {
            command.add("--no-lock"); // the repository is read-only to it
        }
        command.addAll(args);
        String id;
        try {
            id = engine.createContainerCmd(IMAGE).withCmd(command)
                    .withEnv("RESTIC_REPOSITORY=" + REPOSITORY, "RESTIC_PASSWORD_FILE=" + PASSWORD)
                    .withLabels(Map.of(StackLabels.NAMESPACE, stack, LABEL, stack))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none").withReadonlyRootfs(true)
                            .withSecurityOpts(List.of("no-new-privileges"))
                            // /volumes writable (a tmpfs under the mounts): restic restores its directories' times too
                            .withTmpFs(Map.of("/tmp", "", BackupLabels.Place.VOLUMES_ROOT, ""))
                            .withMounts(mounts))
                    .exec().getId();
        } catch (NotFoundException e) {
            throw new IllegalStateException("the image " + IMAGE + " that backups run restic in is not on this node's engine: "
                    + "run scripts/setup-local-swarm (on a swarm of several nodes, load it on each node).", e);
        }
        try {
            engine.startContainerCmd(id).exec();
            Long exit = ContainerExec.awaitExit(engine, id, LongWait.begin(LOG, "restic " + args.get(0) + " of " + stack, bound));
            CappedOutput out = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
            CappedOutput err = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
            engine.logContainerCmd(id).withStdOut(true).withStdErr(true).exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    (frame.getStreamType() == StreamType.STDERR ? err : out).append(frame.getPayload(), frame.getPayload().length);
                }
            }).awaitCompletion(1, TimeUnit.MINUTES);
            return new Ran(exit, out.text(), err.text());
        } finally {
            try {
                engine.removeContainerCmd(id).withForce(true).exec();
            } catch (NotFoundException gone) {
                // removed already (a teardown that ran meanwhile)
            } catch (RuntimeException e) {
                // never masks what restic did: the stack's label lets its teardown remove the container
                LOG.warn("the restic container {} of {} could not be removed ({}); the stack's teardown removes it", id, stack,
                        DockerEngine.engineSays(e));
            }
        }
    }
}
