package net.commoninternet.ccci.spi;

import java.util.List;

/**
 * The implementation of one tier, found through {@link java.util.ServiceLoader}: its
 * operation, performed exactly once, and the checks that judge the state it left.
 * A tier with no plugin on the class path is reported as skipped, never as passed.
 */
public interface TierPlugin {

    Tier tier();

    /** The generic checks of this tier, in order. Known at discovery time. */
    List<Check> checks();

    /** The tier's operation; runs once, before the checks. */
    void operate(RunContext run) throws Exception;
}
