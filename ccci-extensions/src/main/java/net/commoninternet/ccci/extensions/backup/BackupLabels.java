package net.commoninternet.ccci.extensions.backup;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Service;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.apiguardian.api.API;

/**
 * The {@code backupbot.*} labels recipes put on their services, read from the swarm as
 * backup-bot-two reads them (so list and map form in the compose are the same: {@code docker
 * stack deploy} makes both a label map, and interpolates {@code "${ENABLE_BACKUPS:-true}"}).
 *
 * <ul>
 *   <li>{@code backupbot.backup=true}: the service's data is backed up; several services may say
 *       so;
 *   <li>what is backed up of such a service: the comma list {@code backupbot.backup.path} of
 *       paths in its container (the older form); else every named volume it mounts, except one
 *       labelled {@code backupbot.backup.volumes.<volume>=false}, limited to the comma list
 *       {@code backupbot.backup.volumes.<volume>.path} (paths relative to the volume's root) when
 *       set. {@code <volume>} is the compose volume's key, without the stack prefix;
 *   <li>hooks, on any service of the stack, run in its running container with {@code sh -c}:
 *       {@code backupbot.backup.pre-hook}/{@code post-hook} around the backup,
 *       {@code backupbot.restore.pre-hook}/{@code post-hook} around the restore.
 * </ul>
 */
@API(status = API.Status.INTERNAL)
public final class BackupLabels {

    public static final String BACKUP = "backupbot.backup";
    public static final String PATH = "backupbot.backup.path";
    public static final String VOLUMES = "backupbot.backup.volumes.";
    public static final String PRE_HOOK = "backupbot.backup.pre-hook";
    public static final String POST_HOOK = "backupbot.backup.post-hook";
    public static final String RESTORE_PRE_HOOK = "backupbot.restore.pre-hook";
    public static final String RESTORE_POST_HOOK = "backupbot.restore.post-hook";

    /**
     * One place a backup holds: its service, the path in the service's container, where that is on
     * the host, the named volume it is on and the path inside that volume ({@code ""}: its root).
     */
    public record Place(String service, String containerPath, String hostPath, String volume, String inVolume) {

        /** Where the volumes of a backup are mounted in the container restic runs in. */
        public static final String VOLUMES_ROOT = "/volumes";

        /** The place in restic's container, which mounts each volume at {@code /volumes/<volume>}. */
        public String inResticContainer() {
            return VOLUMES_ROOT + "/" + volume + (inVolume.isEmpty() ? "" : "/" + inVolume);
        }
    }

    private BackupLabels() {
    }

    /** The stack's services labelled {@code backupbot.backup=true}, by name. */
    public static List<Service> services(DockerClient client, String stack) {
        return backedUp(all(client, stack));
    }

    /** Those of {@code services} labelled {@code backupbot.backup=true}, in their order. */
    public static List<Service> backedUp(List<Service> services) {
        return services.stream().filter(s -> "true".equalsIgnoreCase(labels(s).get(BACKUP))).toList();
    }

    /** Every service of the stack, by name: hooks may be on any of them. */
    public static List<Service> all(DockerClient client, String stack) {
        return client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec().stream()
                .sorted(Comparator.comparing(s -> s.getSpec().getName())).toList();
    }

    /** Whether any service of the stack asks to be backed up. */
    public static boolean capable(DockerClient client, String stack) {
        return !services(client, stack).isEmpty();
    }

    /** What a backup holds of {@code service}, given the mounts of its running container. */
    public static List<Place> places(Service service, List<InspectContainerResponse.Mount> mounts) {
        Map<String, String> labels = labels(service);
        String name = service.getSpec().getName();
        List<Place> places = new ArrayList<>();
        String declared = labels.get(PATH);
        if (declared != null && !declared.isBlank()) {
            for (String path : commaList(declared)) {
                String normal = Path.of(path).normalize().toString(); // "/var/www/../../etc" is /etc, on no volume
                places.add(onVolume(name, mounts, normal));
            }
            return places;
        }
        String stack = labels.getOrDefault(StackLabels.NAMESPACE, "");
        for (InspectContainerResponse.Mount mount : mounts) {
            if (mount.getName() == null || mount.getSource() == null || mount.getDestination() == null) {
                continue; // named volumes only, not binds
            }
            String volume = mount.getName().startsWith(stack + "_") ? mount.getName().substring(stack.length() + 1)
                    : mount.getName();
            if ("false".equalsIgnoreCase(labels.get(VOLUMES + volume))) {
                continue;
            }
            String dest = mount.getDestination().getPath();
            String subPaths = labels.get(VOLUMES + volume + ".path");
            if (subPaths == null || subPaths.isBlank()) {
                places.add(new Place(name, dest, mount.getSource(), mount.getName(), ""));
                continue;
            }
            for (String sub : commaList(subPaths)) {
                String relative = sub.replaceFirst("^/+", ""); // "/" is the volume's root, not the container's
                Path onHost = Path.of(mount.getSource(), relative).normalize();
                if (!onHost.startsWith(Path.of(mount.getSource()))) {
                    throw new IllegalStateException(VOLUMES + volume + ".path " + sub + " of " + name + " leaves the volume:"
                            + " name a path inside it, relative to its root.");
                }
                places.add(new Place(name, Path.of(dest, relative).normalize().toString(),
                        insideItsVolume(name, mount.getSource(), onHost).toString(), mount.getName(),
                        Path.of(mount.getSource()).relativize(onHost).toString()));
            }
        }
        return places;
    }

