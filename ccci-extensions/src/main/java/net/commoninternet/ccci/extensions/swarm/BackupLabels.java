package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Service;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/** The {@code backupbot.*} labels recipes put on their services, as backup-bot-two reads them. */
@API(status = API.Status.INTERNAL)
public final class BackupLabels {

    public static final String BACKUP = "backupbot.backup";
    public static final String PATH = "backupbot.backup.path";
    public static final String PRE_HOOK = "backupbot.backup.pre-hook";
    public static final String POST_HOOK = "backupbot.backup.post-hook";
    public static final String RESTORE_POST_HOOK = "backupbot.restore.post-hook";

    private BackupLabels() {
    }

    /** The stack's services labelled {@code backupbot.backup=true}, by name. */
    public static List<Service> services(DockerClient client, String stack) {
        return client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec().stream()
                .filter(s -> "true".equals(labels(s).get(BACKUP)))
                .sorted(Comparator.comparing(s -> s.getSpec().getName()))
                .toList();
    }

    /** Whether any service of the stack asks to be backed up. */
    public static boolean capable(DockerClient client, String stack) {
        return !services(client, stack).isEmpty();
    }

    /**
     * Where a run can seed a marker that a backup must hold: the first backupbot path of the
     * first backed-up service (or its first volume), as (service, container path).
     */
    public static Map.Entry<String, String> markerPlace(DockerClient client, String stack) {
        Service service = services(client, stack).stream().findFirst().orElseThrow(() -> new IllegalStateException(
                stack + " has no service labelled " + BACKUP + "=true"));
        String declared = labels(service).get(PATH);
        if (declared != null && !declared.isBlank()) {
            return Map.entry(service.getSpec().getName(), declared.split(",")[0].trim());
        }
        String container = new ContainerExec(client).runningContainer(service.getSpec().getName());
        InspectContainerResponse inspect = client.inspectContainerCmd(container).exec();
        String path = inspect.getMounts().stream().filter(m -> m.getName() != null && m.getDestination() != null)
                .map(m -> m.getDestination().getPath()).findFirst().orElseThrow(() -> new IllegalStateException(
                        service.getSpec().getName() + " has no volume to hold a marker"));
        return Map.entry(service.getSpec().getName(), path);
    }

    public static Map<String, String> labels(Service service) {
        return service.getSpec().getLabels() == null ? Map.of() : service.getSpec().getLabels();
    }
}
