package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.boundary.EngineBoundary;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.HostFaults;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RecipeOnly;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.driver.DriverProvider;
import net.commoninternet.ccci.extensions.driver.Drivers;
import net.commoninternet.ccci.extensions.browser.PageBrowser;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.keep.KeepOnFailure;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.lock.RunIdLock;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.results.RunEnding;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.results.UpgradeCell;
import net.commoninternet.ccci.extensions.waits.Waits;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.lifecycle.HostVariables;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.RunSteps;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.SkipKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each phase of one run ({@link RunPhases}' order) done on a real engine, each a call to the class
 * named after the spec's mechanism: {@link DockerEngine} and {@link EngineBoundary} (connect),
 * {@link RunIdLock}, the run's {@link RunWorkspace}, the janitor beside the fetch
 * ({@link Preparation}), the domain's claim ({@link DomainClaims}), the deploy ({@link AppDeploy}),
 * the engine's tiers, the teardown and the results ({@link RunEnding}). A run none of whose tiers
 * needs the app ({@code run.deploysApp()} false: LINT alone) takes no app lock, deploys nothing, runs
 * its tiers against the recipe alone ({@link RecipeOnly}) and has nothing of an app to tear down.
 */
final class SwarmPhases implements RunPhases.Phases<SwarmPhases.Connected, SwarmPhases.Made, LiveRun> {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmPhases.class);

    private final LifecycleContext run;
    /** The engine's side of the run: its extensions, its hooks, its tiers, each when this lifecycle says. */
    private final RunSteps steps;
    private final RunMeans means;
    private final HeadStart headStart;
    private final RunSettings settings;
    private final RunTimeline timeline;
    /** The upgrades from the other bases, once begun (beside the deploy); awaited in the teardown. */
    private volatile UpgradeMatrix matrix = UpgradeMatrix.NONE;
    /** The run's claim on its app domain, once taken: what a keep of the failed run's app hands over. */
    private volatile DomainClaim claim;
    /** The engine the run connected to, for the one line that says it went away. */
    private String engineHost = "the address " + ChildEnvironment.DOCKER_HOST + " names";

    SwarmPhases(LifecycleContext run, RunSteps steps, RunMeans means, HeadStart headStart) {
        this.run = run;
        this.steps = steps;
        this.means = means;
        this.headStart = headStart;
        this.settings = run.settings();
        this.timeline = run.timeline();
    }

    /** The run's engine, its driver and its app leases: closed last. */
    record Connected(DockerEngine docker, DriverProvider driver, AppDomainLease leases) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            docker.close();
        }
    }

    /** What the run made before its app lock: the recipe prepared, what it acts with, its cold dependencies. */
    record Made(Prepared prepared, RunTools tools, ColdDeps deps, AppDeploy app) {
    }

    @Override
    public Connected connect() throws Exception {
        // The engine's egress rules are read from this host while the connection is made: they need
        // its address only (iptables-save in its network namespace: nothing is changed).
        String host = DockerEngine.configuredHost();
        ChildProcesses hostTools = new ChildProcesses(Map.of(ChildEnvironment.DOCKER_HOST, host));
        means.guards().killOnStop(hostTools);
        Set<RunSettings.HostTrust.Boundary> unconfined = settings.options().trust().unconfined();
        CompletableFuture<Optional<String>> egress = unconfined.contains(RunSettings.HostTrust.Boundary.EGRESS)
                ? CompletableFuture.completedFuture(Optional.empty())
                : means.threads().supply("ccci-egress-rules", () -> headStart.egressMissing(host, hostTools));
        try {
            // No engine or no swarm: one sentence naming the fix, before anything exists on the host.
            DockerEngine docker = timeline.time("connect", headStart::connect);
            try {
                engineHost = docker.host();
                DriverProvider driver = Drivers.of(settings.driver());
                driver.requireAvailable();
                // The host's boundaries around recipe containers (gVisor, the egress rules): refused here
                // without one, unless the host's operator accepts it, before anything of the run exists.
                EngineBoundary.require(docker, unconfined, docker.host().equals(host) ? Waits.interruptibly(egress)
                        : EngineBoundary.egressMissing(docker.host(), hostTools));
                // One run id, one live run: refused here, before this run writes anything to the folder.
                RunIdLock.acquire(settings.runDir(), settings.runId());
                steps.beforeRun();
                // a lease that can no longer be confirmed stops this run alone
                return new Connected(docker, driver, DomainClaims.leases(docker, settings, means.guards()::stopAlone));
            } catch (Exception | Error e) {
                try {
                    docker.close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        } finally {
            Waits.awaitEnd(egress); // its child is the run's: it never outlives the run's start
        }
    }

    @Override
    public Made prepare(Connected engine) throws Exception {
        RunWorkspace workspace = workspace(engine.docker());
        Prepared prepared = new Preparation(run, workspace, means).fetchBesideTheJanitor(engine.docker());
        // the run's app, its cold dependencies, its probe and its browser: on the run's network, nothing else is
        AppDriver driver = new CountedDeploys(engine.driver().create(engine.docker(), workspace,
                AppNaming.stackName(prepared.checkout().domain())), workspace.state(), workspace.policy());
        String network = driver.network().name();
        HttpProbe http = new HttpProbe(engine.docker().client(), settings.options().probeImage(), network);
        RunTools tools = new RunTools(engine.docker(), driver, http, new PageBrowser(engine.docker().client(), network),
                means.threads()::start);
        ColdDeps deps = new ColdDeps(run, workspace, tools, means.console(), engine.leases());
        return new Made(prepared, tools, deps, new AppDeploy(run, steps, means, deps));
    }

    /**
     * The run's folder, its ABRA_DIR and its state files (keyed by run id and pid, never by
     * domain); from here on the (masked) console also goes into the run's run.log, and every child
     * process gets the run's ABRA_DIR, state files and engine ({@code DOCKER_HOST}) and is killed if
     * the run is stopped.
     */
    private RunWorkspace workspace(DockerEngine docker) throws IOException {
        RunAbraDir abraDir = RunAbraDir.create(settings.runDir(), settings.paths().abraDir());
        RunState state = RunState.create(settings.runDir(), settings.runId(), ProcessHandle.current().pid());
        means.runLog().teeTo(settings.runDir().resolve("run.log"));
        Map<String, String> environment = new HashMap<>(state.environment());
        environment.put(HostVariables.ABRA_DIR, abraDir.root().toString());
        environment.putAll(docker.childEnvironment()); // the docker CLI children talk to the run's own engine
        ChildProcesses children = new ChildProcesses(environment);
        means.guards().killOnStop(children);
        return new RunWorkspace(settings.runDir(), abraDir, state, children, new DeployPolicy(settings.options().trust(),
                children));
    }

    @Override
    public RunPhases.Claim lock(Connected engine, Made made) throws Exception {
        if (!run.deploysApp()) {
            LOG.info("== {}: none of its tiers ({}) needs the app, so the run deploys nothing and takes no app lock ==",
                    run.recipe(), String.join(", ", run.tiers().stream().map(Tier::id).toList()));
            return () -> { };
        }
        DomainClaim taken = timeline.time("lock", () -> DomainClaims.take(engine.leases(), made.prepared().checkout().domain(),
                made.tools(), made.prepared().workspace()));
        claim = taken;
        return taken::release;
    }

    /**
     * The deploy (its failure is a row of the results too: a run without tier rows would read unverified):
     * a failure the host caused is an infrastructure row and a {@link HostFault} (an error in Surefire's
     * XML), the recipe's a failed row and an {@link AssertionError} (a failure there), a stop's as it was.
     */
    @Override
    public LiveRun deploy(Connected engine, Made made) throws Exception {
        if (!run.deploysApp()) {
            return new RecipeOnly(made.prepared(), made.tools().driver(), run.recipe());
        }
        if (run.tiers().contains(Tier.UPGRADE)) {
            // the other bases' upgrades begin with the run's own deploy: each its own app, claimed as this one was
            matrix = UpgradeMatrix.begin(run, means, engine.leases(), made);
        }
        try {
            return made.app().deploy(made.prepared(), made.tools());
        } catch (Exception | Error e) {
            // a stop (SIGTERM, the deadline, the run's budget, its disk share, its lease) is what the row says, not the
            // interrupt it caused
            Optional<String> stopped = means.guards().stopReason();
            Optional<HostFault> hosts = stopped.isPresent() ? Optional.empty() : HostFaults.on(engine.docker()).of(e);
            if (hosts.isPresent()) {
                // the host's, not the recipe's: the install rung reads unver, and the run says whose fault it was
                run.record().add(RunRecord.Row.skipped(Tier.INSTALL, "deploy", SkipKind.INFRASTRUCTURE,
                        run.redact(hosts.get().getMessage())));
                LOG.error("!! {} !!", run.redact(hosts.get().getMessage()));
                throw hosts.get();
            }
            run.record().add(RunRecord.Row.failed(Tier.INSTALL, "deploy", run.redact(stopped
                    .orElse(String.valueOf(e.getMessage())))));
            if (stopped.isEmpty() && e instanceof Exception) {
                // the recipe's red, as an assertion: Surefire writes it as a <failure>, the host's as an <error>
                throw new AssertionError(e.getMessage(), e);
            }
            throw e;
        }
    }

    /**
     * The tiers start on a ready app (INSTALL's ready-probe check gives the READY_PROBE's verdict);
     * afterwards the run checks its own deploy count, whatever tiers ran (none at all for a run that
     * deploys nothing).
     */
    @Override
    public void tiers(LiveRun live) throws Exception {
        if (!(live instanceof Deployment deployment)) {
            steps.tiers(live, means.guards()::stopReason);
            requireDeployedOnce(live);
            return;
        }
        try {
            CiKeys keys = run.keys();
            if (deployment.convergence().converged() && keys.readyProbe().isPresent()) {
                Duration timeout = Duration.ofSeconds(keys.httpTimeoutSeconds());
                // a probe begun beside the convergence has its own "ready-probe" phase
                Probes.Outcome ready = deployment.readinessBegun().isPresent()
                        ? deployment.probes().readiness(keys.readyProbe().get(), timeout)
                        : timeline.time("ready-probe", () -> deployment.probes().readiness(keys.readyProbe().get(), timeout));
                LOG.info("READY_PROBE {}: {}", keys.readyProbe().get(), ready.detail());
            }
            steps.tiers(deployment, means.guards()::stopReason);
            requireDeployedOnce(deployment);
        } finally {
            deployment.endCommands();
        }
        requireEveryBaseUpgraded();
    }

    /**
     * The upgrades from the other bases, once each has its verdict: a failed one is a failed UPGRADE row of the
     * run's (its rung holds only if every base's upgrade passed) and fails the run naming the base; a
     * skip is neither.
     */
    private void requireEveryBaseUpgraded() throws Exception {
        List<String> failed = new ArrayList<>();
        // the verdicts alone: each base's teardown goes on beside the run's own, which awaits it
        for (UpgradeCell cell : matrix.verdicts()) {
            if (cell.status() == UpgradeCell.Status.FAIL) {
                run.record().add(RunRecord.Row.failed(Tier.UPGRADE, "from " + cell.base(), cell.reason()));
                failed.add(cell.base() + " (" + cell.reason() + ")");
            }
        }
        if (!failed.isEmpty()) {
            throw new IllegalStateException("the upgrade to the head failed from " + String.join(", ", failed)
                    + ": an operator running that release cannot upgrade; see the upgrade matrix in the report.");
        }
    }

    /** The run's own deploy count, as its live run judges it: a violation fails the run and its install rung. */
    private void requireDeployedOnce(LiveRun live) throws Exception {
        Optional<String> violation = live.deployOnceViolation();
        if (violation.isPresent()) {
            // in the results too, not only in Surefire's verdict: the install rung fails
            run.record().add(RunRecord.Row.failed(Tier.INSTALL, "deploy-once", violation.get()));
            throw new IllegalStateException(violation.get());
        }
    }

    /**
     * Teardown must finish even when the run was stopped (SIGTERM, deadline): from here on, signals
     * are logged and ignored and no interrupt of the guards is pending. The app and its dependencies
     * go side by side (a failed removal of the app must not keep them), then the results and the
     * Teardown extensions, even if a removal failed. Last the dependencies' locks go (the app's right
     * after, in {@link RunPhases}): nobody live owns the domains now, and a janitor reaps whatever a
     * failed removal left.
     */
    @Override
    public void teardown(Connected engine, Made made) {
        LifetimeGuards guards = means.guards();
        guards.beginTeardown();
        String domain = made.prepared().checkout().domain();
        LOG.info("== tearing down {} ==", domain);
        boolean clean = false;
        Optional<KeepOnFailure.Kept> kept = Optional.empty();
        List<UpgradeCell> cells = List.of();
        RunTimeline.Span span = timeline.start("teardown");
        // the other bases' upgrades, if any still goes (the run failed or was stopped first), stop and tear down beside
        matrix.stop();
        try {
            // the disk watch ends first: a pause of the app's containers must not race their removal
            made.app().endWatch();
            // no probe starts from here on; the app's probe container goes with its stack
            made.tools().http().close();
            made.tools().browser().close();
            // The app and its cold dependencies go at once, as the engine removes stacks side by side.
            CompletableFuture<List<String>> depsLeft = run.keys().deps().isEmpty()
                    ? CompletableFuture.completedFuture(List.of()) : means.threads().aside("dependencies", made.deps()::remove);
            // a failed run's app may be kept (ccci.keep-on-failure): handed over with its lock, not removed
            kept = keepIfFailed(engine, made, domain);
            List<String> left = kept.isPresent() ? new ArrayList<>() : removeApp(made, domain);
            List<String> depsGone = RunHelpers.leftBy(depsLeft);
            if (!left.isEmpty() && depsGone.isEmpty() && !run.keys().deps().isEmpty()) {
                // the run's network is the app's, and its cold dependencies join it: swarm removes it only once
                // their services are gone, which may be after the app's removal looked
                left = removeApp(made, domain);
            }
            left.addAll(depsGone);
            cells = matrix.await();
            left.addAll(matrix.left());
            clean = left.isEmpty();
            LOG.info("== teardown of {}: {} ==", domain, kept.isPresent() ? "its app is kept until " + kept.get().until()
                    + (clean ? "; the rest clean" : "; left " + left) : clean ? "clean" : "left " + left);
        } finally {
            span.end(clean ? RunTimeline.Outcome.DONE : RunTimeline.Outcome.FAILED);
            try {
                List<String> secrets = new ArrayList<>(made.deps().secretValues());
                made.app().created().ifPresent(app -> secrets.addAll(app.secretValues().values()));
                secrets.addAll(matrix.secretValues());
                RunEnding.publish(run, made.prepared().checkout(), made.prepared().setup().used(), new RunEnding.Teardown(
                        clean, secrets, new RunResults.Environment(settings.driver(), engine.docker().facts()), cells,
                        kept.map(KeepOnFailure.Kept::lines).orElse(List.of())),
                        means.runLog());
                RunIdLock.keepPrivate(settings.runDir());
                steps.teardown();
            } finally {
                made.deps().releaseLocks();
            }
        }
    }

    /**
     * A failed run's app handed to a keeper ({@code ccci.keep-on-failure}), if the host asks for it: only a
     * run that failed on its own (a row of its results failed), never one stopped (SIGTERM, the deadline,
     * its budget, its lease), and only an app that was created. Empty: the teardown removes it as always.
     */
    private Optional<KeepOnFailure.Kept> keepIfFailed(Connected engine, Made made, String domain) {
        RunSettings.Keep keep = settings.options().trust().bounds().keep();
        DomainClaim held = claim;
        if (!keep.on() || held == null || !run.deploysApp() || made.app().created().isEmpty()
                || means.guards().stopRequested() || means.guards().stopReason().isPresent()
                || run.record().rows().stream().noneMatch(r -> r.status() == RunRecord.Status.FAILED)) {
            return Optional.empty();
        }
        if (keep.clamped()) {
            LOG.warn("== keep-on-failure {} s is longer than this host's most (-D{}={}): the app is kept {} s ==",
                    keep.asked().toSeconds(), "ccci.keep-on-failure.max", keep.max().toSeconds(), keep.duration().toSeconds());
        }
        List<String> secrets = new ArrayList<>(made.deps().secretValues());
        made.app().created().ifPresent(app -> secrets.addAll(app.secretValues().values()));
        return KeepOnFailure.handOver(new KeepOnFailure.Request(
                new KeepOnFailure.Place(domain, settings.runId(), settings.paths().appLockDir(), settings.runDir()),
                new KeepOnFailure.Times(keep.duration(), settings.options().lease().ttl(), settings.options().lease().heartbeat()),
                held, new KeepOnFailure.App(engine.docker().host(), made.prepared().workspace().abraDir().canonicalServers(),
                        secrets), means.guards()));
    }

    /** The run's app removed, if it deployed one; what is left of it. */
    private List<String> removeApp(Made made, String domain) {
        List<String> left = new ArrayList<>();
        try {
            if (run.deploysApp()) {
                left.addAll(made.tools().driver().remove(domain));
            } else {
                LOG.info("== {}: the run deployed nothing, so no app to remove ==", domain);
            }
        } catch (Exception e) {
            left.add("app " + domain + " (" + e + ")");
            LOG.warn("removing {} failed: {}", domain, e.toString());
        }
        return left;
    }

    @Override
    public void finished(Made made) throws Exception {
        made.prepared().workspace().state().remove();
    }

    /**
     * The engine went away mid-run (a dockerd restart or stop): one line naming it, not the socket's
     * own exception, reported as the host's fault; the teardown has already retried within its bound.
     * Any other failure of the host's ({@link HostFaults}: ccci's own bug in a phase, say) is reported
     * as a {@link HostFault} too, so Surefire writes it as an error and the words say whose it is.
     */
    @Override
    public Exception explained(Exception failure) {
        if (HostFaults.engineGone(failure)) {
            String gone = DockerEngine.goneMessage(engineHost, failure);
            LOG.error("!! {} !!", gone);
            return failure instanceof HostFault ? failure : new HostFault(HostFault.Cause.ENGINE, gone, failure);
        }
        if (failure instanceof HostFault) {
            return failure;
        }
        if (means.guards().stopReason().isPresent()) {
            return failure;
        }
        Optional<HostFault> hosts = HostFaults.withoutEngine().of(failure);
        hosts.ifPresent(fault -> LOG.error("!! {} !!", run.redact(fault.getMessage())));
        return hosts.<Exception>map(fault -> fault).orElse(failure);
    }
}
