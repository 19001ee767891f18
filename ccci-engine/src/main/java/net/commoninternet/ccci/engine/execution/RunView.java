package net.commoninternet.ccci.engine.execution;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.Store;
import org.apiguardian.api.API;

/**
 * One view of a run: the run's state, which every view of it shares ({@link Shared}), and where
 * this view's attachments go (its node of the report). The lifecycle's view is
 * {@link RecipeRunContext}, each tier's a {@link TierRunContext}.
 */
@API(status = API.Status.INTERNAL)
public abstract class RunView implements RunContext {

    /** What every view of one run shares: what discovery found, and what the run builds up. */
    static final class Shared {
        final RunSettings settings;
        final RecipeUnderTest recipe;
        final Set<Tier> tiers;
        final RunRecord record = new RunRecord();
        final RunTimeline timeline = new RunTimeline();
        final Store store = new RunStore();
        final AtomicReference<UnaryOperator<String>> redactor = new AtomicReference<>(UnaryOperator.identity());

        Shared(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers) {
            this.settings = settings;
            this.recipe = recipe;
            this.tiers = tiers.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(tiers));
        }
    }

    final Shared shared;
    private final RunPlan.Attachments attachments;

    RunView(Shared shared, RunPlan.Attachments attachments) {
        this.shared = shared;
        this.attachments = attachments;
    }

    @Override
    public String recipe() {
        return shared.settings.recipe();
    }

    @Override
    public String runId() {
        return shared.settings.runId();
    }

    @Override
    public Path runDir() {
        return shared.settings.runDir();
    }

    @Override
    public CiKeys keys() {
        return shared.recipe.keys();
    }

    @Override
    public Optional<RecipeCustomization> customization() {
        return shared.recipe.customization();
    }

    @Override
    public Set<Tier> tiers() {
        return shared.tiers;
    }

    @Override
    public RunRecord record() {
        return shared.record;
    }

    @Override
    public RunTimeline timeline() {
        return shared.timeline;
    }

    @Override
    public Store store() {
        return shared.store;
    }

    @Override
    public String redact(String text) {
        return text == null ? null : shared.redactor.get().apply(text);
    }

    @Override
    public void attach(Path file, String mediaType) throws IOException {
        attachments.attach(file, mediaType);
    }
}
