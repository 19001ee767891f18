package net.commoninternet.ccci.engine.execution;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.DependencyKeys;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;

/**
 * One run as the engine holds it, and its view for the lifecycle and the run's extensions: what it
 * attaches goes to the recipe's node. Every tier's view ({@link TierRunContext}) shares its
 * record, timeline, store and redactor.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeRunContext extends RunView implements LifecycleContext {

    /** A run that deploys its app (a mechanism's own test, {@link StandaloneRun}). */
    public RecipeRunContext(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers, RunPlan.Attachments attachments) {
        this(settings, recipe, tiers, attachments, true);
    }

    /** @param deploysApp whether a tier of {@code tiers} needs the deployed app ({@link #deploysApp()}) */
    public RecipeRunContext(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers, RunPlan.Attachments attachments,
            boolean deploysApp) {
        super(new Shared(Objects.requireNonNull(settings), Objects.requireNonNull(recipe), tiers),
                Objects.requireNonNull(attachments));
        this.deploysApp = deploysApp;
    }

    private final boolean deploysApp;

    @Override
    public boolean deploysApp() {
        return deploysApp;
    }

    @Override
    public RunSettings settings() {
        return shared.settings;
    }

    @Override
    public Path recipeSource() {
        return shared.recipe.source();
    }

    @Override
    public DependencyKeys dependencyKeys() {
        return shared.recipe.dependencyKeys();
    }

    @Override
    public void redactWith(UnaryOperator<String> redaction) {
        shared.redactor.set(Objects.requireNonNull(redaction));
    }
}
