package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.descriptor.CcciEngineDescriptor;
import net.commoninternet.ccci.engine.descriptor.RecipeRunDescriptor;
import net.commoninternet.ccci.engine.parallel.RunSlots;
import net.commoninternet.ccci.spi.RunTimeline;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.hierarchical.ExclusiveResource;
import org.junit.platform.engine.support.hierarchical.Node;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.slf4j.LoggerFactory;

/** Several recipes in one command: sibling runs of one plan, in parallel through JUnit's own executor. */
class PlanOfSeveralRecipesTest {

    @TempDir
    Path recipes;

    @BeforeEach
    void setUp() throws IOException {
        for (String recipe : List.of("demo", "meet-a", "meet-b", "plain")) {
            Files.createDirectories(recipes.resolve(recipe));
        }
        RecordingLifecycle.EVENTS.clear();
        RecordingLifecycle.PLAN.clear();
        RecordingLifecycle.THREADS.clear();
        RecordingLifecycle.meeting = new CyclicBarrier(2);
    }

    private EngineTestKit.Builder kit(String recipe, String... keyValues) {
        EngineTestKit.Builder kit = EngineTestKit.engine(CcciTestEngine.ID).selectors(selectClass(Anchor.class))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RECIPE, recipe)
                .configurationParameter(Constants.RUN_ID, "1234")
                .configurationParameter(Constants.STAGES, "install");
        for (int i = 0; i < keyValues.length; i += 2) {
            kit.configurationParameter(keyValues[i], keyValues[i + 1]);
        }
        return kit;
    }

    private static List<RecipeRunDescriptor> runs(EngineDiscoveryResults results) {
        return ((CcciEngineDescriptor) results.getEngineDescriptor()).runs();
    }

    @Test
    void aCommaListGivesSiblingRunsEachWithTheRunIdOfTheCommandAndItsRecipe() {
        EngineDiscoveryResults results = kit("plain, demo,plain").discover();

        assertThat(results.getDiscoveryIssues()).isEmpty();
        assertThat(runs(results)).extracting(r -> r.settings().recipe()).containsExactly("plain", "demo");
        assertThat(runs(results)).extracting(r -> r.settings().runId()).containsExactly("1234-plain", "1234-demo");
        assertThat(runs(results)).extracting(r -> r.settings().runDir().getFileName().toString())
                .containsExactly("1234-plain", "1234-demo");
    }

    /**
     * JUnit rethrows an {@code OutOfMemoryError} through every node (it is "unrecoverable"), skipping
     * each node's {@code after}: the plan's end must still come, or the lifecycle's command stays open
     * and its shutdown hook held the JVM for its whole teardown grace (9 minutes) after the RUN SUMMARY.
     */
    @Test
    void anErrorJUnitRethrowsOutOfARunStillEndsThePlanOnItsThread() throws IOException {
        Files.createDirectories(recipes.resolve("runs-out-of-memory"));

        for (String command : List.of("runs-out-of-memory", "runs-out-of-memory,demo")) {
            RecordingLifecycle.PLAN.clear();
            RecordingLifecycle.EVENTS.clear();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> kit(command, Constants.PARALLEL_ENABLED, "false").execute())
                    .as(command).isInstanceOf(OutOfMemoryError.class);

            assertThat(RecordingLifecycle.EVENTS).as(command).contains("teardown runs-out-of-memory");
            assertThat(RecordingLifecycle.PLAN).as(command).hasSize(2).last().isEqualTo("end 1234");
        }
    }

    @Test
    void aSingleRecipeKeepsTheCommandsRunId() {
        assertThat(runs(kit("demo").discover())).extracting(r -> r.settings().runId()).containsExactly("1234");
    }

    @Test
    void allSelectsEveryRecipeFolder() {
        assertThat(runs(kit("all").discover())).extracting(r -> r.settings().recipe())
                .containsExactly("demo", "meet-a", "meet-b", "plain");
    }

    @Test
    void anUnknownRecipeInTheListIsOneErrorNamingIt() {
        EngineDiscoveryResults results = kit("demo,plian").discover();

        assertThat(results.getDiscoveryIssues()).extracting(DiscoveryIssue::message).singleElement().asString()
                .contains("recipe 'plian' not found", "Did you mean 'plain'?");
    }

    @Test
    void allTogetherWithNamesIsAnErrorNamingTheFix() {
        assertThat(kit("all,demo").discover().getDiscoveryIssues()).extracting(DiscoveryIssue::message)
                .singleElement().asString().contains("pass -Drecipe=all alone");
    }

    @Test
    void aParallelismThatIsNotAPositiveNumberIsAnError() {
        assertThat(kit("demo,plain", Constants.PARALLEL_PARALLELISM, "two").discover().getDiscoveryIssues())
                .extracting(DiscoveryIssue::message).singleElement().asString()
                .contains("ccci.parallel.parallelism='two'", "positive whole number");
    }

    @Test
    void eachRunHoldsAnExclusiveResourceOnItsAppDomainAndItsTiersAndChecksStayOnItsThread() {
        List<RecipeRunDescriptor> runs = runs(kit("demo,plain").discover());

        assertThat(runs).extracting(r -> r.getExclusiveResources()).containsExactly(
                Set.of(new ExclusiveResource(RecipeRunDescriptor.APP_DOMAIN_RESOURCE + "demo|0|HEAD",
                        ExclusiveResource.LockMode.READ_WRITE)),
                Set.of(new ExclusiveResource(RecipeRunDescriptor.APP_DOMAIN_RESOURCE + "plain|0|HEAD",
                        ExclusiveResource.LockMode.READ_WRITE)));
        assertThat(runs).extracting(Node::getExecutionMode).containsOnly(Node.ExecutionMode.CONCURRENT);
        assertThat(runs.get(0).getDescendants()).isNotEmpty().extracting(d -> ((Node<?>) d).getExecutionMode())
                .containsOnly(Node.ExecutionMode.SAME_THREAD);
    }

    @Test
    void runsOfSeveralRecipesGoOnAtOnceAndTheLifecycleHearsOfThePlanOnceAroundThem() {
        // Each meet-* run waits at a barrier for the other: both pass only if they run at the same time.
        EngineExecutionResults results = kit("meet-a,meet-b").execute();

        results.containerEvents().assertStatistics(stats -> stats.failed(0));
        results.testEvents().assertStatistics(stats -> stats.succeeded(2).failed(2));
        assertThat(RecordingLifecycle.PLAN).containsExactly("begin 1234 [1234-meet-a, 1234-meet-b] several", "end 1234");
        List<String> threads = RecordingLifecycle.THREADS;
        assertThat(threads).hasSize(4);
        for (String recipe : List.of("meet-a", "meet-b")) {
            String runThread = thread(threads, recipe + " run on ");
            assertThat(thread(threads, recipe + " install on ")).as("the tier runs on its run's thread").isEqualTo(runThread);
        }
        assertThat(thread(threads, "meet-a run on ")).isNotEqualTo(thread(threads, "meet-b run on "));
    }

    /**
     * Six runs at parallelism 2, each held in flight until the test lets it end: at every step the
     * two in flight are the only ones started, and each of the other four waits at the gate and said
     * so once (every run has a thread, so none is merely queued). Each state is observed before the
     * test lets one run end; a pool that ran a third at once (JUnit's fork-join pool replacing a
     * blocked worker did) fails on the count.
     */
    @Test
    void neverMoreRunsInFlightThanTheParallelismAndEachRunBeyondItSaysOnceThatItWaits() throws Exception {
        List<String> slotRuns = List.of("slot-1", "slot-2", "slot-3", "slot-4", "slot-5", "slot-6");
        for (String recipe : slotRuns) {
            Files.createDirectories(recipes.resolve(recipe));
        }
        RecordingLifecycle.IN_FLIGHT.set(0);
        RecordingLifecycle.MOST_IN_FLIGHT.set(0);
        RecordingLifecycle.SLOT_RUNS_STARTED.set(0);
        RecordingLifecycle.slotRunEnds = new Semaphore(0);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        Logger gate = (Logger) LoggerFactory.getLogger(RunSlots.class);
        lines.start();
        gate.addAppender(lines);
        ExecutorService command = Executors.newSingleThreadExecutor();
        try {
            Future<EngineExecutionResults> results = command.submit(() -> kit(String.join(",", slotRuns),
                    Constants.PARALLEL_PARALLELISM, "2").execute());
            for (int ended = 0; ended < slotRuns.size(); ended++) {
                int inFlight = Math.min(2, slotRuns.size() - ended);
                int started = ended + inFlight;
                awaitState(() -> RecordingLifecycle.SLOT_RUNS_STARTED.get() == started
                        && RecordingLifecycle.IN_FLIGHT.get() == inFlight && waiting(lines).size() == 4, results);
                assertThat(RecordingLifecycle.IN_FLIGHT.get()).as("runs in flight after %d ended", ended).isEqualTo(inFlight);
                RecordingLifecycle.slotRunEnds.release();
            }
            results.get(60, TimeUnit.SECONDS).containerEvents().assertStatistics(stats -> stats.failed(0));
        } finally {
            RecordingLifecycle.slotRunEnds.release(slotRuns.size());
            command.shutdownNow();
            gate.detachAppender(lines);
        }
        assertThat(RecordingLifecycle.MOST_IN_FLIGHT.get()).as("most runs in flight at once").isEqualTo(2);
        assertThat(waiting(lines)).as("each run beyond the bound says once that it waits").hasSize(4)
                .allSatisfy(line -> assertThat(line).endsWith(" waits for a run slot: 2 run(s) at once"
                        + " (ccci.parallel.parallelism=2) =="))
                .extracting(line -> line.split(" ")[1]).doesNotHaveDuplicates().isSubsetOf(slotRuns);
    }

    private static List<String> waiting(ListAppender<ILoggingEvent> lines) {
        synchronized (lines) { // AppenderBase.doAppend appends holding the appender's own monitor
            return lines.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("waits for a run slot"))
                    .toList();
        }
    }

    /** Polls observed state until it holds; fails if the command ended first or 30 s went by. */
    private static void awaitState(BooleanSupplier state, Future<?> command) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!state.getAsBoolean()) {
            assertThat(command.isDone()).as("the command ended before the state was reached").isFalse();
            assertThat(System.nanoTime()).as("state reached within 30 s (in flight %d, started %d)",
                    RecordingLifecycle.IN_FLIGHT.get(), RecordingLifecycle.SLOT_RUNS_STARTED.get()).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * The slots a run's extra work (an upgrade from another base) may take beside it: the bound less
     * the runs in flight, taken without waiting and given back. One run at parallelism 3 finds two; two
     * runs in flight at once find one between them.
     */
    @Test
    void aRunsExtraWorkTakesOnlyTheSlotsNoRunHolds() throws IOException {
        for (String recipe : List.of("spare-a", "spare-b")) {
            Files.createDirectories(recipes.resolve(recipe));
        }
        RecordingLifecycle.SPARE_TAKEN.clear();
        RecordingLifecycle.meeting = new CyclicBarrier(1);
        kit("spare-a", Constants.PARALLEL_PARALLELISM, "3").execute().containerEvents().assertStatistics(s -> s.failed(0));
        assertThat(RecordingLifecycle.SPARE_TAKEN).containsExactly(2);

        RecordingLifecycle.SPARE_TAKEN.clear();
        RecordingLifecycle.meeting = new CyclicBarrier(2);
        kit("spare-a,spare-b", Constants.PARALLEL_PARALLELISM, "3").execute().containerEvents().assertStatistics(s -> s.failed(0));
        assertThat(RecordingLifecycle.SPARE_TAKEN).hasSize(2);
        assertThat(RecordingLifecycle.SPARE_TAKEN.stream().mapToInt(Integer::intValue).sum()).isEqualTo(1);
    }

    @Test
    void withParallelExecutionOffTheRunsGoOneAfterTheOther() {
        kit("demo,plain", Constants.PARALLEL_ENABLED, "false").execute();

        assertThat(RecordingLifecycle.EVENTS).filteredOn(e -> e.startsWith("setup") || e.startsWith("teardown"))
                .containsExactly("setup demo [INSTALL]", "teardown demo", "setup plain [INSTALL]", "teardown plain");
    }

    @Test
    void aFailingRunDoesNotStopTheOthers() {
        // the install tier's check "fails" fails in every run; each run still goes to its end
        EngineExecutionResults results = kit("demo,plain,meet-a,meet-b").execute();

        results.testEvents().assertStatistics(stats -> stats.failed(4).succeeded(4));
        assertThat(RecordingLifecycle.EVENTS).filteredOn(e -> e.startsWith("teardown")).containsExactlyInAnyOrder(
                "teardown demo", "teardown plain", "teardown meet-a", "teardown meet-b");
    }

    @Test
    void aTierIsAPhaseOfItsRunsTimeline() {
        kit("demo").execute();

        assertThat(RecordingLifecycle.lastTimeline).singleElement().satisfies(phase -> {
            assertThat(phase.name()).isEqualTo(Tier.INSTALL.id());
            assertThat(phase.outcome()).as("a check of it failed").isEqualTo(RunTimeline.Outcome.FAILED);
            assertThat(phase.duration()).isPositive();
        });
    }

    @Test
    void aUniqueIdOfEachOfTwoRecipesIsAPlanOfSeveralToo() {
        EngineDiscoveryResults results = EngineTestKit.engine(CcciTestEngine.ID)
                .selectors(selectUniqueId("[engine:ccci]/[recipe:demo]"), selectUniqueId("[engine:ccci]/[recipe:plain]"))
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.RUN_ID, "77").discover();

        assertThat(runs(results)).extracting(r -> r.settings().runId()).containsExactly("77-demo", "77-plain");
    }

    private static String thread(List<String> threads, String prefix) {
        return threads.stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + prefix + "' in " + threads));
    }

}
