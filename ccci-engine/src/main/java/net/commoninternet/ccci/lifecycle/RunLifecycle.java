package net.commoninternet.ccci.lifecycle;

import org.apiguardian.api.API;

/**
 * The whole life of one recipe CI run, provided by exactly one implementation found through
 * {@link java.util.ServiceLoader} (ccci-extensions' {@code RecipeCiRun}). The implementation sets
 * the run up, tells the engine when each of the run's steps is due ({@link RunSteps}: the
 * BeforeRun extensions, the pre-install hooks and BeforeDeploy extensions right before its single
 * deploy, the tiers once the app is live, the Teardown extensions after its own teardown) and tears
 * the app down in a {@code finally}. The engine calls every extension and reports; a step the
 * lifecycle calls out of order is refused, and one it never calls is not lost (see {@link RunSteps}).
 */
@API(status = API.Status.INTERNAL)
public interface RunLifecycle {

    /**
     * When a discovery begins that names recipes to run ({@code -Drecipe}), and at the end of one that
     * found runs to execute, before anything runs: the lifecycle may begin what a first run otherwise
     * pays for later (a connection, a native library), on threads of its own, once (a later call
     * does nothing). It must not change the host. Not called when no recipe was named and no run was
     * discovered; a discovery that named one may still find none (then what was begun ends unused).
     */
    default void warmUp() {
    }

    /**
     * Once, before the first run of the plan starts, on the thread that runs the plan (which
     * outlives every run). What is set up here is the command's: for a plan of several recipes
     * the runs then go on in parallel, each in its own {@link #run} on a thread of its own.
     */
    default void beginPlan(RunPlan plan) throws Exception {
    }

    /**
     * Whether this lifecycle already began the command of {@code runId} in this JVM: a second one is
     * a rerun of its failed checks (Surefire's {@code rerunFailingTestsCount}), which the engine
     * answers with no run. False by default.
     */
    default boolean ranInThisJvm(String runId) {
        return false;
    }

    /** One run; concurrent with the plan's other runs, and never with a run of the same app domain. */
    void run(LifecycleContext run, RunSteps steps) throws Exception;

    /**
     * Once, after the last run of the plan ended or was never started (a stopped command), on the
     * thread of {@link #beginPlan}, even if that threw.
     */
    default void endPlan(RunPlan plan) throws Exception {
    }
}
