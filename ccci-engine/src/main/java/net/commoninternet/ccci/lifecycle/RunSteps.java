package net.commoninternet.ccci.lifecycle;

import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.spi.LiveRun;
import org.apiguardian.api.API;

/**
 * What the engine does for one run when its lifecycle says: each step at most once, in this order.
 * Every extension of a step is called, whichever of them throws (the first failure is thrown, the
 * rest suppressed in it). A step called out of order, or a second time, is refused with an
 * {@link IllegalStateException} naming it; a lifecycle that ends normally without having run the
 * tiers fails the run; the Teardown extensions are called by the engine itself after
 * {@link RunLifecycle#run} if the lifecycle did not call {@link #teardown()}.
 */
@API(status = API.Status.INTERNAL)
public interface RunSteps {

    /** The BeforeRun extensions: the run's guards are armed and its run id held, nothing of it exists on the host yet. */
    void beforeRun() throws Exception;

    /**
     * The recipe's pre-install hooks (its app created and set up, not yet deployed; a hook that
     * throws ends the run), then the BeforeDeploy extensions, right before the run's single deploy.
     */
    void beforeDeploy(HookContext context) throws Exception;

    /**
     * Executes the run's selected tiers against {@code live}, each reported by the engine, AfterTier
     * after each. Once {@code stop} gives a reason, no further tier or check starts: each is reported
     * skipped with that reason, and the call returns for the lifecycle to tear the app down.
     */
    void tiers(LiveRun live, RunStop stop) throws Exception;

    /**
     * The Teardown extensions, in reverse order, after the app's own teardown. Never throws: what
     * they throw is reported as the run's failure once {@link RunLifecycle#run} has returned, after
     * (suppressed in) whatever the run itself threw, so it never hides what caused the teardown.
     */
    void teardown();
}
