package net.commoninternet.ccci.engine;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
 * {@link PrefixedConfigurationParameters}, with the {@code fixed} strategy and
 * {@link Constants#PARALLEL_PARALLELISM} as the defaults.
 */
final class ParallelExecution {

    private ParallelExecution() {
    }

    static HierarchicalTestExecutorService executorFor(int runs, ConfigurationParameters config) {
        if (runs > 1 && enabled(config)) {
            return ParallelHierarchicalTestExecutorServiceFactory.create(new Defaults(config));
        }
        return new SameThreadHierarchicalTestExecutorService();
    }

    static boolean enabled(ConfigurationParameters config) {
        return config.get(Constants.PARALLEL_ENABLED).map(v -> !v.trim().equalsIgnoreCase("false")).orElse(true);
    }

    /** One sentence naming the fix, if the parallel keys cannot work; empty if they can. */
    static Optional<String> problem(ConfigurationParameters config) {
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

    /** JUnit's keys under ccci's prefix, with ccci's defaults for the strategy and its parallelism. */
    private static final class Defaults implements ConfigurationParameters {
        private static final String STRATEGY = DefaultParallelExecutionConfigurationStrategy.CONFIG_STRATEGY_PROPERTY_NAME;
        private static final String FIXED_PARALLELISM =
                DefaultParallelExecutionConfigurationStrategy.CONFIG_FIXED_PARALLELISM_PROPERTY_NAME;

        private final ConfigurationParameters prefixed;
        private final ConfigurationParameters config;

        Defaults(ConfigurationParameters config) {
            this.config = config;
            this.prefixed = new PrefixedConfigurationParameters(config, Constants.PARALLEL_CONFIG_PREFIX);
        }

        @Override
        public Optional<String> get(String key) {
            Optional<String> own = prefixed.get(key);
            if (own.isPresent()) {
                return own;
            }
            if (key.equals(STRATEGY)) {
                return Optional.of(DefaultParallelExecutionConfigurationStrategy.FIXED.name().toLowerCase(Locale.ROOT));
            }
            if (key.equals(FIXED_PARALLELISM)) {
                return Optional.of(config.get(Constants.PARALLEL_PARALLELISM).map(String::trim)
                        .orElse(Integer.toString(Constants.DEFAULT_PARALLELISM)));
            }
            return Optional.empty();
        }

        @Override
        public Optional<Boolean> getBoolean(String key) {
            return get(key).map(Boolean::parseBoolean);
        }

        @Override
        public Set<String> keySet() {
            Set<String> keys = new TreeSet<>(prefixed.keySet());
            keys.add(STRATEGY);
            keys.add(FIXED_PARALLELISM);
            return keys;
        }
    }
}
