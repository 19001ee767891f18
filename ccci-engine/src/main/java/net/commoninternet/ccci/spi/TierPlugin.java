package net.commoninternet.ccci.spi;

import java.util.List;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * The implementation of one tier, found through {@link java.util.ServiceLoader}: its operation,
 * performed exactly once, and the checks that judge the state it left. A tier with no plugin on
 * the class path is reported as skipped, never as passed. It sees the run and its live app only
 * through the {@link TierContext} it is handed.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface TierPlugin {

    Tier tier();

    /** The generic checks of this tier, in order. Known at discovery time. */
    List<Check> checks();

    /**
     * The generic checks of this tier for a run of {@code driver}, in order. Known at discovery
     * time, like {@link #checks()}; a tier whose checks depend on how the run is driven overrides
     * it (LINT: its driver's lint rules).
     */
    default List<Check> checks(Driver driver) {
        return checks();
    }

    /**
     * The checks of this tier that run after the recipe's own assertions of it, in order: one that
     * waits for the end of something the others need not wait for (the upgrade's convergence, which
     * waits out swarm's update monitor window while the others look at the rolled-out app). Known
     * at discovery time, like {@link #checks()}.
     */
    default List<Check> lastChecks() {
        return List.of();
    }

    /**
     * Whether this tier's operation or checks need the run's deployed app. A run whose tiers need none
     * (LINT, which reads the recipe) deploys nothing: its tiers get a {@link LiveRun} of the recipe
     * alone, whose {@link LiveRun#lint()} works and whose app refuses every use. True by default.
     */
    default boolean needsLiveApp() {
        return true;
    }

    /** The tier's operation; runs once, before the checks. */
    void operate(TierContext tier) throws Exception;
}
