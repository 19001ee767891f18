package net.commoninternet.ccci.spi;

import java.util.List;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * The implementation of one tier, found through {@link java.util.ServiceLoader}: its
 * operation, performed exactly once, and the checks that judge the state it left.
 * A tier with no plugin on the class path is reported as skipped, never as passed.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface TierPlugin {

    Tier tier();

    /** The generic checks of this tier, in order. Known at discovery time. */
    List<Check> checks();

    /**
     * The generic checks of this tier for a run with these settings, in order. Known at
     * discovery time, like {@link #checks()}; a tier whose checks depend on how the run is
     * driven overrides it (LINT: the embedded rules, or abra's under {@code ccci.driver=abra}).
     */
    default List<Check> checks(RunSettings settings) {
        return checks();
    }

    /** The tier's operation; runs once, before the checks. */
    void operate(RunContext run) throws Exception;
}
