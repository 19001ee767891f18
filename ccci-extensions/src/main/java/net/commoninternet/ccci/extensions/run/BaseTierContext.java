package net.commoninternet.ccci.extensions.run;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;
import net.commoninternet.ccci.spi.Store;
import net.commoninternet.ccci.spi.TierContext;

/**
 * UPGRADE's view of an upgrade from another base: the run's recipe, keys and masking, the base's
 * own app ({@code live}), and a record and store of its own, so the base's checks never become rows
 * of the run's own tiers (the results show them as the matrix's cell). Nothing is attached.
 */
final class BaseTierContext implements TierContext {

    private final LifecycleContext run;
    private final LiveRun live;
    private final Path runDir;
    private final RunRecord record = new RunRecord();
    private final ConcurrentHashMap<String, Object> values = new ConcurrentHashMap<>();
    private final Store store = new Store() {
        @Override
        public <T> Optional<T> find(Key<T> key) {
            return Optional.ofNullable(values.get(key.toString())).map(key::cast);
        }

        @Override
        public <T> void put(Key<T> key, T value) {
            values.put(key.toString(), value);
        }

        @Override
        public <T> T computeIfAbsent(Key<T> key, Supplier<? extends T> initial) {
            return key.cast(values.computeIfAbsent(key.toString(), k -> initial.get()));
        }
    };

    /** @param runDir the base's own folder in the run's: its services' logs go under it */
    BaseTierContext(LifecycleContext run, LiveRun live, Path runDir) {
        this.run = run;
        this.live = live;
        this.runDir = runDir;
    }

    @Override
    public Tier tier() {
        return Tier.UPGRADE;
    }

    @Override
    public LiveRun live() {
        return live;
    }

    @Override
    public String recipe() {
        return run.recipe();
    }

    @Override
    public String runId() {
        return run.runId();
    }

    @Override
    public Path runDir() {
        return runDir;
    }

    @Override
    public CiKeys keys() {
        return run.keys();
    }

    @Override
    public Optional<RecipeCustomization> customization() {
        return run.customization();
    }

    @Override
    public Set<Tier> tiers() {
        return Set.of(Tier.UPGRADE);
    }

    @Override
    public RunRecord record() {
        return record;
    }

    @Override
    public RunTimeline timeline() {
        return run.timeline();
    }

    @Override
    public Store store() {
        return store;
    }

    @Override
    public String redact(String text) {
        return run.redact(text);
    }

    @Override
    public void attach(Path file, String mediaType) {
        // a base's upgrade is no node of the test report: its logs are in the run's folder
    }
}
