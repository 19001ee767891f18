package net.commoninternet.ccci.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.DependencyKeys;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.Store;

/**
 * One run as the engine holds it, and its view for the lifecycle and the run's extensions: what it
 * attaches goes to the recipe's node. Every tier's view ({@link TierRunContext}) shares its
 * record, timeline, store and redactor.
 */
final class RecipeRunContext implements LifecycleContext {

    private final RunSettings settings;
    private final RecipeUnderTest recipe;
    private final Set<Tier> tiers;
    private final RunPlan.Attachments attachments;
    private final RunRecord record = new RunRecord();
    private final RunTimeline timeline = new RunTimeline();
    private final Store store = new RunStore();
    private final AtomicReference<UnaryOperator<String>> redactor = new AtomicReference<>(UnaryOperator.identity());

    RecipeRunContext(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers, RunPlan.Attachments attachments) {
        this.settings = Objects.requireNonNull(settings);
        this.recipe = Objects.requireNonNull(recipe);
        this.tiers = tiers.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(tiers));
        this.attachments = Objects.requireNonNull(attachments);
    }

    @Override
    public RunSettings settings() {
        return settings;
    }

    @Override
    public String recipe() {
        return settings.recipe();
    }

    @Override
    public String runId() {
        return settings.runId();
    }

    @Override
    public Path runDir() {
        return settings.runDir();
    }

    @Override
    public Path recipeSource() {
        return recipe.source();
    }

    @Override
    public CiKeys keys() {
        return recipe.keys();
    }

    @Override
    public Optional<RecipeCustomization> customization() {
        return recipe.customization();
    }

    @Override
    public DependencyKeys dependencyKeys() {
        return recipe.dependencyKeys();
    }

    @Override
    public Set<Tier> tiers() {
        return tiers;
    }

    @Override
    public RunRecord record() {
        return record;
    }

    @Override
    public RunTimeline timeline() {
        return timeline;
    }

    @Override
    public Store store() {
        return store;
    }

    @Override
    public void redactWith(UnaryOperator<String> redaction) {
        redactor.set(Objects.requireNonNull(redaction));
    }

    @Override
    public String redact(String text) {
        return text == null ? null : redactor.get().apply(text);
    }

    @Override
    public void attach(Path file, String mediaType) throws IOException {
        attachments.attach(file, mediaType);
    }
}
