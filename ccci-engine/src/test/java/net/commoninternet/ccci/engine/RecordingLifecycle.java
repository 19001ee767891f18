package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunLifecycle;
import net.commoninternet.ccci.spi.RunRecord;

/**
 * Test double of the run lifecycle: deploys nothing, records what the engine asked of it,
 * and runs the tiers between a "setup" and a "teardown" entry. The real lifecycle lives in
 * ccci-extensions and is tested against the real swarm there.
 */
public final class RecordingLifecycle implements RunLifecycle {

    static final List<String> EVENTS = new CopyOnWriteArrayList<>();
    static volatile List<RunRecord.Row> lastRecord = List.of();

    @Override
    public void run(RunContext run, Tiers tiers) throws Exception {
        EVENTS.add("setup " + run.recipe() + " " + run.tiers());
        try {
            tiers.run();
        } finally {
            lastRecord = run.record().rows();
            EVENTS.add("teardown " + run.recipe());
        }
    }
}
