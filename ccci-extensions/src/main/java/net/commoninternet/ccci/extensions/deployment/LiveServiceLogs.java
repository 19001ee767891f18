package net.commoninternet.ccci.extensions.deployment;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.extensions.swarm.ServiceLog;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.spi.ServiceLogs;

/**
 * The logs of the app's stack and of its cold dependencies' stacks, each window bounded
 * ({@link ServiceLog}) and masked with every secret value the run knows (the app's and its
 * dependencies'), before anything leaves this class.
 */
record LiveServiceLogs(Deployment deployment) implements ServiceLogs {

    @Override
    public List<Service> services() {
        List<Service> services = new ArrayList<>(of(Optional.empty(), deployment.deployed()));
        for (App dep : deployment.deps().coldApps()) {
            services.addAll(of(Optional.of(dep.recipe()), dep));
        }
        return services;
    }

    private List<Service> of(Optional<String> dependency, App app) {
        String stack = app.stack();
        return client().listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec().stream()
                .map(s -> new Service(dependency, Deployment.composeName(stack, s.getSpec().getName()), s.getId()))
                .sorted(Comparator.comparing(Service::name)).toList();
    }

    @Override
    public String read(Service service, Instant after, Instant until) throws InterruptedException {
        App owner = service.dependency().flatMap(d -> deployment.deps().coldApps().stream()
                .filter(a -> a.recipe().equals(d)).findFirst()).orElse(deployment.deployed());
        Set<String> secrets = new HashSet<>(deployment.deployed().secretValues().values());
        secrets.addAll(deployment.deps().secretValues());
        return ServiceLog.read(client(), service.id(), owner.stack(), after, until).render(secrets);
    }

    private DockerClient client() {
        return deployment.tools().docker().client();
    }
}
