package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RunHookContext;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.driver.DriverProvider;
import net.commoninternet.ccci.extensions.driver.Drivers;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.lock.RunIdLock;
import net.commoninternet.ccci.extensions.results.AppPictures;
import net.commoninternet.ccci.extensions.results.CustomizationManifest;
import net.commoninternet.ccci.extensions.results.RunReport;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.probe.AppProbes;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.boundary.EngineBoundary;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.probe.MountedSecrets;
import net.commoninternet.ccci.extensions.browser.PageBrowser;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.policy.DeployTimeout;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.HostVariables;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.RunSteps;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run under its guards, phase by phase, in the order of the spec: connect to the engine,
 * sweep (the janitor), prepare (run folder, ABRA_DIR, state files, fetch, upgrade plan), lock
 * (the app domain, before the app exists), deploy (dependencies, app, set-up, the one deploy,
 * convergence), tiers, and the teardown in {@code finally}. Each phase is a call to the class
 * named after the spec's mechanism.
 */
final class RunPhases {

    private static final Logger LOG = LoggerFactory.getLogger(RunPhases.class);

    private final LifecycleContext run;
    /** The engine's side of the run: its extensions, its hooks, its tiers, each when this lifecycle says. */
    private final RunSteps steps;
    private final RedactedConsole console;
    private final LifetimeGuards guards;
    private final RunSettings settings;
    private final RunTimeline timeline;
    private final RedactedConsole.RunLog runLog;
    /** The run's own app, once created: what the teardown's results mask even if the deploy failed. */
    private App app;
    /** The READY_PROBE begun beside the convergence's stability windows ({@link #beginReadiness}); null if it was not. */
    private CompletableFuture<Probes.Outcome> readinessBegun;
    /** The app domain's flock and lease, held from before the app exists until the run's teardown is over. */
    private DomainClaim lock;
    /** The swarm's app-domain leases as this run takes them (its own and its cold dependencies'). */
    private AppDomainLease leases;
    /** The engine the run connected to, for the one line that says it went away. */
    private String engineHost = "the address " + ChildEnvironment.DOCKER_HOST + " names";

    /** @param means the run's console, its log and its guards */
    RunPhases(LifecycleContext run, RunSteps steps, RunMeans means) {
        this.run = run;
        this.steps = steps;
        this.console = means.console();
        this.runLog = means.runLog();
        this.guards = means.guards();
        this.settings = run.settings();
        this.timeline = run.timeline();
    }

    /** What one run is given by its command: the shared console, the run's own log, the run's guards. */
    record RunMeans(RedactedConsole console, RedactedConsole.RunLog runLog, LifetimeGuards guards) {
    }

    void run() throws Exception {
        try {
            phases();
        } catch (Exception e) {
            // The engine went away mid-run (a dockerd restart or stop): one line naming it, not the
            // socket's own exception; the teardown has already retried within its bound.
            if (DockerEngine.unreachable(e)) {
                String gone = DockerEngine.goneMessage(engineHost, e);
                LOG.error("!! {} !!", gone);
                throw new IllegalStateException(gone);
            }
            throw e;
        }
    }

    private void phases() throws Exception {
        // The engine's egress rules are read from this host while the connection is made: they need
        // its address only (iptables-save in its network namespace: nothing is changed).
        String host = DockerEngine.configuredHost();
        ChildProcesses hostTools = new ChildProcesses(Map.of(ChildEnvironment.DOCKER_HOST, host));
        guards.killOnStop(hostTools);
        Set<RunSettings.HostTrust.Boundary> unconfined = settings.options().trust().unconfined();
        CompletableFuture<Optional<String>> egress = new CompletableFuture<>();
        if (unconfined.contains(RunSettings.HostTrust.Boundary.EGRESS)) {
            egress.complete(Optional.empty());
        } else {
            helper("ccci-egress-rules", true, () -> {
                try {
                    egress.complete(EngineBoundary.egressMissingReadEarly(host, hostTools));
                } catch (Exception | Error e) {
                    egress.completeExceptionally(e);
                }
            });
        }
        try {
            phases(host, hostTools, unconfined, egress);
        } finally {
            awaitEnd(egress); // its child is the run's: it never outlives the run's start
        }
    }

