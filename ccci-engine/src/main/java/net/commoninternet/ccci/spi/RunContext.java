package net.commoninternet.ccci.spi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import net.commoninternet.ccci.api.Tier;

/**
 * One recipe CI run as the engine hands it to the lifecycle, the tiers and the extensions.
 * Mechanisms share their state through the typed store ({@link #put}, {@link #get}): the
 * lifecycle stores the deployed app, tiers read it. Each node of the run's report holds its own
 * view of the one run ({@link #withAttachments}): the same settings, store, record and redactor, but
 * {@link #attach} puts files on that node.
 */
public final class RunContext {

    private final RunSettings settings;
    private final Path recipeSource;
    private final Set<Tier> tiers;
    private final List<RunExtension> extensions;
    private final Map<Class<?>, Object> store;
    private final RunRecord record;
    private final AtomicReference<UnaryOperator<String>> redactor;
    private final Attachments attachments;

    /** Where {@link RunContext#attach} puts a file: the test report node that holds this view of the run. */
    @FunctionalInterface
    public interface Attachments {
        void attach(Path file, String mediaType) throws IOException;
    }

    /** A run outside any test report (a mechanism's own test): {@link #attach} says there is none. */
    public RunContext(RunSettings settings, Path recipeSource, Set<Tier> tiers, List<RunExtension> extensions) {
        this(settings, recipeSource, tiers, extensions, (file, mediaType) -> {
            throw new IllegalStateException("this run is not part of a test report: " + file + " cannot be attached");
        });
    }

    public RunContext(RunSettings settings, Path recipeSource, Set<Tier> tiers, List<RunExtension> extensions,
            Attachments attachments) {
        this.settings = Objects.requireNonNull(settings);
        this.recipeSource = Objects.requireNonNull(recipeSource);
        this.tiers = tiers.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(tiers));
        this.extensions = List.copyOf(extensions);
        this.store = new ConcurrentHashMap<>();
        this.record = new RunRecord();
        this.redactor = new AtomicReference<>(UnaryOperator.identity());
        this.attachments = Objects.requireNonNull(attachments);
    }

    private RunContext(RunContext run, Attachments attachments) {
        this.settings = run.settings;
        this.recipeSource = run.recipeSource;
        this.tiers = run.tiers;
        this.extensions = run.extensions;
        this.store = run.store;
        this.record = run.record;
        this.redactor = run.redactor;
        this.attachments = Objects.requireNonNull(attachments);
    }

    /**
     * The same run (settings, store, record, redactor), its attachments going to {@code target}: the
     * engine hands each tier's node such a view, so what a tier attaches lands on that tier.
     */
    public RunContext withAttachments(Attachments target) {
        return new RunContext(this, target);
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
    public void redactWith(UnaryOperator<String> redactor) {
        this.redactor.set(Objects.requireNonNull(redactor));
    }

    /** {@code text} with the run's secret values masked. */
    public String redact(String text) {
        return text == null ? null : redactor.get().apply(text);
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
