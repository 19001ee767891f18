package net.commoninternet.ccci.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A recipe's declarative CI keys, validated: every key is one of {@link #KNOWN} with a value of
 * the right shape. Defaults: {@code HEALTH_PATH} "/", {@code HEALTH_OK} 200, 301, 302,
 * {@code DEPLOY_TIMEOUT} 600 s, {@code HTTP_TIMEOUT} 300 s.
 */
@API(status = API.Status.EXPERIMENTAL)
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
     * Keys already validated by the engine at discovery (every key known, every value of its
     * shape): not for recipe code, which declares its keys in {@link RecipeCustomization#keys()}.
     */
    @API(status = API.Status.INTERNAL)
    public static CiKeys validated(Map<String, Object> values) {
        return new CiKeys(values);
    }

    public String healthPath() {
        return (String) values.getOrDefault("HEALTH_PATH", "/");
    }

    /**
     * {@code SCREENSHOT}: the page whose picture the run takes after the install and after the
     * upgrade, as a browser renders it; a recipe without the key gets one of its health path.
     */
    public String screenshotPath() {
        return (String) values.getOrDefault("SCREENSHOT", healthPath());
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
    public static final Set<String> NOT_ACTED_ON = Set.of();


    /**
     * {@code WARM_CANONICAL}, read for this recipe as somebody's dependency: the domain of its
     * long-lived warm app, which a run depending on it uses instead of deploying it cold. {@code true}
     * means {@code warm-<recipe>.<domainSuffix>}, the warm app of the host's namespace (its run apps'
     * suffix, {@code ccci.domain-suffix}: {@code ci.commoninternet.net} unless set).
     */
    public Optional<String> warmCanonical(String recipe, String domainSuffix) {
        Object value = values.get("WARM_CANONICAL");
        if (Boolean.TRUE.equals(value)) {
            return Optional.of("warm-" + recipe + "." + domainSuffix);
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

    private static final Pattern PROBE_HTTP = Pattern.compile("http:(/\\S*)");
    private static final Pattern PROBE_TCP =
            Pattern.compile("tcp:(\\d{1,5})(?::(\\d{1,3}))?");
    private static final Pattern PROBE_EXEC =
            Pattern.compile("exec:([A-Za-z0-9_.-]+):(.+)", Pattern.DOTALL);

    /**
     * A probe of the live app, as {@code READY_PROBE} and {@code BACKUP_VERIFY} write it:
     * {@code http:<path>}, {@code tcp:<port>[:<stable connects>]} or {@code exec:<service>:<command>}.
     */
    public sealed interface Probe permits Probe.Http, Probe.Tcp, Probe.Exec {

        enum Kind { HTTP, TCP, EXEC }

        default Kind kind() {
            return this instanceof Http ? Kind.HTTP : this instanceof Tcp ? Kind.TCP : Kind.EXEC;
        }

        /** A GET of {@code path} that must answer a {@code HEALTH_OK} status. */
        record Http(String path) implements Probe {
            @Override
            public String toString() {
                return "http:" + path;
            }
        }

        /** {@code stableConnects} TCP connects in a row to the routed service on {@code port}. */
        record Tcp(int port, int stableConnects) implements Probe {
            @Override
            public String toString() {
                return "tcp:" + port + ":" + stableConnects;
            }
        }

        /** {@code sh -c command} in a running container of {@code service}, which must exit 0. */
        record Exec(String service, String command) implements Probe {
            @Override
            public String toString() {
                return "exec:" + service + ":" + command;
            }
        }

        static Optional<Probe> parse(String text) {
            Matcher m = PROBE_HTTP.matcher(text.strip());
            if (m.matches()) {
                return Optional.of(new Http(m.group(1)));
            }
            m = PROBE_TCP.matcher(text.strip());
            if (m.matches()) {
                int port = Integer.parseInt(m.group(1));
                int stable = m.group(2) == null ? 3 : Integer.parseInt(m.group(2));
                return port >= 1 && port <= 65535 && stable >= 1 ? Optional.of(new Tcp(port, stable)) : Optional.empty();
            }
            m = PROBE_EXEC.matcher(text.strip());
            if (m.matches() && !m.group(2).isBlank()) {
                return Optional.of(new Exec(m.group(1), m.group(2).strip()));
            }
            return Optional.empty();
        }
    }

    /** The keys as given (for the results' manifest; secret-looking values are masked there). */
    public Map<String, Object> asMap() {
        return Map.copyOf(values);
    }
}
