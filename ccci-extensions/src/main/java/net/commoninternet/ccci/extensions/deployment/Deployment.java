package net.commoninternet.ccci.extensions.deployment;

import java.time.Duration;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.swarm.AppProbes;
import net.commoninternet.ccci.extensions.swarm.ContainerExec;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.HttpProbe;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.Checkout;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.RunContext;
import org.apiguardian.api.API;

/**
 * The live run the lifecycle hands the tiers: everything it made before and by the single
 * deploy, typed, so a tier cannot ask for something the run has not made (there is no
 * deployment before the deploy, and no tier runs before there is one). Reached in a tier through
 * {@link #of(RunContext)}.
 */
@API(status = API.Status.INTERNAL)
public final class Deployment implements LiveRun {

    private final Prepared prepared;
    private final RunTools tools;
    private final Dependencies deps;
    private final App app;
    private final SwarmConvergence.Report convergence;
    private final TierOutputs outputs = new TierOutputs();
    private final LiveApp liveApp;
    /** One for the run: it remembers which node's engine runs each container it found (a multi-node swarm). */
    private ContainerExec exec;
    /** The READY_PROBE's verdict, awaited once before the tiers; null until then. */
    private volatile AppProbes.Outcome readiness;

    /**
     * @param app the deployed app, knowing the secret values it mounts
     * @param convergence how its single deploy converged
     */
    public Deployment(Prepared prepared, RunTools tools, Dependencies deps, App app, SwarmConvergence.Report convergence) {
        this.prepared = prepared;
        this.tools = tools;
        this.deps = deps;
        this.app = app;
        this.convergence = convergence;
        this.liveApp = new LiveAppOnSwarm(this);
    }

    /** The deployment a tier runs against: the live run of ccci's own lifecycle. */
    public static Deployment of(RunContext run) {
        if (run.live() instanceof Deployment deployment) {
            return deployment;
        }
        throw new IllegalStateException("ccci's tiers run against ccci's own lifecycle (RecipeCiRun), but the live run"
                + " is a " + run.live().getClass().getName() + ": keep one run lifecycle on the class path.");
    }

    public CiKeys keys() {
        return prepared.keys();
    }

    public RunWorkspace workspace() {
        return prepared.workspace();
    }

    public Checkout checkout() {
        return prepared.checkout();
    }

    public RecipeSetup setup() {
        return prepared.setup();
    }

    public App app() {
        return app;
    }

    public AppDriver driver() {
        return tools.driver();
    }

    public DockerEngine docker() {
        return tools.docker();
    }

    public HttpProbe http() {
        return tools.http();
    }

    public synchronized ContainerExec exec() {
        if (exec == null) {
            exec = new ContainerExec(tools.docker().client());
        }
        return exec;
    }

    /** The recipe's own probes ({@code READY_PROBE}, {@code BACKUP_VERIFY}) of this app. */
    public AppProbes probes() {
        return new AppProbes(tools.http(), exec(), app.stack(), app.domain(), keys().healthOk());
    }

    /**
     * The recipe's {@code READY_PROBE}, awaited once for the run: the lifecycle awaits it before
     * the tiers and INSTALL's {@code ready-probe} check gives that verdict, rather than waiting
     * for the probe a second time.
     */
    public synchronized AppProbes.Outcome awaitReadiness(CiKeys.Probe probe, Duration timeout)
            throws InterruptedException {
        if (readiness == null) {
            readiness = probes().await(probe, timeout);
        }
        return readiness;
    }

    public SwarmConvergence.Report convergence() {
        return convergence;
    }

    public Dependencies deps() {
        return deps;
    }

    public TierOutputs outputs() {
        return outputs;
    }

    @Override
    public LiveApp liveApp() {
        return liveApp;
    }

    @Override
    public HookContext hookContext(Tier op) {
        return new RunHookContext(app, keys(), op, Optional.of(liveApp), deps.domains());
    }
}
