package net.commoninternet.ccci.extensions.results;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Store;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After each tier, the log of every service of the app's stack since the previous tier (since
 * the deploy, for the first) goes to {@code <runs dir>/<run id>/logs/<tier>/<service>.log} and is
 * attached to the tier's node of the test report; the services of its cold dependencies go to
 * {@code logs/<tier>/<dependency>/<service>.log}. The live run's {@link ServiceLogs} masks every
 * secret value the run knows (the app's and its dependencies') and bounds each file; what a run
 * writes of them in all is bounded by {@link #RUN_BUDGET_BYTES}: past it, a service's log file
 * holds one line saying it was left out. Written against the SPI alone, as any extension can be.
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
    private static final Store.Key<Instant> COLLECTED_UNTIL = Store.Key.of("service logs collected until", Instant.class);
    /** The bytes of service logs this run has written so far. */
    private static final Store.Key<AtomicLong> WRITTEN = Store.Key.of("service log bytes written", AtomicLong.class);

    @Override
    public void afterTier(TierContext tier, Throwable failure) {
        Store store = tier.store();
        // The app did not exist before its deploy, so the first window starts at the epoch.
        Instant after = store.find(COLLECTED_UNTIL).orElse(Instant.EPOCH);
        Instant until = Instant.now();
        store.put(COLLECTED_UNTIL, until);
        AtomicLong written = store.computeIfAbsent(WRITTEN, AtomicLong::new);
        Path dir = tier.runDir().resolve("logs").resolve(tier.tier().id());
        try {
            ServiceLogs logs = tier.live().serviceLogs();
            for (ServiceLogs.Service service : logs.services()) {
                Path folder = Files.createDirectories(service.dependency().map(dir::resolve).orElse(dir));
                write(tier, logs, service, folder.resolve(service.name() + ".log"), new Window(after, until, written));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("service logs of tier {} not collected: the run was interrupted", tier.tier().id());
        } catch (Exception e) {
            LOG.warn("could not collect the service logs of tier {} (the verdict stands): {}", tier.tier().id(), e.toString());
        }
    }

    /** A tier's window of time, {@code (after, until]}, and what the run wrote of logs so far. */
    private record Window(Instant after, Instant until, AtomicLong written) {
    }

    private static void write(TierContext tier, ServiceLogs logs, ServiceLogs.Service service, Path file, Window window)
            throws InterruptedException {
        try {
            if (window.written().get() >= RUN_BUDGET_BYTES) {
                Files.writeString(file, "[ccci: this run's service logs reached " + (RUN_BUDGET_BYTES >> 20)
                        + " MiB; this one is left out]\n", StandardCharsets.UTF_8);
            } else {
                byte[] text = logs.read(service, window.after(), window.until()).getBytes(StandardCharsets.UTF_8);
                Files.write(file, text);
                window.written().addAndGet(text.length);
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.warn("could not collect the log of service {} (the verdict stands): {}", service.name(), e.toString());
            return;
        }
        try {
            tier.attach(file, "text/plain");
        } catch (Exception e) {
            LOG.warn("could not attach {} to the test report (the file stays): {}", file, e.toString());
        }
    }
}
