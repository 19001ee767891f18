package net.commoninternet.ccci.engine.parallel;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.lifecycle.SpareSlots;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.support.config.PrefixedConfigurationParameters;
import org.junit.platform.engine.support.hierarchical.DefaultParallelExecutionConfigurationStrategy;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestExecutorService;
import org.junit.platform.engine.support.hierarchical.ParallelHierarchicalTestExecutorServiceFactory;
import org.junit.platform.engine.support.hierarchical.SameThreadHierarchicalTestExecutorService;

/**
 * How the runs of a plan are executed: a plan of several recipes, with {@code ccci.parallel.enabled}
 * (the default), through the JUnit Platform's own parallel executor; anything else on the thread
 * that runs the engine, as one run always was. The parallel executor is configured the way Jupiter
 * configures its own: JUnit's keys under {@link Constants#PARALLEL_CONFIG_PREFIX}, read through a
 * {@link PrefixedConfigurationParameters}. Its defaults give every run of the plan a thread of its
 * own (the {@code fixed} strategy, as many threads as runs, never more: max pool size and
 * saturation), and {@link RunSlots} bounds how many of them run at once to
 * {@link Constants#PARALLEL_PARALLELISM}: the bound is ccci's, so a pool that replaces a blocked
 * worker can never exceed it, and a run beyond it waits on a thread where it can say so.
 */
@API(status = API.Status.INTERNAL)
public final class ParallelExecution {

    private ParallelExecution() {
    }

    public static HierarchicalTestExecutorService executorFor(int runs, ConfigurationParameters config) {
        if (runs > 1 && enabled(config)) {
            return new RunSlots(ParallelHierarchicalTestExecutorServiceFactory.create(new Defaults(config, runs)),
                    parallelism(config));
        }
        return new SameThreadHierarchicalTestExecutorService();
    }

    /**
     * The slots of {@code executor}'s command no run holds, for a run's extra work: {@link RunSlots}'
     * own; for runs one after another (one run, or {@code ccci.parallel.enabled=false}), the bound
     * less the one run in flight.
     */
    public static SpareSlots spareOf(HierarchicalTestExecutorService executor, ConfigurationParameters config) {
        if (executor instanceof RunSlots slots) {
            return slots.spare();
        }
        return RunSlots.spareOf(new Semaphore(Math.max(0, parallelism(config) - 1), true));
    }

    static boolean enabled(ConfigurationParameters config) {
        return config.get(Constants.PARALLEL_ENABLED).map(v -> !v.trim().equalsIgnoreCase("false")).orElse(true);
    }

    /** {@link Constants#PARALLEL_PARALLELISM}, once {@link #problem} found nothing wrong with it. */
    static int parallelism(ConfigurationParameters config) {
        return config.get(Constants.PARALLEL_PARALLELISM).map(String::trim).map(Integer::parseInt)
                .orElse(Constants.DEFAULT_PARALLELISM);
    }

    /** One sentence naming the fix, if the parallel keys cannot work; empty if they can. */
    public static Optional<String> problem(ConfigurationParameters config) {
        Optional<String> enabled = config.get(Constants.PARALLEL_ENABLED).map(String::trim);
        if (enabled.isPresent() && !Set.of("true", "false").contains(enabled.get().toLowerCase(Locale.ROOT))) {
            return Optional.of(Constants.PARALLEL_ENABLED + "='" + enabled.get() + "' is not a switch: use true or false.");
        }
        Optional<String> parallelism = config.get(Constants.PARALLEL_PARALLELISM).map(String::trim);
        if (parallelism.isPresent()) {
            int value;
            try {
                value = Integer.parseInt(parallelism.get());
            } catch (NumberFormatException e) {
                value = 0;
            }
            if (value < 1) {
                return Optional.of(Constants.PARALLEL_PARALLELISM + "='" + parallelism.get() + "' is not a number of runs:"
                        + " pass a positive whole number, for example -D" + Constants.PARALLEL_PARALLELISM + "=2.");
            }
        }
        return Optional.empty();
    }

    /**
     * JUnit's keys under ccci's prefix, with ccci's defaults: the {@code fixed} strategy with a
     * thread for each run of the plan, and no more threads than that (the pool never adds one for
     * a blocked worker: {@code max-pool-size}, with {@code saturate}).
     */
    private static final class Defaults implements ConfigurationParameters {
        private static final String STRATEGY = DefaultParallelExecutionConfigurationStrategy.CONFIG_STRATEGY_PROPERTY_NAME;
        private static final String FIXED_PARALLELISM =
                DefaultParallelExecutionConfigurationStrategy.CONFIG_FIXED_PARALLELISM_PROPERTY_NAME;
        private static final String FIXED_MAX_POOL_SIZE =
                DefaultParallelExecutionConfigurationStrategy.CONFIG_FIXED_MAX_POOL_SIZE_PROPERTY_NAME;
        private static final String FIXED_SATURATE = DefaultParallelExecutionConfigurationStrategy.CONFIG_FIXED_SATURATE_PROPERTY_NAME;

        private final ConfigurationParameters prefixed;
        private final int runs;

        Defaults(ConfigurationParameters config, int runs) {
            this.prefixed = new PrefixedConfigurationParameters(config, Constants.PARALLEL_CONFIG_PREFIX);
            this.runs = runs;
        }

        @Override
        public Optional<String> get(String key) {
            Optional<String> own = prefixed.get(key);
            if (own.isPresent()) {
                return own;
            }
            return switch (key) {
                case STRATEGY -> Optional.of(DefaultParallelExecutionConfigurationStrategy.FIXED.name().toLowerCase(Locale.ROOT));
                case FIXED_PARALLELISM -> Optional.of(Integer.toString(runs));
                case FIXED_MAX_POOL_SIZE -> get(FIXED_PARALLELISM);
                case FIXED_SATURATE -> Optional.of("true");
                default -> Optional.empty();
            };
        }

        @Override
        public Optional<Boolean> getBoolean(String key) {
            return get(key).map(Boolean::parseBoolean);
        }

        @Override
        public Set<String> keySet() {
            Set<String> keys = new TreeSet<>(prefixed.keySet());
            keys.addAll(Set.of(STRATEGY, FIXED_PARALLELISM, FIXED_MAX_POOL_SIZE, FIXED_SATURATE));
            return keys;
        }
    }
}
