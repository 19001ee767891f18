package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.spi.RunContext;
import org.apiguardian.api.API;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/**
 * What a node of the ccci tree sees while it executes: the plugins, where report attachments go
 * and, inside a run, the run (as the node's own view of it).
 */
@API(status = API.Status.INTERNAL)
public final class CcciExecutionContext implements EngineExecutionContext {

    private final Plugins plugins;
    private final ReportAttachments attachments;
    private final RunContext run;
    private final TierRecord tier;

    CcciExecutionContext(Plugins plugins, ReportAttachments attachments) {
        this(plugins, attachments, null, null);
    }

    private CcciExecutionContext(Plugins plugins, ReportAttachments attachments, RunContext run, TierRecord tier) {
        this.plugins = plugins;
        this.attachments = attachments;
        this.run = run;
        this.tier = tier;
    }

    Plugins plugins() {
        return plugins;
    }

    ReportAttachments attachments() {
        return attachments;
    }

    RunContext run() {
        return run;
    }

    TierRecord tier() {
        return tier;
    }

    CcciExecutionContext withRun(RunContext newRun) {
        return new CcciExecutionContext(plugins, attachments, newRun, null);
    }

    /** @param tierRun the tier's view of the run, attaching to the tier's node */
    CcciExecutionContext withTier(RunContext tierRun, TierRecord newTier) {
        return new CcciExecutionContext(plugins, attachments, tierRun, newTier);
    }
}
