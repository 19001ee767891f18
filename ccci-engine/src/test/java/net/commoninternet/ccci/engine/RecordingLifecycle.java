package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.commoninternet.ccci.spi.CiKeys;
import net.commoninternet.ccci.spi.LiveApp;
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
        run.put(LiveApp.class, new RecordingLiveApp(run.recipe() + ".test", run.get(CiKeys.class)));
        try {
            tiers.run();
        } finally {
            lastRecord = run.record().rows();
            EVENTS.add("teardown " + run.recipe());
        }
    }

    /** Test double of the live app: answers every request with 200 and an empty body. */
    record RecordingLiveApp(String domain, CiKeys keys) implements LiveApp {
        @Override
        public Response get(String path) {
            return new Response(200, "");
        }

        @Override
        public Response exec(String service, String script) {
            return new Response(0, "");
        }
    }
}
