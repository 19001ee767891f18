package net.commoninternet.ccci.engine.execution;

import java.util.Optional;
import net.commoninternet.ccci.engine.config.CheckAttempts;
import net.commoninternet.ccci.engine.extension.Plugins;
import net.commoninternet.ccci.lifecycle.RunStop;
import net.commoninternet.ccci.spi.LiveRun;
import org.apiguardian.api.API;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/**
 * What a node of the ccci tree sees while it executes: the plugins, where report attachments go
 * and, inside a run, the run, its live app once the lifecycle made one, and, inside a tier, the
 * tier's view of the run and its record.
 */
@API(status = API.Status.INTERNAL)
public final class CcciExecutionContext implements EngineExecutionContext {

    private final Command command;
    private final RecipeRunContext run;
    private final Live live;
    private final TierRunContext tierView;
    private final TierRecord tier;

    /**
     * What every node of one execution shares: the plugins, where attachments go, the listener that
     * hears of each node (a check's failed attempts are reported to it, {@code CheckDescriptor}),
     * how a failed check is tried again, and the command's verdict as its runs end.
     */
    public record Command(Plugins plugins, ReportAttachments attachments, EngineExecutionListener listener,
            CheckAttempts attempts, CommandVerdict verdict) {
    }

    public CcciExecutionContext(Command command) {
        this(command, null, new Live(null, RunStop.NEVER), new TierState(null, null));
    }

    /** The live app the lifecycle handed the tiers, and what says whether the run was stopped since. */
    private record Live(LiveRun app, RunStop stop) {
    }

    /** A tier's view and its record, together: a tier node sets both. */
    private record TierState(TierRunContext view, TierRecord record) {
    }

    private CcciExecutionContext(Command command, RecipeRunContext run, Live live, TierState tier) {
        this.command = command;
        this.run = run;
        this.live = live;
        this.tierView = tier.view();
        this.tier = tier.record();
    }

    public Plugins plugins() {
        return command.plugins();
    }

    public ReportAttachments attachments() {
        return command.attachments();
    }

    /** The listener of this execution, which Surefire and every report hear each node's events through. */
    public EngineExecutionListener listener() {
        return command.listener();
    }

    /** Which runs of the command failed, for Maven's build result ({@link CommandVerdict}). */
    public CommandVerdict verdict() {
        return command.verdict();
    }

    /** How a failed check is tried again against the live app. */
    public CheckAttempts checkAttempts() {
        return command.attempts();
    }

    public RecipeRunContext run() {
        return run;
    }

    /** The live app the lifecycle handed the tiers; null outside them. */
    public LiveRun live() {
        return live.app();
    }

    /** Why the run was stopped, once it was: no tier or check starts after that. */
    public Optional<String> stopped() {
        return live.stop().reason();
    }

    /** The tier's view of the run (attaching to the tier's node); null outside a tier. */
    public TierRunContext tierView() {
        return tierView;
    }

    public TierRecord tier() {
        return tier;
    }

    /** Inside the run's tiers: the run, the live app they test, and what says whether the run was stopped. */
    public CcciExecutionContext withLive(RecipeRunContext newRun, LiveRun newLive, RunStop stop) {
        return new CcciExecutionContext(command, newRun, new Live(newLive, stop == null ? RunStop.NEVER : stop),
                new TierState(null, null));
    }

    /** Inside one tier: its view of the run, and its record. */
    public CcciExecutionContext withTier(TierRunContext view, TierRecord newTier) {
        return new CcciExecutionContext(command, run, live, new TierState(view, newTier));
    }
}
