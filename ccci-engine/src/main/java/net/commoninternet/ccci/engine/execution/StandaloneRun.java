package net.commoninternet.ccci.engine.execution;

import java.nio.file.Path;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;

/**
 * A run outside any test report, for a mechanism's own test (a tier's operation and checks, an
 * extension) that needs the contexts the engine would hand it: the recipe's default keys, the
 * settings' stages as its tiers. Main code never makes one; the engine makes its own.
 */
@API(status = API.Status.INTERNAL)
public final class StandaloneRun {

    private final RecipeRunContext run;

    private StandaloneRun(RecipeRunContext run) {
        this.run = run;
    }

    /** The run {@code settings} describe, of the recipe at {@code source}; nothing of it can be attached. */
    public static StandaloneRun of(RunSettings settings, Path source) {
        return new StandaloneRun(new RecipeRunContext(settings, RecipeUnderTest.plain(source), settings.stages(),
                (file, mediaType) -> {
                    throw new IllegalStateException("this run is not part of a test report: " + file + " cannot be attached");
                }));
    }

    /** The run's view as its lifecycle and extensions get it. */
    public LifecycleContext run() {
        return run;
    }

    /** {@code tier}'s view of the run with {@code live}, attaching nothing. */
    public TierContext tier(Tier tier, LiveRun live) {
        return new TierRunContext(run, tier, live, run::attach);
    }

    /** {@code tier}'s view of the run with {@code live}, its attachments going to {@code attachments}. */
    public TierContext tier(Tier tier, LiveRun live, RunPlan.Attachments attachments) {
        return new TierRunContext(run, tier, live, attachments);
    }
}
