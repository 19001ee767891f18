package net.commoninternet.ccci.spi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * One recipe CI run as the engine hands it to the lifecycle, the tiers and the extensions: what
 * discovery found (settings, the recipe, its keys and customization), the record of outcomes,
 * and, while the tiers run, the {@link #live()} run the lifecycle made. Each node of the run's
 * report holds its own view of the one run ({@link #withAttachments}): the same run, but
 * {@link #attach} puts files on that node. Third-party extensions keep their own state in a
 * {@link #store} of their own.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class RunContext {

    private final RunSettings settings;
    private final RecipeUnderTest recipe;
    private final Set<Tier> tiers;
    private final List<RunExtension> extensions;
    private final Shared shared;
    private final Attachments attachments;
    private final LiveRun live;

    /** Where {@link RunContext#attach} puts a file: the test report node that holds this view of the run. */
    @FunctionalInterface
    public interface Attachments {
        void attach(Path file, String mediaType) throws IOException;
    }

    /** An extension's own state for one run, keyed by type; never shared with another extension. */
    public static final class Store {
        private final Map<Class<?>, Object> values = new ConcurrentHashMap<>();

        public <T> void put(Class<T> key, T value) {
            values.put(key, key.cast(value));
        }

        public <T> Optional<T> find(Class<T> key) {
            return Optional.ofNullable(values.get(key)).map(key::cast);
        }
    }

    /** What every view of one run shares. */
    private static final class Shared {
        final RunRecord record = new RunRecord();
        final RunTimeline timeline = new RunTimeline();
        final AtomicReference<UnaryOperator<String>> redactor = new AtomicReference<>(UnaryOperator.identity());
        final Map<Class<?>, Store> stores = new ConcurrentHashMap<>();
    }

    /** A run outside any test report (a mechanism's own test): {@link #attach} says there is none. */
    public RunContext(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers, List<RunExtension> extensions) {
        this(settings, recipe, tiers, extensions, (file, mediaType) -> {
            throw new IllegalStateException("this run is not part of a test report: " + file + " cannot be attached");
        });
    }

    public RunContext(RunSettings settings, RecipeUnderTest recipe, Set<Tier> tiers, List<RunExtension> extensions,
            Attachments attachments) {
        this.settings = Objects.requireNonNull(settings);
        this.recipe = Objects.requireNonNull(recipe);
        this.tiers = tiers.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(tiers));
        this.extensions = List.copyOf(extensions);
        this.shared = new Shared();
        this.attachments = Objects.requireNonNull(attachments);
        this.live = null;
    }

    private RunContext(RunContext run, Attachments attachments, LiveRun live) {
        this.settings = run.settings;
        this.recipe = run.recipe;
        this.tiers = run.tiers;
        this.extensions = run.extensions;
        this.shared = run.shared;
        this.attachments = Objects.requireNonNull(attachments);
        this.live = live;
    }

    /**
     * The same run, its attachments going to {@code target}: the engine hands each tier's node such
     * a view, so what a tier attaches lands on that tier.
     */
    public RunContext withAttachments(Attachments target) {
        return new RunContext(this, target, live);
    }

    /** The same run with its app live: the view the engine runs the tiers with. */
    public RunContext withLive(LiveRun liveRun) {
        return new RunContext(this, attachments, Objects.requireNonNull(liveRun));
    }

    /**
     * Attaches a copy of {@code file} to the report node that holds this view: the tier, for a
     * tier's operation, its checks and its AfterTier callbacks; the recipe, for the lifecycle.
     * Open Test Reporting lists it among the node's attachments. Call it while that node runs.
     *
     * @param mediaType e.g. {@code text/plain}
     */
    public void attach(Path file, String mediaType) throws IOException {
        attachments.attach(file, mediaType);
    }

    public RunSettings settings() {
        return settings;
    }

    public String recipe() {
        return settings.recipe();
    }

    /** The recipe's source as found in {@code ccci.recipes}; runs clone it, never change it. */
    public Path recipeSource() {
        return recipe.source();
    }

    /** The recipe's CI keys, defaults filled in. */
    public CiKeys keys() {
        return recipe.keys();
    }

    /** The recipe's customization, if it has one. */
    public Optional<RecipeCustomization> customization() {
        return recipe.customization();
    }

    /** The CI keys of the recipe's dependencies ({@code DEPS}). */
    public DependencyKeys dependencyKeys() {
        return recipe.dependencyKeys();
    }

    /** The tiers this run will execute (after stage and unique-id selection), in run order. */
    public Set<Tier> tiers() {
        return tiers;
    }

    /**
     * The live run the lifecycle handed the engine: set for every tier, its checks and its
     * AfterTier extensions, which run only once the app is deployed.
     *
     * @throws IllegalStateException outside the tiers, where there is no live app
     */
    public LiveRun live() {
        if (live == null) {
            throw new IllegalStateException("no live run here: the app is live only while the tiers run");
        }
        return live;
    }

    /** Every check's and tier's outcome so far, as the engine reported it. */
    public RunRecord record() {
        return shared.record;
    }

    /** The run's phases and their durations so far (the same timeline in every view of the run). */
    public RunTimeline timeline() {
        return shared.timeline;
    }

    /** The registered extensions, in their declared order. */
    public List<RunExtension> extensions() {
        return extensions;
    }

    /** {@code owner}'s own state for this run (the same store in every view of the run). */
    public Store store(Class<? extends RunExtension> owner) {
        return shared.stores.computeIfAbsent(owner, o -> new Store());
    }

    /**
     * How the run masks its secret values in text: the engine passes every failure and skip
     * message through it before reporting (Surefire writes reports in Maven's process, outside
     * any console filter of the run's).
     */
    public void redactWith(UnaryOperator<String> redactor) {
        shared.redactor.set(Objects.requireNonNull(redactor));
    }

    /** {@code text} with the run's secret values masked. */
    public String redact(String text) {
        return text == null ? null : shared.redactor.get().apply(text);
    }
}
