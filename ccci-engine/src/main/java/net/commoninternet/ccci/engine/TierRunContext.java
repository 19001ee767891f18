package net.commoninternet.ccci.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.Store;
import net.commoninternet.ccci.spi.TierContext;

/** A tier's view of its run: the run's own state, the live app, and attachments to the tier's node. */
final class TierRunContext implements TierContext {

    private final RunContext run;
    private final Tier tier;
    private final LiveRun live;
    private final RunPlan.Attachments attachments;

    TierRunContext(RunContext run, Tier tier, LiveRun live, RunPlan.Attachments attachments) {
        this.run = Objects.requireNonNull(run);
        this.tier = Objects.requireNonNull(tier);
        this.live = Objects.requireNonNull(live);
        this.attachments = Objects.requireNonNull(attachments);
    }

    @Override
    public Tier tier() {
        return tier;
    }

    @Override
    public LiveRun live() {
        return live;
    }

    @Override
    public String recipe() {
        return run.recipe();
    }

    @Override
    public String runId() {
        return run.runId();
    }

    @Override
    public Path runDir() {
        return run.runDir();
    }

    @Override
    public CiKeys keys() {
        return run.keys();
    }

    @Override
    public Optional<RecipeCustomization> customization() {
        return run.customization();
    }

    @Override
    public Set<Tier> tiers() {
        return run.tiers();
    }

    @Override
    public RunRecord record() {
        return run.record();
    }

    @Override
    public RunTimeline timeline() {
        return run.timeline();
    }

    @Override
    public Store store() {
        return run.store();
    }

    @Override
    public String redact(String text) {
        return run.redact(text);
    }

    @Override
    public void attach(Path file, String mediaType) throws IOException {
        attachments.attach(file, mediaType);
    }
}
