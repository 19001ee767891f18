package net.commoninternet.ccci.engine;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.RunSteps;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;

/**
 * Test double of the run lifecycle: deploys nothing, records what the engine asked of it,
 * and runs the tiers between a "setup" and a "teardown" entry. Like the real lifecycle it calls
 * the run's steps in order (BeforeRun, the pre-install hooks and BeforeDeploy before the (absent)
 * deploy and before there is a live app, the tiers, Teardown in its {@code finally}). Recipes
 * named for a misstep make it misbehave the way another lifecycle might ({@link Misstep}). The real
 * lifecycle lives in ccci-extensions and is tested against the real swarm there.
 */
public final class RecordingLifecycle implements RunLifecycle {

    public static final List<String> EVENTS = new CopyOnWriteArrayList<>();
    public static volatile List<RunRecord.Row> lastRecord = List.of();
    static volatile List<RunTimeline.Phase> lastTimeline = List.of();
    /** A file to attach once the tiers are done, as the real lifecycle attaches results.json; null for none. */
    public static volatile Path attachAtEnd;
    /** The plan's begin and end, and the run ids it held. */
    static final List<String> PLAN = new CopyOnWriteArrayList<>();
    /** Which thread ran each run and each tier operation: {@code <recipe> run|<tier> on <thread>}. */
    static final List<String> THREADS = new CopyOnWriteArrayList<>();
    /** Runs of recipes named {@code meet-*} wait here for each other: they pass only if they run at once. */
    static volatile CyclicBarrier meeting = new CyclicBarrier(2);
    /** Runs of recipes named {@code slot-*} count themselves while in flight, and end when the test lets one. */
    static final AtomicInteger IN_FLIGHT = new AtomicInteger();
    static final AtomicInteger MOST_IN_FLIGHT = new AtomicInteger();
    static final AtomicInteger SLOT_RUNS_STARTED = new AtomicInteger();
    static volatile Semaphore slotRunEnds = new Semaphore(0);
    /** Why a run was stopped, per recipe, once a test double stopped it (recipes named {@code stopped-*}: INSTALL's first check). */
    static final Map<String, String> STOPS = new ConcurrentHashMap<>();
    /** The plan the lifecycle was last handed, for its spare slots. */
    static volatile RunPlan lastPlan;
    /** Runs of recipes named {@code spare-*} meet, take what they can of the plan's spare slots, meet again, give them back. */
    static final List<Integer> SPARE_TAKEN = new CopyOnWriteArrayList<>();
    /** Whether each run deployed its app, as the engine told it ({@code deploysApp}). */
    static final Map<String, Boolean> DEPLOYED = new ConcurrentHashMap<>();

    @Override
    public void beginPlan(RunPlan plan) {
        lastPlan = plan;
        PLAN.add("begin " + plan.runId() + " " + plan.runs().stream().map(RunSettings::runId).toList()
                + (plan.several() ? " several" : " one"));
    }

    @Override
    public void endPlan(RunPlan plan) {
        PLAN.add("end " + plan.runId());
    }

    /** What a recipe of that name makes this lifecycle do wrong: {@code <misstep>} or {@code <misstep>-<anything>}. */
    enum Misstep {
        /** Its deploy throws, after the BeforeDeploy extensions. */
        DEPLOY_FAILS,
        /** It never calls the Teardown step. */
        FORGETS_TEARDOWN,
        /** It runs the tiers without the BeforeDeploy step. */
        SKIPS_BEFORE_DEPLOY,
        /** It returns without running the tiers. */
        RUNS_NO_TIERS,
        /**
         * Its deploy throws {@code OutOfMemoryError} (as a whole read of a recipe's 2 GiB file did), after
         * which its teardown still runs: an error JUnit rethrows through every node of the tree.
         */
        RUNS_OUT_OF_MEMORY;

        static Optional<Misstep> of(String recipe) {
            return Arrays.stream(values())
                    .filter(m -> recipe.equals(m.recipe()) || recipe.startsWith(m.recipe() + "-")).findFirst();
        }

        String recipe() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @Override
    public void run(LifecycleContext run, RunSteps steps) throws Exception {
        EVENTS.add("setup " + run.recipe() + " " + run.tiers());
        THREADS.add(run.recipe() + " run on " + Thread.currentThread().getName());
        if (run.recipe().startsWith("meet-")) {
            meeting.await(30, TimeUnit.SECONDS);
        }
        if (run.recipe().startsWith("spare-")) {
            meeting.await(30, TimeUnit.SECONDS); // every spare- run in flight
            int taken = lastPlan.spare().takeUpTo(5);
            SPARE_TAKEN.add(taken);
            try {
                meeting.await(30, TimeUnit.SECONDS); // each took what it could before any gives back
            } finally {
                lastPlan.spare().release(taken);
            }
        }
        if (run.recipe().startsWith("slot-")) {
            MOST_IN_FLIGHT.accumulateAndGet(IN_FLIGHT.incrementAndGet(), Math::max);
            SLOT_RUNS_STARTED.incrementAndGet();
            try {
                if (!slotRunEnds.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let run " + run.recipe() + " end");
                }
            } finally {
                IN_FLIGHT.decrementAndGet();
            }
        }
        if (run.recipe().equals("secretive")) {
            // this recipe's "secrets" are the planted words of the tier doubles' failures
            run.redactWith(text -> text.replace("planted", "********").replace("broke", "********"));
        }
        String domain = run.recipe() + ".test";
        CiKeys keys = run.keys();
        Optional<Misstep> misstep = Misstep.of(run.recipe());
        try {
            steps.beforeRun();
            DEPLOYED.put(run.recipe(), run.deploysApp());
            if (run.deploysApp() && misstep.filter(m -> m == Misstep.SKIPS_BEFORE_DEPLOY).isEmpty()) {
                steps.beforeDeploy(new RecordingHookContext(domain, keys, Tier.INSTALL, Optional.empty()));
            }
            if (misstep.filter(m -> m == Misstep.RUNS_OUT_OF_MEMORY).isPresent()) {
                throw new OutOfMemoryError("Required array size too large");
            }
            if (misstep.filter(m -> m == Misstep.DEPLOY_FAILS).isPresent()) {
                throw new IllegalStateException("the deploy of " + run.recipe() + " broke");
            }
            if (misstep.filter(m -> m == Misstep.RUNS_NO_TIERS).isEmpty()) {
                steps.tiers(new RecordingLiveRun(new RecordingLiveApp(domain, keys)),
                        () -> Optional.ofNullable(STOPS.get(run.recipe())));
            }
        } finally {
            lastRecord = run.record().rows();
            lastTimeline = run.timeline().phases();
            if (attachAtEnd != null) {
                run.attach(attachAtEnd, "application/json");
            }
            EVENTS.add("teardown " + run.recipe());
            if (misstep.filter(m -> m == Misstep.FORGETS_TEARDOWN).isEmpty()) {
                steps.teardown();
            }
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

    /** Test double of a hook's context: env changes are recorded, not written anywhere. */
    record RecordingHookContext(String domain, CiKeys keys, Tier op, Optional<LiveApp> app) implements HookContext {
        @Override
        public List<String> deps() {
            return keys.deps();
        }

        @Override
        public Map<String, String> depDomains() {
            return Map.of();
        }

        @Override
        public void setEnv(String key, String value) {
            EVENTS.add("setEnv " + key + "=" + value + " before " + op.id());
        }
    }
}
