package net.commoninternet.ccci.spi;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * A run whose app is deployed, as the lifecycle made it and the engine hands it to each tier
 * ({@link TierContext#live()}): no tier runs before there is one. Everything a tier does to the app
 * goes through it, so a tier written against this interface alone can do what ccci's own tiers do:
 * reach the app as the proxy does and exec in it ({@link #app()}), probe it ({@link #probes()}),
 * back it up and restore it ({@link #backups()}), redeploy it at another version
 * ({@link #versions()}), lint it ({@link #lint()}) and read its services' logs
 * ({@link #serviceLogs()}). A run none of whose tiers needs the app ({@link TierPlugin#needsLiveApp()}:
 * LINT alone) deploys nothing; its tiers get a live run of the recipe alone, whose {@link #lint()} and
 * {@link #hookContext} work and whose app, probes, backups, versions and convergence are refused.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface LiveRun {

    /** The deployed app as the recipe's assertions and functional tests see it: HTTP as routed, exec in a service. */
    LiveApp app();

    /** What a pre-operation hook of {@code op} is given. */
    HookContext hookContext(Tier op);

    /** How the app's services converged at the wait that followed its one deploy. */
    Convergence convergence();

    /** A fresh look at every service of the app now: a task that crashed since the deploy shows here. */
    Convergence inspect();

    /**
     * Waits until every service of the app converged, or failed for good (a paused or rolled-back
     * update), as long as the app's deploy timeout says: what an operation left settling ends here
     * (an upgrade returns once its new spec serves, while swarm holds its update monitor window). At
     * once when the app already converged.
     */
    Convergence awaitConverged() throws IOException, InterruptedException;

    /**
     * The deploy-once rule, read from this run's own deploy count: empty when the run deployed its
     * app exactly once (plus once per cold dependency), else the sentence that says how often.
     */
    Optional<String> deployOnceViolation() throws IOException;

    /** The recipe's probes of the live app (HTTP on a path, {@code READY_PROBE}, {@code BACKUP_VERIFY}). */
    Probes probes();

    /** Backup and restore of the app's backed-up data, by the run's driver. */
    Backups backups();

    /** The releases the run deploys, what is deployed now, and the in-place redeploy at another version. */
    Versions versions();

    /**
     * The recipe's lint by the run's driver, on the head under test whatever an upgrade did to
     * the tree: a result per rule, keyed by the rule's check name ({@link Driver#lintRules()}); a
     * rule the lint did not report is absent. A lint that could not run throws a {@link Skipped}.
     */
    Map<String, LintResult> lint() throws Exception;

    /** The logs of the app's services and of its cold dependencies', secrets masked. */
    ServiceLogs serviceLogs();

    /**
     * Whether {@code failure}, which a tier's operation or check threw, is the host's fault and not the
     * recipe's ({@link HostFault}, its cause and what to do), as the lifecycle that made this run judges
     * it (the engine's words, the registry, the disk, ccci's own code); empty for the recipe's own
     * failure. The engine asks once per failure and reports what this returns in its place. By default,
     * only a failure that already carries a {@link HostFault}.
     */
    default Optional<HostFault> hostFault(Throwable failure) {
        return HostFault.in(failure);
    }
}
