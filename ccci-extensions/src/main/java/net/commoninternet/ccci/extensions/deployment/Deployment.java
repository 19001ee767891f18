package net.commoninternet.ccci.extensions.deployment;

import net.commoninternet.ccci.spi.LintResult;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Versions;
import org.apiguardian.api.API;

/**
 * The live run the lifecycle hands the engine, and through it every tier: everything the run made
 * before and by its single deploy, typed, so nothing can be asked of an app that does not exist
 * yet (there is no deployment before the deploy). Tiers see it only as the SPI's {@link LiveRun}:
 * each of its parts is a small class of this package over the run's own engine connection,
 * driver, probe and exec.
 */
@API(status = API.Status.INTERNAL)
public final class Deployment implements LiveRun {

    private final Prepared prepared;
    private final RunTools tools;
    private final Dependencies deps;
    private final App app;
    private final SwarmConvergence.Report convergence;
    private final LiveApp liveApp;
    private final LiveProbes probes;
    private final CompletableFuture<Probes.Outcome> readinessBegun;
    /** One for the run: it remembers which node's engine runs each container it found (a multi-node swarm). */
    private ContainerExec exec;

    /**
     * How the app's single deploy settled: its convergence, and its READY_PROBE if the run began
     * it beside the convergence's stability windows (else null: {@link Probes#readiness} runs it).
     */
    public record Settled(SwarmConvergence.Report convergence, CompletableFuture<Probes.Outcome> readinessBegun) {
    }

    /**
     * @param app the deployed app, knowing the secret values it mounts
     * @param settled how its single deploy converged, and its readiness probe if already begun
     */
    public Deployment(Prepared prepared, RunTools tools, Dependencies deps, App app, Settled settled) {
        this.prepared = prepared;
        this.tools = tools;
        this.deps = deps;
        this.app = app;
        this.convergence = settled == null ? null : settled.convergence();
        this.readinessBegun = settled == null ? null : settled.readinessBegun();
        this.liveApp = new LiveAppOnSwarm(this);
        this.probes = new LiveProbes(this);
    }

    Prepared prepared() {
        return prepared;
    }

    RunTools tools() {
        return tools;
    }

    /** The app as the workspace made it (its stack, env file, secrets). */
    App deployed() {
        return app;
    }

    Dependencies deps() {
        return deps;
    }

    /** The READY_PROBE the run began beside the convergence, if it did: what {@link Probes#readiness} awaits. */
    public Optional<CompletableFuture<Probes.Outcome>> readinessBegun() {
        return Optional.ofNullable(readinessBegun);
    }

    synchronized ContainerExec exec() {
        if (exec == null) {
            exec = new ContainerExec(tools.docker().client());
        }
        return exec;
    }

    /** No command goes into the app's containers after this: the shells ccci exec'd in them end (the teardown's first step). */
    public synchronized void endCommands() {
        if (exec != null) {
            exec.close();
        }
    }

    @Override
    public LiveApp app() {
        return liveApp;
    }

    @Override
    public HookContext hookContext(Tier op) {
        return new RunHookContext(app, prepared.keys(), op, Optional.of(liveApp), deps.domains());
    }

    @Override
    public Convergence convergence() {
        return of(convergence);
    }

    @Override
    public Convergence inspect() {
        return of(new SwarmConvergence(tools.docker()).inspect(app.stack()));
    }

    @Override
    public Convergence awaitConverged() throws IOException, InterruptedException {
        return of(new SwarmConvergence(tools.docker()).await(app.stack(),
                prepared.workspace().policy().deployTimeout(prepared.keys(), app)));
    }

    /** {@code <stack>_<name>}, as the swarm names a stack's service, by its compose name. */
    static String composeName(String stack, String service) {
        return service.startsWith(stack + "_") ? service.substring(stack.length() + 1) : service;
    }

    /**
     * The app's convergence as a tier sees it: an update swarm rolled back is not converged, though
     * the stack settled on its old spec (every update of the run's app is one ccci asked for: the
     * upgrade's, a restore's redeploy), so an upgrade whose new tasks failed in swarm's monitor
     * window and were rolled back fails its {@code converged} check.
     */
    static Convergence of(SwarmConvergence.Report report) {
        if (report.converged() && !report.rolledBack().isEmpty()) {
            return new Convergence(false, String.join("; ", report.rolledBack()));
        }
        return new Convergence(report.converged(), report.describe());
    }

    /** Read from the run's own deploy count, never another run's. */
    @Override
    public Optional<String> deployOnceViolation() throws IOException {
        return Optional.ofNullable(CountedDeploys.violation(prepared.workspace().state().deployCount(), 1 + deps.coldCount()));
    }

    @Override
    public Probes probes() {
        return probes;
    }

    @Override
    public Backups backups() {
        return new LiveBackups(this);
    }

    @Override
    public Versions versions() {
        return new LiveVersions(this);
    }

    /** The head, whatever an UPGRADE tier did or did not do to the tree. */
    @Override
    public Map<String, LintResult> lint() throws IOException, InterruptedException {
        UpgradePlan plan = prepared.checkout().upgrade();
        prepared.workspace().fetch().moveTo(app.recipeDir(), plan.headCommit());
        return tools.driver().lint(app, plan.headRelease());
    }

    @Override
    public ServiceLogs serviceLogs() {
        return new LiveServiceLogs(this);
    }

    /** As {@link HostFaults} judges it, with the run's engine to ask about an image its tasks could not find. */
    @Override
    public Optional<HostFault> hostFault(Throwable failure) {
        return HostFaults.on(tools.docker()).of(failure);
    }
}
