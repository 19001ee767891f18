package net.commoninternet.ccci.testing.helpers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.lifecycle.HostVariables;

/**
 * Helper process: a run's janitor in the run-app namespace its environment names
 * ({@code CCCI_DOMAIN_SUFFIX}), judging liveness by the lock folder it is given, as a run's sweep
 * does (candidates from the env files and the swarm, the flock probe, the domain's lease, the reap).
 * Prints {@code candidates <sorted domains>}, then, with {@code sweep}, {@code outcomes <map>}.
 *
 * <p>Usage: {@code NamespaceSweep <lock dir> <servers dir> list|sweep}.
 */
public final class NamespaceSweep {

    private NamespaceSweep() {
    }

    public static void main(String[] args) throws Exception {
        Path locks = Files.createDirectories(Path.of(args[0]));
        Path servers = Path.of(args[1]);
        try (DockerEngine docker = DockerEngine.connect()) {
            String suffix = System.getenv().getOrDefault(HostVariables.DOMAIN_SUFFIX, AppNaming.DEFAULT_SUFFIX);
            Set<String> candidates = JanitorCandidates.discover(servers, docker, suffix);
            System.out.println("candidates " + candidates);
            if (args[2].equals("sweep")) {
                StackTeardown teardown = new StackTeardown(docker.client());
                AppDomainLease leases = new AppDomainLease(new SwarmRecords(docker.http()),
                        AppDomainLease.Holder.of(locks, "namespace-sweep-" + ProcessHandle.current().pid()),
                        new AppDomainLease.Timing(Duration.ofSeconds(90), Duration.ofSeconds(10)), why -> { });
                System.out.println("outcomes " + new Janitor(locks, suffix, Duration.ofHours(2),
                        Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers)), leases).sweep(candidates));
            }
        }
        System.out.flush();
    }
}
