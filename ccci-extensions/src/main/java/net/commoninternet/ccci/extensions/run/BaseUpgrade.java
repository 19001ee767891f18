package net.commoninternet.ccci.extensions.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.browser.PageBrowser;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.probe.MountedSecrets;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.usage.DiskWatch;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.recipe.UpgradeBases;
import net.commoninternet.ccci.extensions.results.TierServiceLogs;
import net.commoninternet.ccci.extensions.results.UpgradeCell;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upgrade from another base of the matrix ({@code ccci.upgrade-from}), the run's own upgrade in
 * small: its own app domain, taken as the run's is ({@link DomainClaims#take}: flock and lease before
 * the app exists, a dead run's leftovers reaped under them), its own tree (a copy at the base sharing
 * the fetch's objects), one deploy of the base, then UPGRADE's operation and checks against it, and
 * its teardown in {@code finally} before its claim goes. A base that does not deploy here (its images
 * gone, refused by the policy, never converged) is a skip with the reason, never a failure: only the
 * upgrade itself is judged. Runs on a thread of the run's; a stop interrupts it until its teardown
 * begins ({@link #stop}), and the teardown then runs whole.
 */
final class BaseUpgrade {

    private static final Logger LOG = LoggerFactory.getLogger(BaseUpgrade.class);

    private final LifecycleContext run;
    private final RunMeans means;
    private final AppDomainLease leases;
    private final SwarmPhases.Made made;
    private final UpgradeBases.Base base;
    /** The secret values of the base's app, for the run's results to mask. */
    private final List<String> secrets = new ArrayList<>();
    /** What the base's teardown could not remove: the run's teardown is not clean then. */
    private final List<String> left = new ArrayList<>();
    /** The base's verdict, once known: before its teardown, which goes on beside the run's own. */
    private final java.util.concurrent.CompletableFuture<UpgradeCell> verdict = new java.util.concurrent.CompletableFuture<>();
    /** Guarded by this: the thread trying the base, whether its teardown began, whether the run stopped the matrix. */
    private Thread runner;
    private boolean tearingDown;
    private boolean stopped;
    /** The base's disk watch, from before its deploy to its teardown, as the run's app has (AppDeploy). */
    private volatile DiskWatch watch;

    BaseUpgrade(LifecycleContext run, RunMeans means, AppDomainLease leases, SwarmPhases.Made made, UpgradeBases.Base base) {
        this.run = run;
        this.means = means;
        this.leases = leases;
        this.made = made;
        this.base = base;
    }

    /** The release this upgrade starts from. */
    String release() {
        return base.release();
    }

    /** The base's verdict, known before its app is torn down. */
    java.util.concurrent.CompletableFuture<UpgradeCell> verdict() {
        return verdict;
    }

    /** What the base's teardown could not remove (empty: clean, or it never made an app). */
    synchronized List<String> left() {
        return List.copyOf(left);
    }

    /** The secret values the base's app had: masked in the run's results. */
    synchronized Collection<String> secretValues() {
        return List.copyOf(secrets);
    }

    /**
     * The run stopped the matrix: a base not begun never begins, one under way is interrupted, and
     * one whose teardown began is left to finish it (an interrupt there would cut the removal short).
     */
    synchronized void stop() {
        stopped = true;
        if (runner != null && !tearingDown) {
            runner.interrupt();
        }
    }

    /** The base's cell: never throws; the app it made is gone when it returns (or its removal failed and said so). */
    UpgradeCell upgrade() {
        if (base.skip().isPresent()) {
            return cell(UpgradeCell.Status.SKIP, base.skip().get(), List.of());
        }
        synchronized (this) {
            if (stopped) {
                return cell(UpgradeCell.Status.SKIP, "the run ended before the upgrade from " + base.release() + " was tried",
                        List.of());
            }
            runner = Thread.currentThread();
        }
        RunSettings settings = run.settings();
        Prepared prepared = made.prepared();
        Checkout checkout = prepared.checkout();
        String commit = checkout.tree().tagTargets().get(base.release());
        Optional<String> cannot = !run.keys().deps().isEmpty() ? Optional.of("a recipe with cold dependencies (DEPS) is"
                + " upgraded from the previous release only")
                : !(made.tools().driver() instanceof CountedDeploys) || !"swarm".equals(settings.driver())
                        ? Optional.of("the " + settings.driver() + " driver upgrades from the previous release only")
                        : commit == null ? Optional.of("no release tag " + base.release() + " in the fetched recipe") : Optional.empty();
        if (cannot.isPresent()) {
            return cell(UpgradeCell.Status.SKIP, cannot.get(), List.of());
        }
        CountedDeploys counted = (CountedDeploys) made.tools().driver();
        String domain = AppNaming.domain(run.recipe(), settings.subject().pr(), checkout.ref() + "|upgrade-from|" + base.release(),
                settings.paths().domainSuffix());
        Path own = settings.runDir().resolve(UpgradeCell.folder(base.release()));
        RunWorkspace workspace;
        // the base's app is a run's app of its own: on a network of its own, its probe and browser on it alone
        RunNetwork network = RunNetwork.of(AppNaming.stackName(domain));
        HttpProbe http = new HttpProbe(made.tools().docker().client(), settings.options().probeImage(), network.name());
        RunTools tools;
        DomainClaim claim;
        try {
            RunWorkspace shared = prepared.workspace();
            RunState state = RunState.create(own, settings.runId(), ProcessHandle.current().pid());
            workspace = new RunWorkspace(shared.runDir(), shared.abraDir(), state, shared.children(), shared.policy());
            tools = new RunTools(made.tools().docker(), new CountedDeploys(counted.driver().onNetwork(network), state,
                    counted.policy()), http, new PageBrowser(made.tools().docker().client(), network.name()),
                    made.tools().threads());
            claim = DomainClaims.take(leases, domain, tools, workspace);
        } catch (Exception e) {
            http.close();
            return cell(UpgradeCell.Status.SKIP, "the base's app domain could not be taken here: " + message(e), List.of());
        }
        LOG.info("== upgrade from {}: app {} ==", base.release(), domain);
        Deployment live = null;
        try {
            App app;
            SwarmConvergence.Report deployed;
            try {
                Path tree = workspace.abraDir().root().resolve("recipes").resolve(run.recipe() + "." + UpgradeCell.folder(
                        base.release()));
                workspace.fetch().copyAt(checkout.tree(), tree, commit);
                app = tools.driver().newApp(run.recipe(), domain, tree, workspace.abraDir());
                keep(app.secretValues().values());
                prepared.setup().beforeInstall(app, prepared.keys());
                // the base's disk is watched as the run's app's is: past the host's share, the run stops alone
                watch = new DiskWatch(tools.docker().client(), app.stack(), settings.options().trust().budget().disk(),
                        means.guards()::stopAlone);
                means.threads().start("ccci-disk-watch-" + base.release(), watch::watch);
                tools.driver().deploy(app);
                http.prepare(app.stack());
                deployed = new SwarmConvergence(tools.docker()).await(app.stack(),
                        workspace.policy().deployTimeout(prepared.keys(), app));
                Map<String, String> mounted = MountedSecrets.read(tools.docker().client(), app.stack(), app.secretValues().keySet());
                keep(mounted.values());
                app = app.withSecrets(mounted);
            } catch (InterruptedException e) {
                return cell(UpgradeCell.Status.SKIP, "the run was stopped before the upgrade from " + base.release(), List.of());
            } catch (Exception e) {
                return cell(UpgradeCell.Status.SKIP, "the base could not be deployed here: " + message(e), List.of());
            }
            if (!deployed.converged()) {
                return cell(UpgradeCell.Status.SKIP, "the base could not be deployed here: " + run.redact(deployed.describe()),
                        List.of());
            }
            Prepared judged = new Prepared(prepared.keys(), Set.of(Tier.UPGRADE), workspace, new Checkout(checkout.tree(),
                    checkout.ref(), domain, checkout.upgrade().from(base)), prepared.setup());
            live = new Deployment(judged, tools, Dependencies.none(), app, new Deployment.Settled(deployed, null));
            BaseTierContext tier = new BaseTierContext(run, live, own);
            List<RunRecord.Row> rows = checks(tier);
            new TierServiceLogs().afterTier(tier, null);
            if (means.guards().stopRequested()) {
                return cell(UpgradeCell.Status.SKIP, "the run was stopped during the upgrade from " + base.release(), rows);
            }
            Optional<RunRecord.Row> failed = rows.stream().filter(r -> r.status() == RunRecord.Status.FAILED).findFirst();
            return failed.map(r -> cell(UpgradeCell.Status.FAIL, r.check() + ": " + r.message(), rows))
                    .orElseGet(() -> cell(UpgradeCell.Status.PASS, "", rows));
        } finally {
            teardown(domain, http, live, claim, workspace.state());
        }
    }

    /**
     * UPGRADE's operation against the base's app, then its checks and its last checks, as the
     * engine runs the tier: an operation that fails leaves each check skipped with that reason.
     */
    private List<RunRecord.Row> checks(BaseTierContext tier) {
        // UPGRADE's plugin as the engine finds it (ServiceLoader): the run's own tier and the bases' are the same
        TierPlugin upgrade = java.util.ServiceLoader.load(TierPlugin.class, BaseUpgrade.class.getClassLoader()).stream()
                .map(java.util.ServiceLoader.Provider::get).filter(t -> t.tier() == Tier.UPGRADE).findFirst()
                .orElseThrow(() -> new IllegalStateException("no UPGRADE tier plugin on the class path"));
        List<RunRecord.Row> rows = new ArrayList<>();
        String broke = null;
        try {
            upgrade.operate(tier); // a row of its own only when it did not pass, as the run's own tier has it
        } catch (Skipped skipped) {
            broke = skipped.getMessage();
            rows.add(RunRecord.Row.skipped(Tier.UPGRADE, "operation", skipped.kind(), run.redact(broke)));
        } catch (Exception | AssertionError e) {
            broke = message(e);
            rows.add(RunRecord.Row.failed(Tier.UPGRADE, "operation", broke));
        }
        for (Check check : Stream.concat(upgrade.checks().stream(), upgrade.lastChecks().stream()).toList()) {
            if (broke != null) {
                rows.add(RunRecord.Row.skipped(Tier.UPGRADE, check.name(), net.commoninternet.ccci.spi.SkipKind.STRUCTURAL,
                        "the upgrade's operation did not pass: " + broke));
                continue;
            }
            try {
                check.verify(tier);
                rows.add(RunRecord.Row.passed(Tier.UPGRADE, check.name()));
            } catch (Skipped skipped) {
                rows.add(RunRecord.Row.skipped(Tier.UPGRADE, check.name(), skipped.kind(), run.redact(skipped.getMessage())));
            } catch (Exception | AssertionError e) {
                rows.add(RunRecord.Row.failed(Tier.UPGRADE, check.name(), message(e)));
            }
        }
        return rows;
    }

    /**
     * The base's app removed whatever happened, uninterrupted (a stop's interrupt is cleared first:
     * the removal must finish), then its claim released: nobody live owns the domain now, and a
     * janitor reaps whatever a failed removal left.
     */
    private void teardown(String domain, HttpProbe http, Deployment live, DomainClaim claim, RunState state) {
        synchronized (this) {
            tearingDown = true; // no stop interrupts this thread from here on
        }
        boolean interrupted = Thread.interrupted();
        try {
            DiskWatch begun = watch;
            if (begun != null) {
                begun.close();
            }
            http.close();
            if (live != null) {
                live.endCommands();
            }
            List<String> remaining = made.tools().driver().remove(domain);
            synchronized (this) {
                left.addAll(remaining);
            }
            LOG.info("== teardown of {} (upgrade from {}): {} ==", domain, base.release(), remaining.isEmpty() ? "clean"
                    : "left " + remaining);
        } catch (Exception e) {
            synchronized (this) {
                left.add("app " + domain + " (" + e + ")");
            }
            LOG.warn("removing {} (upgrade from {}) failed: {}", domain, base.release(), e.toString());
        } finally {
            claim.release();
            try {
                state.remove();
            } catch (java.io.IOException e) {
                LOG.warn("the state files of the upgrade from {} stay: {}", base.release(), e.toString());
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void keep(Collection<String> values) {
        secrets.addAll(values);
        means.console().addSecrets(values);
    }

    private String message(Throwable e) {
        return run.redact(String.valueOf(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }

    private UpgradeCell cell(UpgradeCell.Status status, String reason, List<RunRecord.Row> rows) {
        LOG.info("== upgrade from {}: {}{} ==", base.release(), status.json(), reason.isEmpty() ? "" : " (" + reason + ")");
        UpgradeCell cell = new UpgradeCell(base.release(), status, reason, rows, base.actions());
        verdict.complete(cell);
        return cell;
    }
}
