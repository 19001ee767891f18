package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.guards.ParentDeathSignal;
import net.commoninternet.ccci.extensions.guards.RunStopped;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.boundary.EngineBoundary;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSteps;
import org.apiguardian.api.API;
import org.slf4j.MDC;

/**
 * Recipe CI runs, in the order of the spec. The plan (one command) begins with its shared means
 * ({@link RecipeCommand}: the masked console, the command's lifetime guards, the progress count);
 * each run's first phase is its guard, the lifetime guards on the thread that runs it, and
 * {@link RunPhases} is the rest, phase by phase (sweep, prepare, lock, deploy, tiers, teardown in
 * {@code finally}); the plan ends with the catalogue of a command of several recipes.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeCiRun implements RunLifecycle {

    /** The MDC key holding the recipe of the run a log line comes from (logback: {@code %X{ccci.recipe}}). */
    public static final String MDC_RECIPE = "ccci.recipe";

    /** Whether this JVM's warm-up was begun: once, whatever the number of discoveries. */
    private static final AtomicBoolean WARMED_UP = new AtomicBoolean();

    /** What the warm-up parses: constants, never a recipe's text. */
    private static final String WARM_RELEASE = "1.0.0+1.22.1";
    private static final String WARM_COMPOSE = "services:\n  app:\n    deploy:\n      labels:\n        - coop-cloud.app.version=1.0.0+1.22.1\n";

    private volatile RecipeCommand command;

    /**
     * The engine found runs to execute, right after the JVM started: the parent is noted now (so the
     * guards see later whether it died before they were armed), and what the first run would pay
     * before its first deploy begins, each on a thread of its own: its engine connection
     * (docker-java's first use); and jnr-posix (the locks' flock and the child processes' signals),
     * loaded once per JVM, then the egress rules read for the first run's boundary check
     * ({@link EngineBoundary#readEgressEarly}, the JVM's first child, which costs about 25 ms more
     * than the next: 36 ms against 13 in a bare JVM), then the parsers the fetch and the upgrade
     * plan use first, on constant text: release tags (java-semver) and the head's compose.yml
     * (Jackson's YAML over SnakeYAML), whose classes took the plan 25-97 ms of a cold run's way to
     * its first deploy, 7-16 ms once loaded here (docs/benchmarks.md).
     */
    @Override
    public void warmUp() {
        if (!WARMED_UP.compareAndSet(false, true)) {
            return;
        }
        ParentDeathSignal.noteParent();
        DockerEngine.connectEarly();
        Thread loading = new Thread(() -> {
            try {
                Class.forName(ChildProcesses.class.getName(), true, RecipeCiRun.class.getClassLoader());
                EngineBoundary.readEgressEarly(new ChildProcesses(Map.of(ChildEnvironment.DOCKER_HOST,
                        DockerEngine.configuredHost())));
                RecipeVersion.parse(WARM_RELEASE);
                RecipeLabels.parse(WARM_COMPOSE);
            } catch (ClassNotFoundException | LinkageError | IOException e) {
                // then the run loads it itself, and says so if it cannot
            }
        }, "ccci-warm-up");
        loading.setDaemon(true);
        loading.start();
    }

    @Override
    public void beginPlan(RunPlan plan) throws Exception {
        command = RecipeCommand.begin(plan);
    }

    @Override
    public void run(LifecycleContext run, RunSteps steps) throws Exception {
        RecipeCommand plan = command;
        RecipeCommand own = plan == null ? RecipeCommand.begin(new RunPlan(run.settings().runId(),
                List.of(run.settings()), (file, type) -> run.attach(file, type))) : null;
        RecipeCommand current = plan != null ? plan : own;
        try {
            current.started(run);
            Throwable failure = null;
            MDC.put(MDC_RECIPE, run.recipe());
            try (RedactedConsole.RunLog log = current.console().claimForRun()) {
                run.redactWith(current.console()::redact);
                run.timeline().listen(current.progress().of(run.recipe()));
                // On the thread that runs the run, before any child process or lock: the parent-death
                // signal, then this run joins its command's SIGTERM funnel and hard deadline (spec section 2).
                try (LifetimeGuards guards = LifetimeGuards.install(run.settings().options().deadline(), run.recipe())) {
                    new RunPhases(run, steps, new RunPhases.RunMeans(current.console(), log, guards)).run();
                }
            } catch (Exception | Error thrown) {
                Throwable reported = RunStopped.first(thrown);
                failure = reported;
                if (reported instanceof Error error) {
                    throw error;
                }
                throw (Exception) reported;
            } finally {
                MDC.remove(MDC_RECIPE);
                current.finished(run, failure);
            }
        } finally {
            if (own != null) {
                own.end();
            }
        }
    }

    @Override
    public void endPlan(RunPlan plan) throws Exception {
        RecipeCommand ending = command;
        command = null;
        if (ending != null) {
            ending.end();
        }
    }
}
