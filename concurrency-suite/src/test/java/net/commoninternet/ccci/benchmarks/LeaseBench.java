package net.commoninternet.ccci.benchmarks;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;
import org.slf4j.LoggerFactory;

/**
 * App-domain lease benchmark (issue 15), run on demand with {@code scripts/bench lease}: for each
 * engine given ({@code unix:///...}, {@code tcp://...}), per round, on a lease nobody else holds:
 * <ul>
 *   <li>acquire: {@link AppDomainLease#acquire} of an absent lease (read, create, read back);
 *   <li>renew: one heartbeat's renewal ({@code Held.reconfirm}: compare-and-swap, read back);
 *   <li>probe: {@link AppDomainLease#look}, what a janitor pays per candidate;
 *   <li>swarm clock: {@link AppDomainLease#swarmNow}, once per sweep that meets another host's lease;
 *   <li>release: compare-and-swap to released, delete by id;
 * </ul>
 * Prints the median and 90th percentile of each, in ms. The lease's domain is
 * {@value #DOMAIN} (not a run-app name: no janitor ever looks at it); it is gone after each round.
 */
public final class LeaseBench {

    private static final String DOMAIN = "i15-bench-lease";

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AppDomainLease.class)).setLevel(Level.WARN);
        int rounds = Integer.parseInt(args[0]);
        Path lockDir = Files.createTempDirectory("ccci-bench-lease-");
        System.out.printf("%-34s %-12s %8s %8s%n", "engine", "operation", "p50 ms", "p90 ms");
        for (int i = 1; i < args.length; i++) {
            try (DockerEngine engine = DockerEngine.connect(args[i])) {
                AppDomainLease leases = new AppDomainLease(new SwarmRecords(engine.http()),
                        AppDomainLease.Holder.of(lockDir, "bench"),
                        new AppDomainLease.Timing(Duration.ofMinutes(10), Duration.ofMinutes(1)), why -> { });
                Map<String, List<Double>> times = new LinkedHashMap<>();
                for (String op : List.of("acquire", "renew", "probe", "swarm clock", "release")) {
                    times.put(op, new ArrayList<>());
                }
                for (int round = -5; round < rounds; round++) { // 5 rounds of warm-up
                    long t0 = System.nanoTime();
                    AppDomainLease.Held held = leases.acquire(DOMAIN, "bench");
                    long t1 = System.nanoTime();
                    if (!held.reconfirm()) {
                        throw new IllegalStateException("renewal not confirmed on " + args[i]);
                    }
                    long t2 = System.nanoTime();
                    leases.look(DOMAIN);
                    long t3 = System.nanoTime();
                    leases.swarmNow();
                    long t4 = System.nanoTime();
                    held.release();
                    long t5 = System.nanoTime();
                    if (round >= 0) {
                        times.get("acquire").add((t1 - t0) / 1e6);
                        times.get("renew").add((t2 - t1) / 1e6);
                        times.get("probe").add((t3 - t2) / 1e6);
                        times.get("swarm clock").add((t4 - t3) / 1e6);
                        times.get("release").add((t5 - t4) / 1e6);
                    }
                }
                for (Map.Entry<String, List<Double>> op : times.entrySet()) {
                    List<Double> sorted = new ArrayList<>(op.getValue());
                    Collections.sort(sorted);
                    System.out.printf("%-34s %-12s %8.2f %8.2f%n", args[i], op.getKey(), sorted.get(sorted.size() / 2),
                            sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1));
                }
            }
        }
        Files.deleteIfExists(lockDir);
    }
}
