package net.commoninternet.ccci.spi;

import net.commoninternet.ccci.api.HookContext;
import org.apiguardian.api.API;

/**
 * The whole life of one recipe CI run, provided by exactly one implementation found through
 * {@link java.util.ServiceLoader}. The implementation sets the run up, has the engine run the
 * recipe's pre-install hooks right before its single deploy ({@link Tiers#beforeInstall}), hands
 * it the live run once the app is deployed ({@link Tiers#run}), and tears it down in a
 * {@code finally}; the engine only reports.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface RunLifecycle {

    /**
     * Once, before the first run of the plan starts, on the thread that runs the plan (which
     * outlives every run). What is set up here is the command's: for a plan of several recipes
     * the runs then go on in parallel, each in its own {@link #run} on a thread of its own.
     */
    default void beginPlan(RunPlan plan) throws Exception {
    }

    /** One run; concurrent with the plan's other runs, and never with a run of the same app domain. */
    void run(RunContext run, Tiers tiers) throws Exception;

    /**
     * Once, after the last run of the plan ended or was never started (a stopped command), on the
     * thread of {@link #beginPlan}, even if that threw.
     */
    default void endPlan(RunPlan plan) throws Exception {
    }

    /** What the engine does for the lifecycle, when the lifecycle says. */
    interface Tiers {

        /** Runs the recipe's pre-install hooks (its app created, not yet deployed); a hook that throws ends the run. */
        void beforeInstall(HookContext context) throws Exception;

        /** Executes the run's selected tiers against {@code live}, each reported by the engine. */
        void run(LiveRun live) throws Exception;
    }
}
