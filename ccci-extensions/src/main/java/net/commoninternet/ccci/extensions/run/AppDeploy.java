package net.commoninternet.ccci.extensions.run;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.HostFaults;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RunHookContext;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.probe.AppProbes;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.probe.MountedSecrets;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.results.AppPictures;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.usage.DiskWatch;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSteps;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RunTimeline;

/**
 * The run's one deploy: cold dependencies first (deployed, converged and reachable before the app's
 * hooks run), then the app: created, set up (env, overlays, install steps), its pre-install hooks,
 * the deploy, convergence, and the secret values it really mounts (under the abra driver ccci never
 * saw them), masked from then on. A convergence that failed for the host's reason (see
 * {@link HostFaults}) fails the deploy as a {@link HostFault}: the tiers would judge the recipe on it. The app's browser and its READY_PROBE begin beside the
 * convergence's last part; the run's disk is watched from just before the deploy until the teardown.
 * Keeps the app once created, for the teardown's results.
 */
final class AppDeploy {

    private final LifecycleContext run;
    private final RunSteps steps;
    private final RunMeans means;
    private final ColdDeps coldDeps;
    /** The run's own app, once created: what the teardown's results mask even if the deploy failed. */
    private volatile App app;
    /** The watch of the run's disk, once begun: one run's share of the host's disk ({@code ccci.budget.disk}). */
    private volatile DiskWatch watch;

    AppDeploy(LifecycleContext run, RunSteps steps, RunMeans means, ColdDeps coldDeps) {
        this.run = run;
        this.steps = steps;
        this.means = means;
        this.coldDeps = coldDeps;
    }

    /** The app, once this run created it. */
    Optional<App> created() {
        return Optional.ofNullable(app);
    }

    /** Ends the watch of the run's disk, if it began: the teardown removes what it watched. */
    void endWatch() {
        DiskWatch begun = watch;
        if (begun != null) {
            begun.close();
        }
    }

    Deployment deploy(Prepared prepared, RunTools tools) throws Exception {
        RunTimeline timeline = run.timeline();
        Checkout checkout = prepared.checkout();
        Dependencies deps = run.keys().deps().isEmpty() ? coldDeps.deploy(checkout.ref())
                : timeline.time("dependencies", () -> coldDeps.deploy(checkout.ref()));
        timeline.time("deploy", () -> {
            app = tools.driver().newApp(run.recipe(), checkout.domain(), checkout.tree().dir(), prepared.workspace().abraDir());
            means.console().addSecrets(app.secretValues().values());
            prepared.setup().beforeInstall(app, prepared.keys());
            steps.beforeDeploy(new RunHookContext(app, prepared.keys(), Tier.INSTALL, Optional.empty(), deps.domains()));
            // the run's disk is watched from before its first container exists until its teardown begins
            watch = new DiskWatch(tools.docker().client(), app.stack(), run.settings().options().trust().budget().disk(),
                    means.guards()::stopAlone);
            means.threads().start("ccci-disk-watch", watch::watch);
            tools.driver().deploy(app);
            // the one probe container of the app: its start overlaps the convergence wait
            tools.http().prepare(app.stack());
            return null;
        });
        // the app's browser, when the run pictures its page (AppPictures), begun once the app's own tasks
        // have started: chromium's start (3-3.5 s of CPU under gVisor) then overlaps their healthchecks,
        // the stability window and the ready probe, not their sandboxes' starts, which it slowed
        Set<Tier> pictured = EnumSet.noneOf(Tier.class);
        prepared.tiers().stream().filter(AppPictures.PICTURED::contains).forEach(pictured::add);
        Runnable browser = pictured.isEmpty() ? () -> { } : once(() -> tools.browser().prepare(app.stack(), app.domain(),
                tools.http(), pictured.size()));
        // a READY_PROBE that connects (TCP or HTTP) begins once only the tasks' stability windows are left of the
        // convergence: its pauses are the recipe's and the windows end inside them; the convergence's verdict
        // still comes at their end, and the tiers wait for both
        Optional<CiKeys.Probe> connects = prepared.keys().readyProbe().filter(p -> !(p instanceof CiKeys.Probe.Exec));
        AtomicReference<CompletableFuture<Probes.Outcome>> readiness = new AtomicReference<>();
        Runnable ready = connects.isEmpty() ? null : once(() -> readiness.set(beginReadiness(tools, connects.get())));
        SwarmConvergence.Report converged = timeline.time("convergence", () -> {
            SwarmConvergence.Report report = new SwarmConvergence(tools.docker())
                    .await(app.stack(), prepared.workspace().policy().deployTimeout(prepared.keys(), app), browser,
                            ready);
            Map<String, String> mounted = MountedSecrets.read(tools.docker().client(), app.stack(), app.secretValues().keySet());
            means.console().addSecrets(mounted.values());
            app = app.withSecrets(mounted);
            return report;
        });
        browser.run(); // a stack whose tasks never all started: now, as for any ended convergence
        if (!converged.converged()) {
            // the host kept the app from converging (its image out of the registry's reach, a runtime that cannot
            // start containers): the deploy is the host's failure, and no tier judges the recipe on it
            Optional<HostFault> hosts = HostFaults.on(tools.docker()).of(new IllegalStateException(converged.describe()));
            if (hosts.isPresent()) {
                throw hosts.get();
            }
        }
        return new Deployment(prepared, tools, deps, app, new Deployment.Settled(converged, readiness.get()));
    }

    /**
     * The app's READY_PROBE, begun now on a thread of the run's, its "ready-probe" phase from now
     * (it overlaps the convergence's end): the run's one wait for it, which the tiers' start and
     * INSTALL's ready-probe check take ({@link Probes#readiness}). It ends at its own timeout or
     * when the teardown closes the app's probes, whichever comes first.
     */
    private CompletableFuture<Probes.Outcome> beginReadiness(RunTools tools, CiKeys.Probe probe) {
        CompletableFuture<Probes.Outcome> outcome = new CompletableFuture<>();
        RunTimeline.Span span = run.timeline().start("ready-probe");
        AppProbes probes = new AppProbes(tools.http(), new ContainerExec(tools.docker().client()), app.stack(), app.domain(),
                run.keys().healthOk());
        Duration timeout = Duration.ofSeconds(run.keys().httpTimeoutSeconds());
        means.threads().start("ccci-ready-probe", () -> {
            try {
                AppProbes.Outcome ready = probes.await(probe, timeout);
                span.end(RunTimeline.Outcome.DONE);
                outcome.complete(new Probes.Outcome(ready.ok(), ready.detail()));
            } catch (InterruptedException | RuntimeException | Error e) {
                span.end(RunTimeline.Outcome.FAILED);
                outcome.completeExceptionally(e);
            }
        });
        return outcome;
    }

    /** {@code work}, run by the first call only. */
    private static Runnable once(Runnable work) {
        AtomicBoolean ran = new AtomicBoolean();
        return () -> {
            if (ran.compareAndSet(false, true)) {
                work.run();
            }
        };
    }
}
