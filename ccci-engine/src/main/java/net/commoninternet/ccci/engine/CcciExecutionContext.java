package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.spi.RunContext;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/** What a node of the ccci tree sees while it executes: the plugins and, inside a run, the run. */
public final class CcciExecutionContext implements EngineExecutionContext {

    private final Plugins plugins;
    private final RunContext run;
    private final TierRecord tier;

    CcciExecutionContext(Plugins plugins) {
        this(plugins, null, null);
    }

    private CcciExecutionContext(Plugins plugins, RunContext run, TierRecord tier) {
        this.plugins = plugins;
        this.run = run;
        this.tier = tier;
    }

    Plugins plugins() {
        return plugins;
    }

    RunContext run() {
        return run;
    }

    TierRecord tier() {
        return tier;
    }

    CcciExecutionContext withRun(RunContext newRun) {
        return new CcciExecutionContext(plugins, newRun, null);
    }

    CcciExecutionContext withTier(TierRecord newTier) {
        return new CcciExecutionContext(plugins, run, newTier);
    }
}
