package net.commoninternet.ccci.extensions.run;

import java.nio.file.Files;
import java.util.List;
import java.util.function.Consumer;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.lifecycle.RunSettings;

/**
 * How a run takes an app domain, its own app's and each cold dependency's: the flock and the
 * swarm's lease at once ({@link DomainClaim}), then whatever a dead run of that domain left reaped
 * under them ({@link Janitor#reapLeftByDeadRun}), before the run creates anything there.
 */
final class DomainClaims {

    private DomainClaims() {
    }

    /**
     * The swarm's app-domain leases as this run takes them (holder: this host, its lock folder, this
     * process, this run id), with the times {@code ccci.lease.ttl} and {@code ccci.lease.heartbeat};
     * {@code onLost} is told when a held lease can no longer be confirmed.
     */
    static AppDomainLease leases(DockerEngine docker, RunSettings settings, Consumer<String> onLost) {
        RunSettings.Lease times = settings.options().lease();
        return new AppDomainLease(new SwarmRecords(docker.http()),
                AppDomainLease.Holder.of(settings.paths().appLockDir(), settings.runId()),
                new AppDomainLease.Timing(times.ttl(), times.heartbeat()), onLost);
    }

    /**
     * Held before the app exists, until the run's teardown is over: a janitor never sees the app
     * unlocked, on this host (the flock) or any other of the swarm (the lease). Then whatever a dead
     * run of the same domain left is reaped under that lock, before this run creates anything. A
     * claim whose leftovers could not be reaped is released at once: this run creates nothing.
     */
    static DomainClaim take(AppDomainLease leases, String domain, RunTools tools, RunWorkspace workspace) throws Exception {
        DomainClaim held = DomainClaim.take(leases.holder().lockDir(), domain, leases);
        try {
            StackTeardown stack = new StackTeardown(tools.docker().client());
            Janitor.reapLeftByDeadRun(domain,
                    () -> !stack.leftovers(AppNaming.stackName(domain)).isEmpty()
                            || Files.exists(workspace.abraDir().envFile(domain)),
                    d -> {
                        List<String> left = tools.driver().remove(d);
                        if (!left.isEmpty()) {
                            throw new IllegalStateException("what a dead run of " + d + " left could not all be removed ("
                                    + String.join(", ", left) + "): this run cannot create its app over it; the next"
                                    + " run's janitor retries.");
                        }
                    });
            return held;
        } catch (Exception e) {
            held.release();
            throw e;
        }
    }
}
