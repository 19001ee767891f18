package net.commoninternet.ccci.engine;

import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Versions;

/**
 * Test double of the live run {@link RecordingLifecycle} hands the engine: its app is
 * {@link RecordingLifecycle.RecordingLiveApp}, it converged, it deployed once. The engine's tests
 * use no tier that backs it up, redeploys, lints or reads its logs: those say so.
 */
record RecordingLiveRun(RecordingLifecycle.RecordingLiveApp app) implements LiveRun {

    @Override
    public HookContext hookContext(Tier op) {
        return new RecordingLifecycle.RecordingHookContext(app.domain(), app.keys(), op, Optional.<LiveApp>of(app));
    }

    @Override
    public Convergence convergence() {
        return new Convergence(true, "converged");
    }

    @Override
    public Convergence inspect() {
        return convergence();
    }

    @Override
    public Convergence awaitConverged() {
        return convergence();
    }

    @Override
    public Optional<String> deployOnceViolation() {
        return Optional.empty();
    }

    @Override
    public Probes probes() {
        throw deploysNothing();
    }

    @Override
    public Backups backups() {
        throw deploysNothing();
    }

    @Override
    public Versions versions() {
        throw deploysNothing();
    }

    @Override
    public Map<String, net.commoninternet.ccci.spi.LintResult> lint() {
        throw deploysNothing();
    }

    @Override
    public ServiceLogs serviceLogs() {
        throw deploysNothing();
    }

    private static UnsupportedOperationException deploysNothing() {
        return new UnsupportedOperationException("the engine's test lifecycle deploys nothing");
    }
}
