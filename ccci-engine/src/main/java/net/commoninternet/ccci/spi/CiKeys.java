package net.commoninternet.ccci.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A recipe's declarative CI keys, validated: every key is one of {@link #KNOWN} with a value of
 * the right shape. Defaults: {@code HEALTH_PATH} "/", {@code HEALTH_OK} 200, 301, 302,
 * {@code DEPLOY_TIMEOUT} 600 s, {@code HTTP_TIMEOUT} 300 s.
 */
public final class CiKeys {

    /** The keys recipe maintainers already use in production. */
    public static final Set<String> KNOWN = Set.of("HEALTH_PATH", "HEALTH_OK", "DEPLOY_TIMEOUT", "HTTP_TIMEOUT",
            "EXTRA_ENV", "UPGRADE_EXTRA_ENV", "READY_PROBE", "BACKUP_VERIFY", "SCREENSHOT", "EXPECTED_NA", "DEPS",
            "WARM_CANONICAL", "UPGRADE_BASE_VERSION", "BACKUP_CAPABLE");

    private final Map<String, Object> values;

    private CiKeys(Map<String, Object> values) {
        this.values = new TreeMap<>(values);
    }

    public static CiKeys defaults() {
        return new CiKeys(Map.of());
    }

    /**
     * Validates {@code raw}; returns the keys, or the problems, each one sentence naming the fix.
     * {@code suggest} turns an unknown key into a " Did you mean ...?" (or "").
     */
    public static Result parse(String recipe, Map<String, Object> raw, java.util.function.UnaryOperator<String> suggest) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (!KNOWN.contains(key)) {
                problems.add("unknown CI key '" + key + "' in the customization of " + recipe + ": valid keys are "
                        + String.join(", ", new java.util.TreeSet<>(KNOWN)) + "." + suggest.apply(key));
                continue;
            }
            String shape = switch (key) {
                case "HEALTH_PATH", "UPGRADE_BASE_VERSION", "READY_PROBE", "BACKUP_VERIFY", "SCREENSHOT", "WARM_CANONICAL" ->
                        value instanceof String ? null : "a string";
                case "HEALTH_OK" -> value instanceof List<?> list && list.stream().allMatch(Integer.class::isInstance)
                        ? null : "a list of HTTP status numbers";
                case "DEPLOY_TIMEOUT", "HTTP_TIMEOUT" -> value instanceof Integer i && i > 0 ? null : "a positive number of seconds";
                case "BACKUP_CAPABLE" -> value instanceof Boolean ? null : "true or false";
                case "EXPECTED_NA" -> value instanceof Map<?, ?> map && map.keySet().stream()
                        .allMatch(k -> k instanceof String s && Tier.fromId(s).isPresent())
                        && map.values().stream().allMatch(String.class::isInstance)
                        ? null : "a map from tier (install, upgrade, backup, restore, custom, lint) to a reason";
                case "EXTRA_ENV", "UPGRADE_EXTRA_ENV" -> value instanceof Map<?, ?> map
                        && map.values().stream().allMatch(String.class::isInstance) ? null : "a map of env names to strings";
                case "DEPS" -> value instanceof List<?> list && list.stream().allMatch(String.class::isInstance)
                        ? null : "a list of recipe names";
                default -> null;
            };
            if (shape != null) {
                problems.add("CI key " + key + " of " + recipe + " must be " + shape + ", not " + value + ".");
            }
        }
        return problems.isEmpty() ? new Result(Optional.of(new CiKeys(raw)), List.of()) : new Result(Optional.empty(), problems);
    }

    /** Validated keys, or the problems found. */
    public record Result(Optional<CiKeys> keys, List<String> problems) {
    }

    public String healthPath() {
        return (String) values.getOrDefault("HEALTH_PATH", "/");
    }

    @SuppressWarnings("unchecked")
    public List<Integer> healthOk() {
        return (List<Integer>) values.getOrDefault("HEALTH_OK", List.of(200, 301, 302));
    }

    public int deployTimeoutSeconds() {
        return (Integer) values.getOrDefault("DEPLOY_TIMEOUT", 600);
    }

    public int httpTimeoutSeconds() {
        return (Integer) values.getOrDefault("HTTP_TIMEOUT", 300);
    }

    public Optional<String> upgradeBaseVersion() {
        return Optional.ofNullable((String) values.get("UPGRADE_BASE_VERSION"));
    }

    /** The reason a tier is intentionally not applicable to this recipe, if it is. */
    @SuppressWarnings("unchecked")
    public Optional<String> expectedNotApplicable(Tier tier) {
        return Optional.ofNullable(((Map<String, String>) values.getOrDefault("EXPECTED_NA", Map.of())).get(tier.id()));
    }

    /** The keys as given (for the results' manifest; secret-looking values are masked there). */
    public Map<String, Object> asMap() {
        return Map.copyOf(values);
    }
}
