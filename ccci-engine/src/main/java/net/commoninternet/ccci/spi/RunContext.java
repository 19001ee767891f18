package net.commoninternet.ccci.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One recipe CI run as the engine hands it to the lifecycle, the tiers and the extensions.
 * Mechanisms share their state through the typed store ({@link #put}, {@link #get}): the
 * lifecycle stores the deployed app, tiers read it.
 */
public final class RunContext {

    private final RunSettings settings;
    private final Path recipeSource;
    private final Set<Tier> tiers;
    private final List<RunExtension> extensions;
    private final Map<Class<?>, Object> store = new ConcurrentHashMap<>();
    private final RunRecord record = new RunRecord();
    private volatile java.util.function.UnaryOperator<String> redactor = java.util.function.UnaryOperator.identity();

    public RunContext(RunSettings settings, Path recipeSource, Set<Tier> tiers, List<RunExtension> extensions) {
        this.settings = Objects.requireNonNull(settings);
        this.recipeSource = Objects.requireNonNull(recipeSource);
        this.tiers = tiers.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(tiers));
        this.extensions = List.copyOf(extensions);
    }

    public RunSettings settings() {
        return settings;
    }

    public String recipe() {
        return settings.recipe();
    }

    /** The recipe's source as found in {@code ccci.recipes}; runs clone it, never change it. */
    public Path recipeSource() {
        return recipeSource;
    }

    /** The tiers this run will execute (after stage and unique-id selection), in run order. */
    public Set<Tier> tiers() {
        return tiers;
    }

    /** Every check's and tier's outcome so far, as the engine reported it. */
    public RunRecord record() {
        return record;
    }

    /** The registered extensions, in their declared order. */
    public List<RunExtension> extensions() {
        return extensions;
    }

    /**
     * How the run masks its secret values in text: the engine passes every failure and skip
     * message through it before reporting (Surefire writes reports in Maven's process, outside
     * any console filter of the run's).
     */
    public void redactWith(java.util.function.UnaryOperator<String> redactor) {
        this.redactor = Objects.requireNonNull(redactor);
    }

    /** {@code text} with the run's secret values masked. */
    public String redact(String text) {
        return text == null ? null : redactor.apply(text);
    }

    public <T> void put(Class<T> key, T value) {
        store.put(key, key.cast(value));
    }

    public <T> T get(Class<T> key) {
        Object value = store.get(key);
        if (value == null) {
            throw new NoSuchElementException("run state has no " + key.getSimpleName() + " yet");
        }
        return key.cast(value);
    }

    public <T> java.util.Optional<T> find(Class<T> key) {
        return java.util.Optional.ofNullable(store.get(key)).map(key::cast);
    }
}
