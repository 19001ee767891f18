package net.commoninternet.ccci.extensions.probe;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ContainerSpecSecret;
import com.github.dockerjava.api.model.Service;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secret values the deployed app actually sees, read from inside its containers: for every
 * secret a service mounts, {@code cat} of its file in a running container of that service. The
 * embedded driver knows the values it generated; under the abra driver abra generates them and
 * its output is withheld, so this is how a run learns what to mask there. Read right after the
 * deploy converged, before anything the run writes (service logs, results) could contain them.
 *
 * <p>What a container prints is the container's choice (its image's {@code cat} is the recipe's):
 * a value shorter than {@link #MIN_FOUND} is not taken, so no container can have a word of the
 * verdict ({@code FAIL}, {@code converged}, a check's name) masked out of the log. The values ccci
 * generated are masked from their creation, whatever their length.
 */
@API(status = API.Status.INTERNAL)
public final class MountedSecrets {

    private static final Logger LOG = LoggerFactory.getLogger(MountedSecrets.class);

    /** The shortest value read from a container that is masked: a generated secret's length, not a word. */
    public static final int MIN_FOUND = 12;

    private MountedSecrets() {
    }

    /**
     * Secret name to value, for every secret a running service of the stack mounts whose (swarm)
     * name is not in {@code known}: the values ccci created are masked from their creation, and a
     * swarm secret's data never changes under its name, so only the others are read (under the
     * embedded driver, usually none: no exec at all). Never logged.
     */
    public static Map<String, String> read(DockerClient client, String stack, Set<String> known) throws InterruptedException {
        Map<String, String> values = new LinkedHashMap<>();
        ContainerExec exec = new ContainerExec(client);
        for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()) {
            ContainerSpec spec = service.getSpec().getTaskTemplate() == null ? null
                    : service.getSpec().getTaskTemplate().getContainerSpec();
            List<ContainerSpecSecret> secrets = spec == null || spec.getSecrets() == null ? List.of()
                    : spec.getSecrets().stream().filter(secret -> !known.contains(secret.getSecretName())).toList();
            if (secrets.isEmpty()) {
                continue;
            }
            String name = service.getSpec().getName();
            try {
                String container = exec.runningContainer(name);
                for (ContainerSpecSecret secret : secrets) {
                    String file = secret.getFile() == null || secret.getFile().getName() == null
                            ? secret.getSecretName() : secret.getFile().getName();
                    String path = file.startsWith("/") ? file : "/run/secrets/" + file;
                    ContainerExec.Result read = exec.sh(container, "cat '" + path.replace("'", "") + "'");
                    if (read.ok() && read.output().strip().length() >= MIN_FOUND) {
                        values.putIfAbsent(secret.getSecretName(), read.output());
                    } else if (read.ok()) {
                        LOG.warn("secret {} inside {} is shorter than {} characters: not masked (a container does not"
                                + " choose what the log hides)", secret.getSecretName(), name, MIN_FOUND);
                    } else {
                        LOG.warn("could not read secret {} inside {} (exit {}): values ccci did not generate stay"
                                + " unmasked", secret.getSecretName(), name, read.exitCode());
                    }
                }
            } catch (RuntimeException e) {
                // no running container, or it went away mid-read (a crash loop): the run goes on
                LOG.warn("could not read the mounted secrets of {}: {}", name, e.getMessage());
            }
        }
        return values;
    }
}
