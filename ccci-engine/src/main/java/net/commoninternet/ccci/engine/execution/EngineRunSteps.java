package net.commoninternet.ccci.engine.execution;

import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.engine.extension.ExtensionRegistry;
import net.commoninternet.ccci.engine.extension.PreOperationHooks;
import net.commoninternet.ccci.lifecycle.RunSteps;
import net.commoninternet.ccci.lifecycle.RunStop;
import net.commoninternet.ccci.spi.LiveRun;
import org.apiguardian.api.API;
import org.junit.platform.engine.support.hierarchical.OpenTest4JAwareThrowableCollector;
import org.junit.platform.engine.support.hierarchical.ThrowableCollector;

/**
 * The steps of one run as its lifecycle calls them, and the engine's side of each: the extensions
 * (every one called, {@link ExtensionRegistry}), the pre-install hooks, the tiers. The lifecycle
 * decides when each step is due; the engine decides that none is called out of order or twice,
 * that a run which ends normally ran its tiers, and that the Teardown extensions are called once
 * whatever the lifecycle did ({@link #finish}).
 */
@API(status = API.Status.INTERNAL)
public final class EngineRunSteps implements RunSteps {

    /** How far the run got, as its lifecycle said: each step needs the one before it. */
    private enum Reached { NOTHING, BEFORE_RUN, BEFORE_DEPLOY, TIERS }

    /** What the engine does to run the tiers: JUnit's invocation of the run node's children. */
    @FunctionalInterface
    public interface TierRunner {
        void run(LiveRun live, RunStop stop) throws Exception;
    }

    private final RecipeRunContext run;
    private final ExtensionRegistry extensions;
    private final String lifecycle;
    private final TierRunner tierRunner;
    /** Guarded by this. */
    private Reached reached = Reached.NOTHING;
    /** Guarded by this: what the Teardown extensions threw, once they were called. */
    private ThrowableCollector teardown;

    public EngineRunSteps(RecipeRunContext run, ExtensionRegistry extensions, String lifecycle, TierRunner tierRunner) {
        this.run = run;
        this.extensions = extensions;
        this.lifecycle = lifecycle;
        this.tierRunner = tierRunner;
    }

    @Override
    public void beforeRun() {
        advance(Reached.NOTHING, Reached.BEFORE_RUN, "beforeRun");
        extensions.beforeRun(run);
    }

    @Override
    public void beforeDeploy(HookContext context) throws Exception {
        if (!run.deploysApp()) {
            throw new IllegalStateException("the run lifecycle " + lifecycle + " called beforeDeploy for " + run.recipe()
                    + ", whose tiers need no deployed app: such a run deploys nothing (beforeRun, then tiers).");
        }
        advance(Reached.BEFORE_RUN, Reached.BEFORE_DEPLOY, "beforeDeploy");
        PreOperationHooks.run(run.customization(), context);
        extensions.beforeDeploy(run);
    }

    /** After beforeDeploy; right after beforeRun for a run that deploys nothing ({@code deploysApp()} false). */
    @Override
    public void tiers(LiveRun live, RunStop stop) throws Exception {
        advance(run.deploysApp() ? Reached.BEFORE_DEPLOY : Reached.BEFORE_RUN, Reached.TIERS, "tiers");
        tierRunner.run(live, stop);
    }

    @Override
    public synchronized void teardown() {
        if (teardown == null) {
            teardown = extensions.teardown(run);
        }
    }

    private synchronized void advance(Reached from, Reached to, String step) {
        if (reached != from) {
            throw new IllegalStateException("the run lifecycle " + lifecycle + " called " + step + " for " + run.recipe()
                    + (reached.compareTo(from) > 0 ? " a second time" : " before " + next(reached))
                    + ": a run's steps are beforeRun, beforeDeploy and tiers, each once and in that order (beforeRun and"
                    + " tiers for a run that deploys nothing).");
        }
        reached = to;
    }

    private String next(Reached reached) {
        return switch (reached) {
            case NOTHING -> "beforeRun";
            case BEFORE_RUN -> run.deploysApp() ? "beforeDeploy" : "tiers";
            default -> "tiers";
        };
    }

    /**
     * After the lifecycle's {@code run} ended, with {@code outcome} holding what it threw: a run
     * that ended normally without its tiers fails; the Teardown extensions are called if the
     * lifecycle did not call them; and what they threw joins {@code outcome} last, so whatever the
     * run itself threw stays the run's failure.
     */
    public void finish(ThrowableCollector outcome) {
        Reached end;
        synchronized (this) {
            end = reached;
        }
        if (outcome.isEmpty() && end != Reached.TIERS) {
            outcome.execute(() -> {
                throw new IllegalStateException("the run lifecycle " + lifecycle + " ended the run of " + run.recipe()
                        + " without running its tiers (it got to " + (end == Reached.NOTHING ? "none of its steps"
                        : end == Reached.BEFORE_RUN ? "beforeRun" : "beforeDeploy") + "): a run that does not"
                        + " test its app must fail, not pass.");
            });
        }
        teardown();
        ThrowableCollector teardownOutcome;
        synchronized (this) {
            teardownOutcome = teardown;
        }
        if (teardownOutcome.isNotEmpty()) {
            outcome.execute(() -> {
                throw teardownOutcome.getThrowable();
            });
        }
    }

    /** A collector for what a run's lifecycle throws, as JUnit collects a node's failures. */
    public static ThrowableCollector collector() {
        return new OpenTest4JAwareThrowableCollector();
    }
}
