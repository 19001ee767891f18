package net.commoninternet.ccci.extensions.results;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.swarm.ServiceLog;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After each tier, the log of every service of the app's stack since the previous tier (since
 * the deploy, for the first) goes to {@code <runs dir>/<run id>/logs/<tier>/<service>.log} and is
 * attached to the tier's node of the test report; the services of its cold dependencies go to
 * {@code logs/<tier>/<dependency>/<service>.log}. Every secret value the run knows (the app's
 * and its dependencies') is masked before anything is written, and each file is bounded
 * ({@link ServiceLog}).
 *
 * <p>Evidence, never a judge: a failure to collect, write or attach a log is a warning, and the
 * tier's verdict is what its operation and checks made it.
 */
@API(status = API.Status.INTERNAL)
public final class TierServiceLogs implements RunExtension.AfterTier {

    private static final Logger LOG = LoggerFactory.getLogger(TierServiceLogs.class);

    /** Where the previous tier's window ended; absent before the first tier. */
    private record Collected(Instant until) {
    }

    @Override
    public void afterTier(RunContext run, Tier tier, Throwable failure) {
        Deployment deployment = Deployment.of(run);
        RunContext.Store store = run.store(TierServiceLogs.class);
        // The app did not exist before its deploy, so the first window starts at the epoch.
        Instant after = store.find(Collected.class).map(Collected::until).orElse(Instant.EPOCH);
        Instant until = Instant.now();
        store.put(Collected.class, new Collected(until));
        Path dir = run.settings().runDir().resolve("logs").resolve(tier.id());
        try {
            App app = deployment.app();
            Set<String> secrets = new HashSet<>(app.secretValues().values());
            secrets.addAll(deployment.deps().secretValues());
            LogWindow window = new LogWindow(run, deployment.docker().client(), secrets, after, until);
            window.writeStack(app.stack(), Files.createDirectories(dir));
            for (App dep : deployment.deps().coldApps()) {
                window.writeStack(dep.stack(), Files.createDirectories(dir.resolve(dep.recipe())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("service logs of tier {} not collected: the run was interrupted", tier.id());
        } catch (Exception e) {
            LOG.warn("could not collect the service logs of tier {} (the verdict stands): {}", tier.id(), e.toString());
        }
    }

    /** One tier's window of service logs, {@code (after, until]}, masked with every secret the run knows. */
    private record LogWindow(RunContext run, DockerClient client, Collection<String> secrets, Instant after, Instant until) {

        /** Every service of {@code stack}, one file each in {@code dir}. */
        void writeStack(String stack, Path dir) throws InterruptedException {
            for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()) {
                write(service, stack, dir);
            }
        }

        private void write(Service service, String stack, Path dir) throws InterruptedException {
            String name = service.getSpec().getName();
            String shortName = name.startsWith(stack + "_") ? name.substring(stack.length() + 1) : name;
            Path file = dir.resolve(shortName + ".log");
            try {
                ServiceLog.Window window = ServiceLog.read(client, service.getId(), stack, after, until);
                Files.writeString(file, window.render(secrets), StandardCharsets.UTF_8);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("could not collect the log of service {} (the verdict stands): {}", name, e.toString());
                return;
            }
            try {
                run.attach(file, "text/plain");
            } catch (Exception e) {
                LOG.warn("could not attach {} to the test report (the file stays): {}", file, e.toString());
            }
        }
    }
}
