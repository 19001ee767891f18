package net.commoninternet.ccci.extensions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.RunLifecycle;
import net.commoninternet.ccci.spi.RunSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One recipe CI run, top to bottom, in the order of the spec: engine check, janitor, per-run
 * ABRA_DIR, fetch, app-domain lock, app, deploy once, converge, tiers, and teardown in
 * {@code finally}.
 * Each step is a call to the class named after the spec's mechanism.
 */
public final class RecipeCiRun implements RunLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(RecipeCiRun.class);
    static final Duration DEPLOY_TIMEOUT = Duration.ofSeconds(600);

    @Override
    public void run(RunContext run, Tiers tiers) throws Exception {
        RunSettings settings = run.settings();
        // No engine or no swarm: one sentence naming the fix, before anything exists on the host.
        try (DockerEngine docker = DockerEngine.connect()) {
            if (settings.driver().equals("abra")) {
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
            ChildProcesses children = new ChildProcesses(Map.of("ABRA_DIR", abraDir.root().toString()));
            RecipeFetch.Fetched recipe = new RecipeFetch(children)
                    .fetch(run.recipeSource(), abraDir.recipe(run.recipe()), settings.ref());
            String ref = settings.ref() != null ? settings.ref() : recipe.commit();
            String domain = AppNaming.domain(run.recipe(), settings.pr(), ref);
            LOG.info("== ccci run {}: recipe {} at {} (pr {}), app {}, ABRA_DIR {} ==",
                    settings.runId(), run.recipe(), recipe.commit(), settings.pr(), domain, abraDir.root());

            // Held before the app exists, until this process dies: a janitor never sees the app unlocked.
            AppDomainLock.acquire(settings.appLockDir(), domain);
            AppDriver driver = settings.driver().equals("abra")
                    ? new AbraDriver(children, teardown, servers)
                    : new SwarmDriver(docker, children, runDir.resolve("backup"), servers);
            try {
                App app = driver.newApp(run.recipe(), domain, recipe.dir(), abraDir);
                extensions(run, RunExtension.BeforeDeploy.class).forEach(e -> call(() -> e.beforeDeploy(run)));
                driver.deploy(app);
                SwarmConvergence.Report converged = new SwarmConvergence(docker).await(app.stack(), DEPLOY_TIMEOUT);
                run.put(Deployment.class, new Deployment(app, driver, docker, converged));
                tiers.run();
            } finally {
                // Teardown must finish even when the run was interrupted (SIGTERM, deadline).
                Thread.interrupted();
                List<String> left = driver.remove(domain);
                LOG.info("== teardown of {}: {} ==", domain, left.isEmpty() ? "clean" : "left " + left);
                extensions(run, RunExtension.Teardown.class).forEach(e -> call(() -> e.teardown(run)));
            }
        }
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
