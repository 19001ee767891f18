package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apiguardian.api.API;

/**
 * What is deployed, read from the swarm: the recipe version label
 * ({@code coop-cloud.<stack>.version}, or the older {@code .app.version}: {@link RecipeLabels})
 * and each service's image. An upgrade has moved when this
 * equals the head's and differs from the base's.
 */
@API(status = API.Status.INTERNAL)
public record DeployedIdentity(Optional<String> version, Map<String, String> images) {

    public static DeployedIdentity read(DockerClient client, String stack) {
        Optional<String> version = Optional.empty();
        Map<String, String> images = new TreeMap<>();
        for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()) {
            Map<String, String> labels = service.getSpec().getLabels() == null ? Map.of() : service.getSpec().getLabels();
            Optional<String> declared = RecipeLabels.version(labels, stack);
            if (declared.isPresent()) {
                version = declared;
            }
            String name = service.getSpec().getName();
            images.put(name.startsWith(stack + "_") ? name.substring(stack.length() + 1) : name,
                    service.getSpec().getTaskTemplate().getContainerSpec().getImage());
        }
        return new DeployedIdentity(version, Map.copyOf(images));
    }
}
