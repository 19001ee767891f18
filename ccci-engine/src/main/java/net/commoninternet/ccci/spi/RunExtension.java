package net.commoninternet.ccci.spi;

import org.apiguardian.api.API;

/**
 * A plug-in around recipe runs, registered through {@link java.util.ServiceLoader} under this
 * interface. Implement one or more of the nested single-method callbacks. The engine holds every
 * extension in one registry and calls each callback itself, lowest {@link #order()} first
 * (teardown in reverse), every extension of a point even when an earlier one threw: the first
 * failure is the one reported, later ones are added to it as suppressed, and a teardown's failure
 * never hides the failure that led to the teardown.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface RunExtension {

    /** Position among extensions; ties keep class-name order. */
    default int order() {
        return 0;
    }

    /** Before anything of the run exists on the host (its guards armed, its run id held); a failure stops the run there. */
    interface BeforeRun extends RunExtension {
        void beforeRun(RunContext run) throws Exception;
    }

    /** After the app is created, locked and set up and its pre-install hooks ran, right before its single deploy. */
    interface BeforeDeploy extends RunExtension {
        void beforeDeploy(RunContext run) throws Exception;
    }

    /**
     * After a tier's operation ended without failing, before its checks: what an extension starts
     * here goes on beside them, on the state the operation left (the app's picture). A failure fails
     * the tier; its checks do not run.
     */
    interface BeforeChecks extends RunExtension {
        void beforeChecks(TierContext tier) throws Exception;
    }

    /** After each tier, with the tier's first failure (null if none); runs even when the tier failed. */
    interface AfterTier extends RunExtension {
        void afterTier(TierContext tier, Throwable failure) throws Exception;
    }

    /**
     * Once per run, at its end: after the app's own teardown, whatever stopped the run (even a run
     * that failed before it created anything).
     */
    interface Teardown extends RunExtension {
        void teardown(RunContext run) throws Exception;
    }
}