    private void phases(String host, ChildProcesses hostTools, Set<RunSettings.HostTrust.Boundary> unconfined,
            CompletableFuture<Optional<String>> egress) throws Exception {
        // No engine or no swarm: one sentence naming the fix, before anything exists on the host.
        try (DockerEngine docker = timeline.time("connect", DockerEngine::connect)) {
            engineHost = docker.host();
            DriverProvider driver = Drivers.of(settings.driver());
            driver.requireAvailable();
            // The host's boundaries around recipe containers (gVisor, the egress rules): refused here
            // without one, unless the host's operator accepts it, before anything of the run exists.
            EngineBoundary.require(docker, unconfined, docker.host().equals(host) ? awaited(egress)
                    : EngineBoundary.egressMissing(docker.host(), hostTools));
            // One run id, one live run: refused here, before this run writes anything to the folder.
            RunIdLock.acquire(settings.runDir(), settings.runId());
            steps.beforeRun();
            RunWorkspace workspace = workspace(docker);
            Prepared prepared = fetchBesideTheJanitor(docker, workspace);
            RunTools tools = new RunTools(docker, new CountedDeploys(driver.create(docker, workspace), workspace.state(),
                    workspace.policy()),
                    new HttpProbe(docker.client(), settings.options().probeImage()), new PageBrowser(docker.client()),
                    (name, work) -> helper(name, true, work));
            leases = leases(docker, guards::stopAlone);
            lock = timeline.time("lock", () -> lock(leases, prepared.checkout().domain(), tools, workspace));
            try {
                deployTestAndTearDown(prepared, tools);
            } finally {
                lock.release(); // after the teardown: nobody live owns the domain now
            }
            workspace.state().remove();
        }
    }

