package net.commoninternet.ccci.lifecycle;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.spi.RunContext;
import org.apiguardian.api.API;

/**
 * The run as the engine hands it to the lifecycle: what the extensions see of it, and what only
 * the lifecycle needs to make the run (its settings, the recipe's source, its dependencies' keys)
 * and to tell the engine how its secrets are masked. Attachments go to the recipe's node.
 */
@API(status = API.Status.INTERNAL)
public interface LifecycleContext extends RunContext {

    /** What the run is told, read at discovery. */
    RunSettings settings();

    /** The recipe's source as found in {@code ccci.recipes}; runs clone it, never change it. */
    Path recipeSource();

    /**
     * Whether the run deploys its app: some tier it executes needs the live app
     * ({@code TierPlugin.needsLiveApp}). A run whose tiers need only the recipe (LINT alone, as
     * {@code -Dgroups=lint} leaves it) deploys nothing and runs its tiers right after
     * {@link RunSteps#beforeRun()}, against a {@code LiveRun} of the recipe alone.
     */
    boolean deploysApp();

    /** The CI keys of the recipe's dependencies ({@code DEPS}). */
    DependencyKeys dependencyKeys();

    /**
     * How the run makes text fit for a report: its secret values masked and, in ccci's run, the
     * recipe's bytes made data (controls visible, no line of its own). The engine passes every
     * failure and skip message through it before reporting (Surefire writes reports and prints
     * failures in Maven's process, outside any console filter of the run's), and every view's
     * {@link #redact} uses it.
     */
    void redactWith(UnaryOperator<String> redactor);
}
