package net.commoninternet.ccci.api;

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
                case "HEALTH_PATH", "UPGRADE_BASE_VERSION", "SCREENSHOT" ->
                        value instanceof String ? null : "a string";
                case "WARM_CANONICAL" -> value instanceof Boolean
                        || value instanceof String s && WARM_DOMAIN.matcher(s).matches()
                        ? null : "true, false, or the domain of the recipe's warm app (warm-<name>.ci.commoninternet.net)";
                case "READY_PROBE" -> value instanceof String s
                        && Probe.parse(s).filter(p -> p.kind() != Probe.Kind.EXEC).isPresent()
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
            if (shape != null) {
                problems.add("CI key " + key + " of " + recipe + " must be " + shape + ", not " + value + ".");
            } else if (key.equals("DEPS") && new java.util.HashSet<>((List<?>) value).size() != ((List<?>) value).size()) {
                problems.add("CI key DEPS of " + recipe + " names a dependency twice: " + value + "; list each recipe once.");
            } else if (key.equals("DEPS") && ((List<?>) value).contains(recipe)) {
                problems.add("CI key DEPS of " + recipe + " names the recipe itself: list the recipes its app needs.");
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

    /** Keys accepted and recorded, but not acted on by this ccci (a run warns about each one it sees). */
    public static final Set<String> NOT_ACTED_ON = Set.of("SCREENSHOT");

    /** Warm apps are long-lived and never a run's: their domains start with {@code warm-}. */
    private static final java.util.regex.Pattern WARM_DOMAIN =
            java.util.regex.Pattern.compile("warm-[a-z0-9-]{1,50}\\.ci\\.commoninternet\\.net");

    /**
     * {@code WARM_CANONICAL}, read for this recipe as somebody's dependency: the domain of its
     * long-lived warm app, which a run depending on it uses instead of deploying it cold
     * ({@code true} means {@code warm-<recipe>.ci.commoninternet.net}).
     */
    public Optional<String> warmCanonical(String recipe) {
        Object value = values.get("WARM_CANONICAL");
        if (Boolean.TRUE.equals(value)) {
            return Optional.of("warm-" + recipe + ".ci.commoninternet.net");
        }
        return value instanceof String s ? Optional.of(s) : Optional.empty();
    }

    /** {@link #NOT_ACTED_ON} keys this recipe sets, sorted. */
    public List<String> notActedOn() {
        return values.keySet().stream().filter(NOT_ACTED_ON::contains).sorted().toList();
    }

    /** {@code EXTRA_ENV}: env values set in the app's env file before its deploy. */
    @SuppressWarnings("unchecked")
    public Map<String, String> extraEnv() {
        return (Map<String, String>) values.getOrDefault("EXTRA_ENV", Map.of());
    }

    /** {@code UPGRADE_EXTRA_ENV}: env values set before the upgrade's in-place redeploy. */
    @SuppressWarnings("unchecked")
    public Map<String, String> upgradeExtraEnv() {
        return (Map<String, String>) values.getOrDefault("UPGRADE_EXTRA_ENV", Map.of());
    }

    /** {@code READY_PROBE}: what must answer before the tiers start, beyond convergence. */
    public Optional<Probe> readyProbe() {
        return Optional.ofNullable((String) values.get("READY_PROBE")).flatMap(Probe::parse);
    }

    /** {@code BACKUP_VERIFY}: a probe run after the backup, up to 3 times until it passes. */
    public Optional<Probe> backupVerify() {
        return Optional.ofNullable((String) values.get("BACKUP_VERIFY")).flatMap(Probe::parse);
    }

    /** {@code BACKUP_CAPABLE}: overrides what the compose's backupbot labels say, when set. */
    public Optional<Boolean> backupCapable() {
        return Optional.ofNullable((Boolean) values.get("BACKUP_CAPABLE"));
    }

    /**
     * {@code DEPS}: recipes whose apps this recipe's app needs, deployed cold by the run before
     * it (each a deploy in the deploy count) and torn down after it.
     */
    @SuppressWarnings("unchecked")
    public List<String> deps() {
        return (List<String>) values.getOrDefault("DEPS", List.of());
    }

    /**
     * A probe of the live app, as {@code READY_PROBE} and {@code BACKUP_VERIFY} write it:
     * {@code http:<path>}, {@code tcp:<port>[:<stable connects>]} or {@code exec:<service>:<command>}.
     */
    public record Probe(Kind kind, String path, int port, int stableConnects, String service, String command) {

        public enum Kind { HTTP, TCP, EXEC }

        private static final java.util.regex.Pattern HTTP = java.util.regex.Pattern.compile("http:(/\\S*)");
        private static final java.util.regex.Pattern TCP = java.util.regex.Pattern.compile("tcp:(\\d{1,5})(?::(\\d{1,3}))?");
        private static final java.util.regex.Pattern EXEC = java.util.regex.Pattern.compile("exec:([A-Za-z0-9_.-]+):(.+)", java.util.regex.Pattern.DOTALL);

        public static Optional<Probe> parse(String text) {
            java.util.regex.Matcher m = HTTP.matcher(text.strip());
            if (m.matches()) {
                return Optional.of(new Probe(Kind.HTTP, m.group(1), 0, 0, null, null));
            }
            m = TCP.matcher(text.strip());
            if (m.matches()) {
                int port = Integer.parseInt(m.group(1));
                int stable = m.group(2) == null ? 3 : Integer.parseInt(m.group(2));
                return port >= 1 && port <= 65535 && stable >= 1
                        ? Optional.of(new Probe(Kind.TCP, null, port, stable, null, null)) : Optional.empty();
            }
            m = EXEC.matcher(text.strip());
            if (m.matches() && !m.group(2).isBlank()) {
                return Optional.of(new Probe(Kind.EXEC, null, 0, 0, m.group(1), m.group(2).strip()));
            }
            return Optional.empty();
        }

        @Override
        public String toString() {
            return switch (kind) {
                case HTTP -> "http:" + path;
                case TCP -> "tcp:" + port + ":" + stableConnects;
                case EXEC -> "exec:" + service + ":" + command;
            };
        }
    }

    /** The keys as given (for the results' manifest; secret-looking values are masked there). */
    public Map<String, Object> asMap() {
        return Map.copyOf(values);
    }
}