    /**
     * Where a run can seed a marker that a backup must hold: the first place of the backed-up
     * services (by name) that is a directory in the running container now, as (service, container
     * path). Empty when every place is a file (a dump a pre-hook writes, say). {@code exec} finds
     * each container on its node; the container is inspected on that node's engine.
     */
    public static Optional<Map.Entry<String, String>> markerPlace(DockerClient client, ContainerExec exec, String stack)
            throws InterruptedException {
        return markerPlace(client, exec, stack, (container, path) -> exec.sh(container, "test -d " + ContainerExec.quoted(path)).ok());
    }

    /** One try at a place: true when it is taken (a directory, say); an exec in the container, usually. */
    @FunctionalInterface
    public interface PlaceTry {
        boolean take(String container, String containerPath) throws InterruptedException;
    }

    /**
     * As {@link #markerPlace(DockerClient, ContainerExec, String)}, but each place is tried by
     * {@code tryPlace} (the backup's seeding checks the directory and writes the marker in one
     * exec): the first place it takes.
     */
    public static Optional<Map.Entry<String, String>> markerPlace(DockerClient client, ContainerExec exec, String stack,
            PlaceTry tryPlace) throws InterruptedException {
        for (Service service : services(client, stack)) {
            String container = exec.runningContainer(service.getSpec().getName());
            for (Place place : places(service, mounts(exec.engineOf(container), container))) {
                if (tryPlace.take(container, place.containerPath())) {
                    return Optional.of(Map.entry(place.service(), place.containerPath()));
                }
            }
        }
        return Optional.empty();
    }

    public static List<InspectContainerResponse.Mount> mounts(DockerClient client, String container) {
        List<InspectContainerResponse.Mount> mounts = client.inspectContainerCmd(container).exec().getMounts();
        return mounts == null ? List.of() : mounts;
    }

    public static Map<String, String> labels(Service service) {
        return service.getSpec().getLabels() == null ? Map.of() : service.getSpec().getLabels();
    }

    private static List<String> commaList(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList();
    }

    private static Place onVolume(String service, List<InspectContainerResponse.Mount> mounts, String containerPath) {
        // the service's own volumes only: a bind (the host's file) is never a place of a backup
        Optional<InspectContainerResponse.Mount> mount = mounts.stream()
                .filter(m -> m.getName() != null && m.getDestination() != null
                        && isUnder(containerPath, m.getDestination().getPath()))
                .max(Comparator.comparingInt(m -> m.getDestination().getPath().length()));
        if (mount.isEmpty() || mount.get().getSource() == null) {
            throw new IllegalStateException(PATH + " " + containerPath + " of " + service
                    + " is not on a volume, so it would not survive the container: mount a volume there.");
        }
        String rest = containerPath.substring(mount.get().getDestination().getPath().length());
        Path source = Path.of(mount.get().getSource());
        Path onHost = insideItsVolume(service, mount.get().getSource(), Path.of(mount.get().getSource() + rest).normalize());
        return new Place(service, containerPath, onHost.toString(), mount.get().getName(), source.relativize(onHost).toString());
    }

    /**
     * {@code onHost}, if it is inside the volume once every link in it is followed: the container
     * owns its volume's contents, so {@code ln -s / /data/h} and a path {@code h/etc} would have
     * ccci's restic (root, on the host) read the host's /etc, and a restore write it. The deepest
     * part of the path that exists is resolved; what does not exist yet cannot be a link.
     */
    static Path insideItsVolume(String service, String volumeSource, Path onHost) {
        Path root = Path.of(volumeSource);
        try {
            Path realRoot = root.toRealPath();
            Path existing = onHost;
            while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            if (existing == null || !existing.startsWith(root) || existing.toRealPath().startsWith(realRoot)) {
                return onHost;
            }
        } catch (IOException unresolvable) {
            // a link to nowhere, or a volume not on this host (the abra driver's remote server): nothing to follow
            return onHost;
        }
        throw new IllegalStateException("the backup path " + onHost + " of " + service + " leads out of its volume through"
                + " a symbolic link in it: a backup holds only the service's own volume; name a path without links.");
    }

    private static boolean isUnder(String path, String dir) {
        return path.equals(dir) || path.startsWith(dir.endsWith("/") ? dir : dir + "/");
    }
}