    /**
     * Before anything of this run exists: reap the apps of dead runs, never a live one. A stop
     * during the sweep lets the reap under way finish and takes no further orphan (the next run's
     * janitor does); the run then ends without creating anything.
     */
    private Void sweep(DockerEngine docker, AppDomainLease leases) throws IOException, InterruptedException {
        StackTeardown teardown = new StackTeardown(docker.client());
        Path servers = settings.paths().abraDir().resolve("servers");
        Files.createDirectories(settings.paths().appLockDir());
        new Janitor(settings.paths().appLockDir(), settings.paths().domainSuffix(), settings.options().deadline().multipliedBy(2),
                Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers)), leases)
                .sweep(JanitorCandidates.discover(servers, docker, settings.paths().domainSuffix()), guards::stopRequested);
        if (guards.stopRequested()) {
            throw new InterruptedException("the run was stopped during the janitor's sweep, before it created anything");
        }
        return null;
    }

    /**
     * The swarm's app-domain leases as this run takes them (holder: this host, its lock folder, this
     * process, this run id), with the times {@code ccci.lease.ttl} and {@code ccci.lease.heartbeat}
     * set; {@code onLost} is told when a held lease can no longer be confirmed (the run stops itself).
     */
    private AppDomainLease leases(DockerEngine docker, Consumer<String> onLost) {
        RunSettings.Lease times = settings.options().lease();
        return new AppDomainLease(new SwarmRecords(docker.http()),
                AppDomainLease.Holder.of(settings.paths().appLockDir(), settings.runId()),
                new AppDomainLease.Timing(times.ttl(), times.heartbeat()), onLost);
    }

    /**
     * The run's folder, its ABRA_DIR and its state files (keyed by run id and pid, never by
     * domain); from here on the (masked) console also goes into the run's run.log, and every
     * child process gets the run's ABRA_DIR, state files and engine ({@code DOCKER_HOST}) and is killed if the run is stopped.
     */
    private RunWorkspace workspace(DockerEngine docker) throws IOException {
        Path runDir = settings.runDir();
        RunAbraDir abraDir = RunAbraDir.create(runDir, settings.paths().abraDir());
        RunState state = RunState.create(runDir, settings.runId(), ProcessHandle.current().pid());
        runLog.teeTo(runDir.resolve("run.log"));
        Map<String, String> environment = new HashMap<>(state.environment());
        environment.put(HostVariables.ABRA_DIR, abraDir.root().toString());
        environment.putAll(docker.childEnvironment()); // the docker CLI children talk to the run's own engine
        ChildProcesses children = new ChildProcesses(environment);
        guards.killOnStop(children);
        return new RunWorkspace(runDir, abraDir, state, children,
                new DeployPolicy(settings.options().trust(), children));
    }

    /**
     * The janitor on the run's thread and the fetch on a thread of the run's own, at once. Resources:
     * the janitor's are the engine's stacks, the lock folder and the canonical ABRA_DIR's servers;
     * the fetch's are the run's own folder (its ABRA_DIR's recipe tree, which only this run, holding
     * its run id, writes) and its git children. They share none, so no order between them can be
     * observed, and neither creates anything of the app: the app lock, the first thing of the app,
     * comes after both. Every way out waits for the fetch to end (its children are killed on a stop
     * with the run's), so nothing of it outlives the run's start; the janitor's failure comes first,
     * then the fetch's; what the fetch found is printed once both are over, as before.
     */
    private Prepared fetchBesideTheJanitor(DockerEngine docker, RunWorkspace workspace) throws Exception {
        CompletableFuture<Prepared> fetched = new CompletableFuture<>();
        helper("ccci-fetch", true, () -> {
            try {
                fetched.complete(timeline.time("fetch", () -> prepare(workspace)));
            } catch (Exception | Error e) {
                fetched.completeExceptionally(e);
            }
        });
        try {
            timeline.time("janitor", () -> sweep(docker, leases(docker, why -> LOG.warn("janitor: {}", why))));
        } catch (Exception | Error e) {
            awaitEnd(fetched);
            throw e;
        }
        Prepared prepared = awaited(fetched);
        announce(prepared);
        return prepared;
    }

    /** What {@code work} gave, or what it threw, once it ended; if the wait is interrupted, {@code work} ends first. */
    private static <T> T awaited(CompletableFuture<T> work) throws Exception {
        try {
            return work.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            awaitEnd(work);
            throw e;
        }
    }

    /** Waits until {@code work} ended, however it ends; an interrupt is kept for afterwards. */
    private static void awaitEnd(CompletableFuture<?> work) {
        boolean interrupted = false;
        while (!work.isDone()) {
            try {
                work.get();
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The recipe into the run's own tree at the ref under test, its domain, and its upgrade plan;
     * UPGRADE deploys the base release first and moves the same tree to the head in place.
     */
    private Prepared prepare(RunWorkspace workspace) throws IOException, InterruptedException {
        RecipeFetch fetch = workspace.fetch();
        RecipeFetch.Fetched tree = settings.options().skipFetch()
                ? fetch.copyStaged(workspace.abraDir().stagedRecipe(run.recipe()), workspace.abraDir().recipe(run.recipe()),
                        settings.subject().ref())
                : fetch.fetch(run.recipeSource(), workspace.abraDir().recipe(run.recipe()), settings.subject().ref());
        String ref = settings.subject().ref() != null ? settings.subject().ref() : tree.commit();
        String domain = AppNaming.domain(run.recipe(), settings.subject().pr(), ref, settings.paths().domainSuffix());
        CiKeys keys = run.keys();
        RecipeSetup setup = new RecipeSetup(settings.recipeCodeApproved(), run.customization(), workspace.children());
        UpgradePlan upgrade = UpgradePlan.resolve(fetch, tree, run.tiers().contains(Tier.UPGRADE), keys.upgradeBaseVersion());
        if (upgrade.base().isPresent()) {
            fetch.moveTo(tree.dir(), upgrade.base().get().text());
        }
        return new Prepared(keys, run.tiers(), workspace, new Checkout(tree, ref, domain, upgrade), setup);
    }

    /** What the run tests, how it is customized, and its upgrade plan, as the fetch found them. */
    private void announce(Prepared prepared) {
        Checkout checkout = prepared.checkout();
        LOG.info("== ccci run {} (pid {}): recipe {} at {} (pr {}), app {}, ABRA_DIR {} ==", settings.runId(),
                ProcessHandle.current().pid(), run.recipe(), checkout.tree().commit(), settings.subject().pr(),
                checkout.domain(), prepared.workspace().abraDir().root());
        CiKeys keys = prepared.keys();
        LOG.info("== customization: {} ==", CustomizationManifest.of(keys, run.customization(), Map.of(),
                settings.recipeCodeApproved(), List.of()));
        keys.notActedOn().forEach(k -> LOG.warn("CI key {} is recorded but not acted on by this ccci", k));
        // an operator's escalation is said on every run that has one, used or not
        DeployAllowance allowance = settings.options().trust().deployAllowance();
        List<DeployAllowance.Entry> allowed = allowance.of(run.recipe());
        if (!allowed.isEmpty()) {
            LOG.warn("!! deploy allowance for {} (set on this host with {}): {}: its compose may"
                    + " reach the host that far beyond its own swarm objects !!", run.recipe(), allowance.source(),
                    allowed.stream().map(DeployAllowance.Entry::toString).collect(Collectors.joining(", ")));
        }
        checkout.upgrade().base().ifPresent(base -> LOG.info("== upgrade plan: deploy {} first, then upgrade in place to {} ==",
                base, checkout.tree().commit()));
    }

    /**
     * Held before the app exists, until the run's teardown is over: a janitor never sees the app
     * unlocked, on this host (the flock) or any other of the swarm (the lease, {@link DomainClaim}). Then whatever a dead run of the same domain left is reaped under that lock, before
     * this run creates anything ({@link Janitor#reapLeftByDeadRun}); the cold dependencies' domains
     * too. A lock whose leftovers could not be reaped is released at once: this run creates nothing.
     */
    static DomainClaim lock(AppDomainLease leases, String domain, RunTools tools, RunWorkspace workspace) throws Exception {
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

    /** Deploy and tiers, then the teardown in {@code finally}, whatever stopped them. */
    private void deployTestAndTearDown(Prepared prepared, RunTools tools) throws Exception {
        ColdDeps deps = new ColdDeps(run, prepared.workspace(), tools, console, leases);
        try {
            Deployment deployment;
            try {
                deployment = deploy(prepared, tools, deps);
            } catch (Exception | Error e) {
                // in the results too: a run whose deploy failed has no tier rows, and would read unverified
                run.record().add(RunRecord.Row.failed(Tier.INSTALL, "deploy", run.redact(String.valueOf(e.getMessage()))));
                throw e;
            }
            try {
                tiers(deployment);
            } finally {
                deployment.endCommands();
            }
        } finally {
            teardown(prepared, tools, deps);
        }
    }

    /**
     * Cold dependencies first (deployed, converged and reachable before the app's hooks run), then
     * the app: created, set up (env, overlays, install steps), its pre-install hooks, the one
     * deploy, convergence, and the secret values it really mounts (under the abra driver ccci never
     * saw them), masked from then on.
     */
    private Deployment deploy(Prepared prepared, RunTools tools, ColdDeps coldDeps) throws Exception {
        Checkout checkout = prepared.checkout();
        Dependencies deps = run.keys().deps().isEmpty() ? coldDeps.deploy(checkout.ref())
                : timeline.time("dependencies", () -> coldDeps.deploy(checkout.ref()));
        timeline.time("deploy", () -> {
            app = tools.driver().newApp(run.recipe(), checkout.domain(), checkout.tree().dir(), prepared.workspace().abraDir());
            console.addSecrets(app.secretValues().values());
            prepared.setup().beforeInstall(app, prepared.keys());
            steps.beforeDeploy(new RunHookContext(app, prepared.keys(), Tier.INSTALL, Optional.empty(), deps.domains()));
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
        Runnable ready = connects.isEmpty() ? null : once(() -> readinessBegun = beginReadiness(tools, connects.get()));
        SwarmConvergence.Report converged = timeline.time("convergence", () -> {
            SwarmConvergence.Report report = new SwarmConvergence(tools.docker())
                    .await(app.stack(), DeployTimeout.of(prepared.keys(), app, prepared.workspace().children()), browser,
                            ready);
            Map<String, String> mounted = MountedSecrets.read(tools.docker().client(), app.stack(), app.secretValues().keySet());
            console.addSecrets(mounted.values());
            app = app.withSecrets(mounted);
            return report;
        });
        browser.run(); // a stack whose tasks never all started: now, as for any ended convergence
        return new Deployment(prepared, tools, deps, app, new Deployment.Settled(converged, readinessBegun));
    }

    /**
     * The app's READY_PROBE, begun now on a thread of the run's, its "ready-probe" phase from now
     * (it overlaps the convergence's end): the run's one wait for it, which the tiers' start and
     * INSTALL's ready-probe check take ({@link Probes#readiness}). It ends at its own timeout or
     * when the teardown closes the app's probes, whichever comes first.
     */
    private CompletableFuture<Probes.Outcome> beginReadiness(RunTools tools, CiKeys.Probe probe) {
        CompletableFuture<Probes.Outcome> outcome = new CompletableFuture<>();
        RunTimeline.Span span = timeline.start("ready-probe");
        AppProbes probes = new AppProbes(tools.http(), new ContainerExec(tools.docker().client()), app.stack(), app.domain(),
                run.keys().healthOk());
        Duration timeout = Duration.ofSeconds(run.keys().httpTimeoutSeconds());
        helper("ccci-ready-probe", true, () -> {
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

    /**
     * The tiers start on a ready app (INSTALL's ready-probe check gives the READY_PROBE's verdict);
     * afterwards the run checks its own deploy count, whatever tiers ran.
     */
    private void tiers(Deployment deployment) throws Exception {
        CiKeys keys = run.keys();
        if (deployment.convergence().converged() && keys.readyProbe().isPresent()) {
            Duration timeout = Duration.ofSeconds(keys.httpTimeoutSeconds());
            // a probe begun beside the convergence has its own "ready-probe" phase
            Probes.Outcome ready = readinessBegun != null ? deployment.probes().readiness(keys.readyProbe().get(), timeout)
                    : timeline.time("ready-probe", () -> deployment.probes().readiness(keys.readyProbe().get(), timeout));
            LOG.info("READY_PROBE {}: {}", keys.readyProbe().get(), ready.detail());
        }
        steps.tiers(deployment, guards::stopReason);
        Optional<String> violation = deployment.deployOnceViolation();
        if (violation.isPresent()) {
            // in the results too, not only in Surefire's verdict: the install rung fails
            run.record().add(RunRecord.Row.failed(Tier.INSTALL, "deploy-once", violation.get()));
            throw new IllegalStateException(violation.get());
        }
    }

    /**
     * Teardown must finish even when the run was stopped (SIGTERM, deadline): from here on,
     * signals are logged and ignored and no interrupt of the guards is pending. The app and its
     * dependencies go side by side (a failed removal of the app must not keep them), then the
     * results and the Teardown extensions, even if a removal failed. Last the dependencies' locks go (the app's
     * right after, in {@link #run}): nobody live owns the domains now, and a janitor reaps whatever
     * a failed removal left.
     */
    private void teardown(Prepared prepared, RunTools tools, ColdDeps deps) {
        guards.beginTeardown();
        String domain = prepared.checkout().domain();
        LOG.info("== tearing down {} ==", domain);
        boolean clean = false;
        RunTimeline.Span span = timeline.start("teardown");
        try {
            // no probe starts from here on; the app's probe container goes with its stack
            tools.http().close();
            tools.browser().close();
            // The app and its cold dependencies go at once, as the engine removes stacks side by side;
            // a failed removal of the app keeps none of them.
            CompletableFuture<List<String>> depsLeft = run.keys().deps().isEmpty()
                    ? CompletableFuture.completedFuture(List.of()) : aside("dependencies", deps::remove);
            List<String> left = new ArrayList<>();
            try {
                left.addAll(tools.driver().remove(domain));
            } catch (Exception e) {
                left.add("app " + domain + " (" + e + ")");
                LOG.warn("removing {} failed: {}", domain, e.toString());
            }
            left.addAll(awaitUninterruptibly(depsLeft));
            clean = left.isEmpty();
            LOG.info("== teardown of {}: {} ==", domain, clean ? "clean" : "left " + left);
        } finally {
            span.end(clean ? RunTimeline.Outcome.DONE : RunTimeline.Outcome.FAILED);
            try {
                writeResults(prepared, tools, deps, clean);
                RunIdLock.keepPrivate(settings.runDir());
                steps.teardown();
            } finally {
                deps.releaseLocks();
            }
        }
    }

    /**
     * {@code part} of the teardown on a thread of its own, whose lines are the run's; never
     * interrupted by the run's guards, bounded by the removal's own limits.
     */
    private CompletableFuture<List<String>> aside(String part,
            Supplier<List<String>> removal) {
        CompletableFuture<List<String>> left = new CompletableFuture<>();
        helper("ccci-teardown-" + part, false, () -> {
            try {
                left.complete(removal.get());
            } catch (RuntimeException | Error e) {
                LOG.warn("removing the {} of {} failed: {}", part, run.recipe(), e.toString());
                left.complete(List.of(part + " (" + e + ")"));
            }
        });
        return left;
    }

    /**
     * A thread that works for this run (the run's {@code RunThreads}): its lines carry the run's recipe and go
     * to its run.log until {@code work} returns. A teardown's part is no daemon: the JVM does not end
     * under it.
     */
    private Thread helper(String name, boolean daemon, Runnable work) {
        AtomicReference<Runnable> released = new AtomicReference<>();
        Thread helper = new Thread(() -> {
            org.slf4j.MDC.put(RecipeCiRun.MDC_RECIPE, run.recipe());
            try {
                work.run();
            } finally {
                released.get().run();
            }
        }, name + "-" + run.recipe());
        helper.setDaemon(daemon);
        released.set(runLog.alsoFrom(helper));
        helper.start();
        return helper;
    }

    /** The teardown waits for all of itself: an interrupt (none is expected now) is kept for afterwards. */
    private static List<String> awaitUninterruptibly(CompletableFuture<List<String>> part) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return part.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return List.of(String.valueOf(e.getCause()));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** results.json and the RUN SUMMARY describe the verdict; a failure to write them never changes it. */
    private void writeResults(Prepared prepared, RunTools tools, ColdDeps deps, boolean clean) {
        List<String> secrets = new ArrayList<>(deps.secretValues());
        if (app != null) {
            secrets.addAll(app.secretValues().values());
        }
        Checkout checkout = prepared.checkout();
        RunResults.Run summary = new RunResults.Run(
                new RunResults.Tested(run.recipe(), checkout.upgrade().headVersion().orElse(null), checkout.tree().commit(),
                        checkout.domain(), new RunResults.Upgrade(checkout.upgrade().base().map(RecipeVersion::text).orElse(null),
                                checkout.upgrade().headRelease().orElse(null), checkout.upgrade().reason())),
                settings.subject().pr(), settings.runId(), run.tiers(),
                new RunResults.Evidence(clean, secrets, CustomizationManifest.of(prepared.keys(), run.customization(),
                        prepared.setup().used(), settings.recipeCodeApproved(), secrets), timeline,
                        new RunResults.Environment(settings.driver(), tools.docker().facts())));
        // The RUN SUMMARY is printed whatever happens to the file (a full disk under the runs folder).
        Path file = null;
        String where;
        try {
            file = RunResults.write(settings.runDir(), summary, run.record());
            where = "results " + file + ", report " + file.resolveSibling(RunReport.HTML) + ", summary "
                    + file.resolveSibling(RunReport.SUMMARY);
        } catch (Exception e) {
            where = "results not written (" + e.getMessage() + ")";
            LOG.warn("could not write the run's results (the verdict stands): {}", e.toString());
        }
        LOG.info("{}{}", System.lineSeparator(), RunResults.summary(summary, run.record(), where));
        try {
            if (file != null) {
                run.attach(file, "application/json");
                run.attach(file.resolveSibling(RunReport.HTML), "text/html");
                run.attach(file.resolveSibling(RunReport.BADGE), "image/svg+xml");
                run.attach(file.resolveSibling(RunReport.SUMMARY), "text/markdown");
            }
        } catch (Exception e) {
            LOG.warn("could not attach the run's results (the verdict stands): {}", e.toString());
        }
    }

}
