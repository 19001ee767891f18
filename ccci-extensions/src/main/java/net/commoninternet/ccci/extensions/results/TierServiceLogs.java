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
 * ({@link ServiceLog}); what a run writes of them in all is bounded by {@link #RUN_BUDGET_BYTES}:
 * past it, a service's log file holds one line saying it was left out.
 *
 * <p>Evidence, never a judge: a failure to collect, write or attach a log is a warning, and the
 * tier's verdict is what its operation and checks made it.
 */
@API(status = API.Status.INTERNAL)
public final class TierServiceLogs implements RunExtension.AfterTier {

    private static final Logger LOG = LoggerFactory.getLogger(TierServiceLogs.class);

    /** What one run may write of service logs in all, every tier, service and dependency together. */
    static final long RUN_BUDGET_BYTES = 64L << 20;

    /** Where the previous tier's window ended; absent before the first tier. */
    private record Collected(Instant until) {
    }

    /** The bytes of service logs this run has written so far. */
    private record Written(java.util.concurrent.atomic.AtomicLong bytes) {
    }

    @Override
    public void afterTier(RunContext run, Tier tier, Throwable failure) {
        Deployment deployment = Deployment.of(run);
        RunContext.Store store = run.store(TierServiceLogs.class);
        // The app did not exist before its deploy, so the first window starts at the epoch.
        Instant after = store.find(Collected.class).map(Collected::until).orElse(Instant.EPOCH);
        Instant until = Instant.now();
        store.put(Collected.class, new Collected(until));
        Written written = store.find(Written.class).orElseGet(() -> new Written(new java.util.concurrent.atomic.AtomicLong()));
        store.put(Written.class, written);
        Path dir = run.settings().runDir().resolve("logs").resolve(tier.id());
        try {
            App app = deployment.app();
            Set<String> secrets = new HashSet<>(app.secretValues().values());
            secrets.addAll(deployment.deps().secretValues());
            LogWindow window = new LogWindow(run, deployment.docker().client(), secrets, new Span(after, until), written);
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

    /** A tier's window of time, {@code (after, until]}. */
    private record Span(Instant after, Instant until) {
    }

    /** One tier's window of service logs, masked with every secret the run knows, within the run's budget. */
    private record LogWindow(RunContext run, DockerClient client, Collection<String> secrets, Span span, Written written) {

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
                if (written.bytes().get() >= RUN_BUDGET_BYTES) {
                    Files.writeString(file, "[ccci: this run's service logs reached " + (RUN_BUDGET_BYTES >> 20)
                            + " MiB; this one is left out]\n", StandardCharsets.UTF_8);
                } else {
                    ServiceLog.Window window = ServiceLog.read(client, service.getId(), stack, span.after(), span.until());
                    byte[] text = window.render(secrets).getBytes(StandardCharsets.UTF_8);
                    Files.write(file, text);
                    written.bytes().addAndGet(text.length);
                }
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
