package net.commoninternet.ccci.extensions.run;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.commoninternet.ccci.extensions.guards.LifetimeGuards;
import net.commoninternet.ccci.extensions.guards.ParentDeathSignal;
import net.commoninternet.ccci.extensions.guards.RunStopped;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSteps;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Recipe CI runs, in the order of the spec. The plan (one command) begins with its shared means
 * ({@link RecipeCommand}: the masked console, the command's lifetime guards, the progress count);
 * each run's first phase is its guard, the lifetime guards on the thread that runs it, and
 * {@link RunPhases} is the rest, phase by phase (connect, prepare, lock, deploy, tiers, teardown in
 * {@code finally}, each done by {@link SwarmPhases}); the plan ends with the catalogue of a command
 * of several recipes.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeCiRun implements RunLifecycle {

    /** The MDC key holding the recipe of the run a log line comes from (logback: {@code %X{ccci.recipe}}). */
    public static final String MDC_RECIPE = "ccci.recipe";

    private static final Logger LOG = LoggerFactory.getLogger(RecipeCiRun.class);

    private volatile RecipeCommand command;

    /**
     * The run ids of the commands begun in this JVM. A command's run id names its runs' folders and
     * their apps' deploy-once counts: a second command of one run id in one JVM is a rerun (Surefire's
     * {@code rerunFailingTestsCount} discovers and executes the failed checks again, in the same JVM),
     * which would deploy the app again over the first run's folder. ccci never reruns.
     */
    private static final Set<String> BEGUN = ConcurrentHashMap.newKeySet();

    /** What the first run of this lifecycle would pay before its first deploy, begun at discovery. */
    private final HeadStart headStart = new HeadStart();

    /**
     * The engine found runs to execute, right after the JVM started: the parent is noted now (so the
     * guards see later whether it died before they were armed), and the first run's head start
     * begins ({@link HeadStart}).
     */
    @Override
    public void warmUp() {
        ParentDeathSignal.noteParent();
        headStart.begin();
    }

    /** A command this JVM began: the engine answers its rerun with no run, so {@link #beginPlan} never sees it. */
    @Override
    public boolean ranInThisJvm(String runId) {
        return BEGUN.contains(runId);
    }

    @Override
    public void beginPlan(RunPlan plan) throws Exception {
        if (!BEGUN.add(plan.runId())) {
            // the engine answers such a rerun with no run (ranInThisJvm); a plan that reaches here anyway is refused
            throw new IllegalStateException("command " + plan.runId() + " already ran in this JVM: ccci never runs a command"
                    + " twice (a rerun would deploy the app again over the first run's folder), so start a new command.");
        }
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
                // every failure the engine reports (Surefire's console and XML, the results) is masked
                // and carries the recipe's bytes as data: no control, no line of its own
                run.redactWith(current.console()::forReport);
                // before anything of the recipe is read: the mark its RUN SUMMARY will carry
                LOG.info("== run {} of {}: its RUN SUMMARY is the one marked {} ==", run.settings().runId(), run.recipe(),
                        log.mark());
                run.timeline().listen(current.progress().of(run.recipe()));
                // On the thread that runs the run, before any child process or lock: the parent-death
                // signal, then this run joins its command's SIGTERM funnel and hard deadline (spec section 2),
                // and its own clock starts (ccci.run-budget).
                try (LifetimeGuards guards = LifetimeGuards.install(run.settings().options().deadline(),
                        run.settings().options().trust().bounds().runBudget(), run.recipe())) {
                    RunMeans means = new RunMeans(current.console(), log, guards, new RunHelpers(run.recipe(), log),
                            current.spare());
                    new RunPhases<>(new SwarmPhases(run, steps, means, headStart)).run();
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
