package net.commoninternet.ccci.extensions.results;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.run.ColdDeps;
import net.commoninternet.ccci.extensions.swarm.ServiceLog;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
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
public final class TierServiceLogs implements RunExtension.AfterTier {

    private static final Logger LOG = LoggerFactory.getLogger(TierServiceLogs.class);

    /** Where the previous tier's window ended; absent before the first tier. */
    private record Collected(Instant until) {
    }

    @Override
    public void afterTier(RunContext run, Tier tier, Throwable failure) {
        Optional<Deployment> deployment = run.find(Deployment.class);
        if (deployment.isEmpty()) {
            return;
        }
        // The app did not exist before its deploy, so the first window starts at the epoch.
        Instant after = run.find(Collected.class).map(Collected::until).orElse(Instant.EPOCH);
        Instant until = Instant.now();
        run.put(Collected.class, new Collected(until));
        Path dir = run.settings().runsDir().resolve(run.settings().runId()).resolve("logs").resolve(tier.id());
        try {
            App app = deployment.get().app();
            DockerClient client = deployment.get().docker().client();
            java.util.List<App> deps = run.find(ColdDeps.class).map(ColdDeps::deployed).orElse(java.util.List.of()).stream()
                    .filter(d -> !d.warm() && d.app() != null).map(ColdDeps.Dep::app).toList();
            java.util.Set<String> secrets = new java.util.HashSet<>(app.secretValues().values());
            deps.forEach(d -> secrets.addAll(d.secretValues().values()));
            Files.createDirectories(dir);
            for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(app.stack())).exec()) {
                write(run, client, service, app.stack(), dir, secrets, after, until);
            }
            for (App dep : deps) {
                Path depDir = Files.createDirectories(dir.resolve(dep.recipe()));
                for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(dep.stack())).exec()) {
                    write(run, client, service, dep.stack(), depDir, secrets, after, until);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("service logs of tier {} not collected: the run was interrupted", tier.id());
        } catch (Exception e) {
            LOG.warn("could not collect the service logs of tier {} (the verdict stands): {}", tier.id(), e.toString());
        }
    }

    private static void write(RunContext run, DockerClient client, Service service, String stack, Path dir,
            java.util.Collection<String> secrets, Instant after, Instant until) throws InterruptedException {
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
