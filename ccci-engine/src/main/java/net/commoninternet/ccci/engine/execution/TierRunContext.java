package net.commoninternet.ccci.engine.execution;

import java.util.Objects;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;

/** A tier's view of its run: the run's own state, the live app, and attachments to the tier's node. */
@API(status = API.Status.INTERNAL)
public final class TierRunContext extends RunView implements TierContext {

    private final Tier tier;
    private final LiveRun live;

    public TierRunContext(RecipeRunContext run, Tier tier, LiveRun live, RunPlan.Attachments attachments) {
        super(run.shared, Objects.requireNonNull(attachments));
        this.tier = Objects.requireNonNull(tier);
        this.live = Objects.requireNonNull(live);
    }

    @Override
    public Tier tier() {
        return tier;
    }

    @Override
    public LiveRun live() {
        return live;
    }
}
