package net.commoninternet.ccci.engine.discovery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.CiKeys.Probe;
import net.commoninternet.ccci.api.Tier;

/**
 * Validates a customization's declarative keys at discovery: every key is one of
 * {@link CiKeys#KNOWN}, with a value of the right shape. Every problem is one sentence naming the fix.
 */
final class CiKeysParser {

    /** Warm apps are long-lived and never a run's: their domains start with {@code warm-}. */
    private static final Pattern WARM_DOMAIN = Pattern.compile("warm-[a-z0-9-]{1,50}\\.ci\\.commoninternet\\.net");

    /** Validated keys, or the problems found. */
    record Result(Optional<CiKeys> keys, List<String> problems) {
    }

    private CiKeysParser() {
    }

    /**
     * Validates {@code raw}; returns the keys, or the problems. {@code suggest} turns an unknown key
     * into a " Did you mean ...?" (or "").
     */
    static Result parse(String recipe, Map<String, Object> raw, UnaryOperator<String> suggest) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (!CiKeys.KNOWN.contains(key)) {
                problems.add("unknown CI key '" + key + "' in the customization of " + recipe + ": valid keys are "
                        + String.join(", ", new TreeSet<>(CiKeys.KNOWN)) + "." + suggest.apply(key));
                continue;
            }
            String shape = shape(key, value);
            if (shape != null) {
                problems.add("CI key " + key + " of " + recipe + " must be " + shape + ", not " + value + ".");
            } else if (key.equals("DEPS") && new HashSet<>((List<?>) value).size() != ((List<?>) value).size()) {
                problems.add("CI key DEPS of " + recipe + " names a dependency twice: " + value + "; list each recipe once.");
            } else if (key.equals("DEPS") && ((List<?>) value).contains(recipe)) {
                problems.add("CI key DEPS of " + recipe + " names the recipe itself: list the recipes its app needs.");
            }
        }
        return problems.isEmpty() ? new Result(Optional.of(CiKeys.validated(raw)), List.of())
                : new Result(Optional.empty(), problems);
    }

    /** What the value of {@code key} must be, if {@code value} is not that; null if it is. */
    private static String shape(String key, Object value) {
        return switch (key) {
            case "HEALTH_PATH", "UPGRADE_BASE_VERSION", "SCREENSHOT" -> value instanceof String ? null : "a string";
            case "WARM_CANONICAL" -> value instanceof Boolean || value instanceof String s && WARM_DOMAIN.matcher(s).matches()
                    ? null : "true, false, or the domain of the recipe's warm app (warm-<name>.ci.commoninternet.net)";
            case "READY_PROBE" -> value instanceof String s && Probe.parse(s).filter(p -> p.kind() != Probe.Kind.EXEC).isPresent()
                    ? null : "an HTTP or TCP probe: http:<path> (answers a HEALTH_OK status) or tcp:<port>[:<N>]"
                            + " (N stable connects in a row, default 3)";
            case "BACKUP_VERIFY" -> value instanceof String s && Probe.parse(s).isPresent()
                    ? null : "a probe: http:<path>, tcp:<port>[:<N>] or exec:<service>:<shell command> (exit 0)";
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
    }
}
