package net.commoninternet.ccci.extensions;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes everything of one stack, in the order swarm allows: services, then (once their
 * containers are really gone: {@code docker stack rm} returns before they are) volumes,
 * secrets, configs and networks. Idempotent and tolerant of half-removed stacks, so the
 * janitor can reap with it and a second teardown is a no-op. Uses docker-java only: no child
 * process that a second TERM to the process group could kill mid-teardown.
 */
final class StackTeardown {

    private static final Logger LOG = LoggerFactory.getLogger(StackTeardown.class);
    private static final Duration CONTAINERS_GONE = Duration.ofMinutes(3);
    private static final Duration REMOVE_RETRY = Duration.ofSeconds(60);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final DockerClient client;

    StackTeardown(DockerClient client) {
        this.client = client;
    }

    /**
     * {@code abra app undeploy} + {@code app rm} of one app: its stack, then its env files under
     * the canonical {@code servers/}. Idempotent; the janitor's reap and the run's own teardown
     * both come here. Returns what is still there afterwards (empty = clean).
     */
    List<String> teardownApp(String domain, java.nio.file.Path servers) throws java.io.IOException {
        List<String> left = teardown(AppNaming.stackName(domain));
        if (java.nio.file.Files.isDirectory(servers)) {
            try (java.util.stream.Stream<java.nio.file.Path> dirs = java.nio.file.Files.list(servers)) {
                for (java.nio.file.Path dir : (Iterable<java.nio.file.Path>) dirs::iterator) {
                    java.nio.file.Files.deleteIfExists(dir.resolve(domain + ".env"));
                }
            }
        }
        return left;
    }

    /** Removes the stack; returns what is still there afterwards (empty = clean). */
    List<String> teardown(String stack) {
        String label = StackLabels.filter(stack);
        client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> ignoreMissing(() -> client.removeServiceCmd(s.getId()).exec()));
        client.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(StackLabels.PROBE, stack)).exec()
                .forEach(c -> ignoreMissing(() -> client.removeContainerCmd(c.getId()).withForce(true).exec()));
        waitUntil(() -> client.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec().isEmpty(),
                CONTAINERS_GONE);
        retryRemove(() -> {
            client.listVolumesCmd().withFilter("label", List.of(label)).exec().getVolumes()
                    .forEach(v -> ignoreMissing(() -> client.removeVolumeCmd(v.getName()).exec()));
        });
        client.listSecretsCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> ignoreMissing(() -> client.removeSecretCmd(s.getId()).exec()));
        client.listConfigsCmd().withFilters(Map.of("label", List.of(label))).exec()
                .forEach(c -> ignoreMissing(() -> client.removeConfigCmd(c.getId()).exec()));
        retryRemove(() -> client.listNetworksCmd().withFilter("label", List.of(label)).exec()
                .forEach(n -> ignoreMissing(() -> client.removeNetworkCmd(n.getId()).exec())));
        List<String> left = leftovers(stack);
        if (left.isEmpty()) {
            LOG.info("stack {} removed: no service, container, volume, secret, config or network left", stack);
        } else {
            LOG.warn("stack {} teardown left: {}", stack, left);
        }
        return left;
    }

    /** Everything of the stack that still exists, named by kind. */
    List<String> leftovers(String stack) {
        String label = StackLabels.filter(stack);
        List<String> left = new ArrayList<>();
        client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> left.add("service " + s.getSpec().getName()));
        client.listContainersCmd().withShowAll(true).withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(c -> left.add("container " + String.join(",", c.getNames())));
        client.listVolumesCmd().withFilter("label", List.of(label)).exec().getVolumes()
                .forEach(v -> left.add("volume " + v.getName()));
        client.listSecretsCmd().withLabelFilter(StackLabels.of(stack)).exec()
                .forEach(s -> left.add("secret " + s.getSpec().getName()));
        client.listConfigsCmd().withFilters(Map.of("label", List.of(label))).exec()
                .forEach(c -> left.add("config " + c.getSpec().getName()));
        client.listNetworksCmd().withFilter("label", List.of(label)).exec()
                .forEach(n -> left.add("network " + n.getName()));
        return left;
    }

    /** Volumes in use and networks with "active endpoints" free up once containers are gone. */
    private void retryRemove(Runnable removal) {
        long deadline = System.nanoTime() + REMOVE_RETRY.toNanos();
        while (true) {
            try {
                removal.run();
                return;
            } catch (ConflictException | com.github.dockerjava.api.exception.InternalServerErrorException e) {
                if (System.nanoTime() > deadline) {
                    LOG.warn("giving up a removal after {} s: {}", REMOVE_RETRY.toSeconds(), e.getMessage());
                    return;
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static void ignoreMissing(Runnable removal) {
        try {
            removal.run();
        } catch (NotFoundException e) {
            // already gone: teardown is idempotent
        } catch (DockerException e) {
            if (!String.valueOf(e.getMessage()).contains("not found")) {
                throw e;
            }
        }
    }
}
