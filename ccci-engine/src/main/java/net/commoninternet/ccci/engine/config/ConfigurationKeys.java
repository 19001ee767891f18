package net.commoninternet.ccci.engine.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The keys a command gives in ccci's namespace ({@code ccci.*}, with {@code -D}, in
 * {@code junit-platform.properties} or Surefire's {@code configurationParameters}), judged against the
 * keys ccci knows: a key it does not know would be ignored, so the run it belongs to would run as if it
 * were never written. ccci's keys are {@link Constants}' own: every public {@code String} constant whose
 * value is a dotted name in the namespace is a key, one that ends in {@code .} a prefix of keys passed
 * on (JUnit's own under {@link Constants#PARALLEL_CONFIG_PREFIX}), so a key added there is known here
 * without a second list. Keys of other tools are left alone, but for one ccci refuses: Surefire's
 * {@link #SUREFIRE_RERUN} on the command line, which would deploy the app again for every rerun (ccci
 * tries a failed check again on the live app itself: {@link Constants#CHECK_ATTEMPTS}).
 */
@API(status = API.Status.INTERNAL)
public final class ConfigurationKeys {

    /** ccci's namespace: a key under it is ccci's, known or misspelt. */
    static final String NAMESPACE = "ccci.";

    /**
     * Surefire's rerun of failed tests, as {@code -Dsurefire.rerunFailingTestsCount=N} hands it to the
     * run's JVM: a rerun of a failed check selects its run again, which deploys the app again.
     */
    public static final String SUREFIRE_RERUN = "surefire.rerunFailingTestsCount";

    /** A key's shape: dotted names of letters, digits and '-'; a trailing dot makes it a prefix. */
    private static final Pattern KEY = Pattern.compile("ccci(\\.[A-Za-z0-9-]+)+\\.?");

    private static final ConfigurationKeys OF_CONSTANTS = new ConfigurationKeys(declared(Constants.class));

    private final Set<String> keys = new TreeSet<>();
    private final Set<String> prefixes = new TreeSet<>();

    private ConfigurationKeys(Collection<String> declared) {
        for (String key : declared) {
            (key.endsWith(".") ? prefixes : keys).add(key);
        }
    }

    /** ccci's keys and prefixes, as {@link Constants} declares them. */
    public static ConfigurationKeys known() {
        return OF_CONSTANTS;
    }

    /** Every key and prefix {@code constants} declares: its public static String constants in ccci's namespace. */
    static List<String> declared(Class<?> constants) {
        List<String> declared = new ArrayList<>();
        for (Field field : constants.getFields()) {
            int modifiers = field.getModifiers();
            if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                try {
                    String value = (String) field.get(null);
                    if (KEY.matcher(value).matches()) {
                        declared.add(value);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("constant " + field + " cannot be read", e);
                }
            }
        }
        return declared;
    }

    /** The exact keys (not the prefixes), sorted. */
    public Set<String> keys() {
        return Set.copyOf(keys);
    }

    /** Whether {@code key} is one of ccci's, or passed on under one of its prefixes. */
    public boolean knows(String key) {
        return keys.contains(key) || prefixes.stream().anyMatch(key::startsWith);
    }

    /**
     * One sentence per key of ccci's namespace in {@code config} that ccci does not know, sorted by key,
     * with the closest known key; and one for a positive {@link #SUREFIRE_RERUN}. Empty when every key
     * is ccci's or another tool's.
     */
    public List<String> problems(ConfigurationParameters config) {
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(config.keySet())) {
            if (key.startsWith(NAMESPACE) && !knows(key)) {
                problems.add(key + " is not a setting of ccci, so it would be ignored and the run would go on as if it"
                        + " were never written: correct it or remove it (every key is documented in Constants and"
                        + " docs/engine.md)." + closest(key).map(k -> " Did you mean '" + k + "'?").orElse(""));
            }
        }
        config.get(SUREFIRE_RERUN).map(String::trim).filter(ConfigurationKeys::positive).ifPresent(count -> problems.add(
                SUREFIRE_RERUN + "=" + count + " would rerun a failed check by running its recipe again, a second deploy"
                        + " of the app for every rerun, which ccci never does: ccci tries a failed check again on the live app"
                        + " itself, so leave rerunFailingTestsCount out and set " + Constants.CHECK_ATTEMPTS + " instead."));
        return problems;
    }

    private static boolean positive(String count) {
        try {
            return Integer.parseInt(count) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The known key closest to {@code typed}: as a whole, else by its last name against each key's
     * ({@code ccci.paralellism} is {@code ccci.parallel.parallelism}'s, too far off as a whole).
     */
    Optional<String> closest(String typed) {
        return Suggestions.closest(typed, keys).or(() -> {
            Map<String, String> byLastName = new LinkedHashMap<>();
            keys.forEach(k -> byLastName.putIfAbsent(lastName(k), k));
            return Suggestions.closest(lastName(typed), byLastName.keySet()).map(byLastName::get);
        });
    }

    private static String lastName(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }
}
