package net.commoninternet.ccci.extensions.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.AppProbes;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.LiveAppOnSwarm;
import net.commoninternet.ccci.extensions.deployment.RunHookContext;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.driver.CountedDeploys;
import net.commoninternet.ccci.extensions.driver.abra.AbraDriver;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.lifetime.LifetimeGuards;
import net.commoninternet.ccci.extensions.lifetime.ParentDeathSignal;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.results.CustomizationManifest;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.MountedSecrets;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
import net.commoninternet.ccci.extensions.workspace.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.extensions.workspace.UpgradePlan;
import net.commoninternet.ccci.spi.DependencyKeys;
import net.commoninternet.ccci.spi.PreOperationHooks;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.RunLifecycle;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One recipe CI run, top to bottom, in the order of the spec: lifetime guards, engine check,
 * janitor, per-run ABRA_DIR and state files, fetch, app-domain lock, app, deploy once,
 * converge, tiers, and teardown in {@code finally}. Each step is a call to the class named
 * after the spec's mechanism.
 */
public final class RecipeCiRun implements RunLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(RecipeCiRun.class);

    /**
     * The engine loads this class when it discovers runs, right after the JVM starts: noting the
     * parent now lets the guards see later whether it died before they were armed.
     */
    private static final long PARENT_AT_START = ParentDeathSignal.PARENT_AT_START;

    /**
     * System property: a file that gets the run's whole (secret-filtered) console as well, from the
     * guards to the RUN SUMMARY; it still gets a cancelled run's teardown after Maven is gone.
     */
    static final String LOG_FILE = "ccci.log-file";

    @Override
    public void run(RunContext run, Tiers tiers) throws Exception {
        // On the thread that runs the run, before any child process or lock: the parent-death
        // signal, the SIGTERM funnel and the hard deadline (spec section 2). Only the console
        // filter comes before them (it starts nothing and takes no lock), so the log file has
        // every line of the run, the guards' own included.
        try (RedactedConsole console = RedactedConsole.install()) {
            String logFile = System.getProperty(LOG_FILE, "");
            if (!logFile.isBlank()) {
                console.teeTo(Path.of(logFile));
            }
            try (LifetimeGuards guards = LifetimeGuards.install(run.settings().deadline())) {
                runGuarded(run, tiers, guards, console);
            }
        }
    }

    private void runGuarded(RunContext run, Tiers tiers, LifetimeGuards guards, RedactedConsole console) throws Exception {
        RunSettings settings = run.settings();
        // Failures and skips are reported outside this process (Surefire's report): masked here.
        run.redactWith(console::redact);
        // No engine or no swarm: one sentence naming the fix, before anything exists on the host.
        try (DockerEngine docker = DockerEngine.connect()) {
            if (settings.driver().equals(AbraDriver.DRIVER)) {
                AbraDriver.requireBinary(System.getenv().getOrDefault("PATH", ""));
            }
            extensions(run, RunExtension.BeforeRun.class).forEach(e -> call(() -> e.beforeRun(run)));

            // Before anything of this run exists: reap the apps of dead runs, never a live one.
            StackTeardown teardown = new StackTeardown(docker.client());
            Path servers = settings.abraDir().resolve("servers");
            Files.createDirectories(settings.appLockDir());
            new Janitor(settings.appLockDir(), settings.deadline().multipliedBy(2),
                    domain -> teardown.teardownApp(domain, servers))
                    .sweep(JanitorCandidates.discover(servers, docker));

            Path runDir = settings.runsDir().resolve(settings.runId());
            RunAbraDir abraDir = RunAbraDir.create(runDir, settings.abraDir());
            long pid = ProcessHandle.current().pid();
            RunState state = RunState.create(runDir, settings.runId(), pid);
            run.put(RunState.class, state);
            // From here to the end, the (filtered) console also goes into the run's run.log.
            console.teeTo(runDir.resolve("run.log"));
            runLogged(run, tiers, guards, docker, teardown, servers, runDir, abraDir, state, console);
        }
    }

    private void runLogged(RunContext run, Tiers tiers, LifetimeGuards guards, DockerEngine docker, StackTeardown teardown,
            Path servers, Path runDir, RunAbraDir abraDir, RunState state, RedactedConsole console) throws Exception {
        RunSettings settings = run.settings();
        long pid = ProcessHandle.current().pid();
        ChildProcesses children = new ChildProcesses(childEnvironment(abraDir, state));
        guards.killOnStop(children);
        RecipeFetch fetch = new RecipeFetch(children);
        RecipeFetch.Fetched recipe = settings.skipFetch()
                ? fetch.copyStaged(abraDir.stagedRecipe(run.recipe()), abraDir.recipe(run.recipe()), settings.ref())
                : fetch.fetch(run.recipeSource(), abraDir.recipe(run.recipe()), settings.ref());
        String ref = settings.ref() != null ? settings.ref() : recipe.commit();
        String domain = AppNaming.domain(run.recipe(), settings.pr(), ref);
        LOG.info("== ccci run {} (pid {}): recipe {} at {} (pr {}), app {}, ABRA_DIR {} ==",
                settings.runId(), pid, run.recipe(), recipe.commit(), settings.pr(), domain, abraDir.root());
        CiKeys keys = run.find(CiKeys.class).orElse(CiKeys.defaults());
        Optional<RecipeCustomization> customization = run.find(RecipeCustomization.class);
        LOG.info("== customization: {} ==", CustomizationManifest.of(keys, customization, Map.of(),
                settings.recipeCodeApproved(), List.of()));
        keys.notActedOn().forEach(k -> LOG.warn("CI key {} is recorded but not acted on by this ccci", k));
        RecipeSetup setup = new RecipeSetup(settings.recipeCodeApproved(), customization, children);
        run.put(RecipeSetup.class, setup);

        // UPGRADE deploys the base release first and moves the same tree to the head in place.
        UpgradePlan upgrade = UpgradePlan.resolve(fetch, recipe, run.tiers().contains(Tier.UPGRADE),
                keys.upgradeBaseVersion());
        run.put(UpgradePlan.class, upgrade);
        if (upgrade.base().isPresent()) {
            fetch.moveTo(recipe.dir(), upgrade.base().get().text());
            LOG.info("== upgrade plan: deploy {} first, then upgrade in place to {} ==", upgrade.base().get(), recipe.commit());
        }

        // Held before the app exists, until this process dies: a janitor never sees the app unlocked.
        AppDomainLock.acquire(settings.appLockDir(), domain);
        AppDriver driver = new CountedDeploys(settings.driver().equals(AbraDriver.DRIVER)
                ? new AbraDriver(children, teardown, servers)
                : new SwarmDriver(docker, children, runDir.resolve("backup"), servers), state);
        App app = null;
        boolean clean = false;
        ColdDeps deps = new ColdDeps(settings, driver, docker, fetch, children, abraDir, state, console);
        run.put(ColdDeps.class, deps);
        try {
            // Cold dependencies first: deployed, converged and reachable before the app's hooks run.
            deps.deploy(keys.deps(), run.find(DependencyKeys.class).orElse(DependencyKeys.none()), run.recipe(), ref,
                    Duration.ofSeconds(keys.deployTimeoutSeconds()));
            app = driver.newApp(run.recipe(), domain, recipe.dir(), abraDir);
            console.addSecrets(app.secretValues().values());
            // Set env, overlays, install steps; then the pre-install hooks, right before the one deploy.
            setup.beforeInstall(app, keys);
            App created = app;
            Map<String, String> depDomains = deps.domains();
            run.put(HookContext.Source.class, op -> new RunHookContext(created, keys, op, run, depDomains));
            PreOperationHooks.run(run, Tier.INSTALL);
            extensions(run, RunExtension.BeforeDeploy.class).forEach(e -> call(() -> e.beforeDeploy(run)));
            driver.deploy(app);
            SwarmConvergence.Report converged = new SwarmConvergence(docker)
                    .await(app.stack(), Duration.ofSeconds(keys.deployTimeoutSeconds()));
            // What the app really mounts (under the abra driver ccci never saw the values): masked from now on.
            Map<String, String> mounted = MountedSecrets.read(docker.client(), app.stack());
            console.addSecrets(mounted.values());
            app = app.withSecrets(mounted);
            Deployment deployment = new Deployment(app, driver, docker, children, converged);
            run.put(Deployment.class, deployment);
            run.put(LiveApp.class, new LiveAppOnSwarm(deployment, keys, depDomains));
            if (converged.converged() && keys.readyProbe().isPresent()) {
                // The tiers start on a ready app; INSTALL's ready-probe check gives the verdict.
                AppProbes.Outcome ready = new AppProbes(deployment, keys)
                        .await(keys.readyProbe().get(), Duration.ofSeconds(keys.httpTimeoutSeconds()));
                LOG.info("READY_PROBE {}: {}", keys.readyProbe().get(), ready.detail());
            }
            tiers.run();
            String violation = CountedDeploys.violation(state.deployCount(), 1 + deps.coldCount());
            if (violation != null) {
                // in the results too, not only in Surefire's verdict: the install rung fails
                run.record().add(new RunRecord.Row(Tier.INSTALL, "deploy-once", RunRecord.Status.FAILED, violation));
                throw new IllegalStateException(violation);
            }
        } finally {
            // Teardown must finish even when the run was stopped (SIGTERM, deadline): from
            // here on, signals are logged and ignored and no interrupt of the guards is pending.
            guards.beginTeardown();
            try {
                List<String> left = new java.util.ArrayList<>();
                try {
                    left.addAll(driver.remove(domain));
                } catch (Exception e) {
                    // the dependencies still go: a failed removal of the app must not keep them
                    left.add("app " + domain + " (" + e + ")");
                    LOG.warn("removing {} failed: {}", domain, e.toString());
                }
                left.addAll(deps.remove());
                clean = left.isEmpty();
                LOG.info("== teardown of {}: {} ==", domain, clean ? "clean" : "left " + left);
            } finally {
                List<String> secrets = new java.util.ArrayList<>(deps.secretValues());
                if (app != null) {
                    secrets.addAll(app.secretValues().values());
                }
                writeResults(run, runDir, new RunResults.Run(run.recipe(), upgrade.headVersion().orElse(null),
                        settings.pr(), recipe.commit(), settings.runId(), domain, run.tiers(), clean, secrets,
                        CustomizationManifest.of(keys, customization, setup.used(), settings.recipeCodeApproved(), secrets)));
                List<RunExtension.Teardown> last = new java.util.ArrayList<>(extensions(run, RunExtension.Teardown.class));
                java.util.Collections.reverse(last);
                last.forEach(e -> call(() -> e.teardown(run)));
            }
        }
        state.remove();
    }

    /** results.json and the RUN SUMMARY describe the verdict; a failure to write them never changes it. */
    private static void writeResults(RunContext run, Path runDir, RunResults.Run summary) {
        try {
            Path file = RunResults.write(runDir, summary, run.record());
            LOG.info("{}{}", System.lineSeparator(), RunResults.summary(summary, run.record(), file));
            run.attach(file, "application/json");
        } catch (Exception e) {
            LOG.warn("could not write or attach the run's results (the verdict stands): {}", e.toString());
        }
    }

    /** Every child process of the run gets the run's ABRA_DIR and the exact paths of its state files. */
    private static Map<String, String> childEnvironment(RunAbraDir abraDir, RunState state) {
        Map<String, String> environment = new HashMap<>(state.environment());
        environment.put("ABRA_DIR", abraDir.root().toString());
        return environment;
    }

    private static <T extends RunExtension> List<T> extensions(RunContext run, Class<T> kind) {
        return run.extensions().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    private static void call(ExtensionCall call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface ExtensionCall {
        void run() throws Exception;
    }
}
