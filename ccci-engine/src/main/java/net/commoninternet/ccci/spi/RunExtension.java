package net.commoninternet.ccci.spi;

import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * A plug-in around recipe runs, registered through {@link java.util.ServiceLoader} under this
 * interface. Implement one or more of the nested single-method callbacks; the lifecycle
 * calls them at the named points, lowest {@link #order()} first (teardown in reverse).
 */
@API(status = API.Status.EXPERIMENTAL)
public interface RunExtension {

    /** Position among extensions; ties keep class-name order. */
    default int order() {
        return 0;
    }

    /** Before anything of the run exists on the host (after the lifetime guards). */
    interface BeforeRun extends RunExtension {
        void beforeRun(RunContext run) throws Exception;
    }

    /** After the app is created and locked, before its single deploy. */
    interface BeforeDeploy extends RunExtension {
        void beforeDeploy(RunContext run) throws Exception;
    }

    /** After each tier, with its outcome; runs even when the tier failed. */
    interface AfterTier extends RunExtension {
        void afterTier(RunContext run, Tier tier, Throwable failure) throws Exception;
    }

    /** In the run's {@code finally}, after the app's own teardown: always called. */
    interface Teardown extends RunExtension {
        void teardown(RunContext run) throws Exception;
    }
}
