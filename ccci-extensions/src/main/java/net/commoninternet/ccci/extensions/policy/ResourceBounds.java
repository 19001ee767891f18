package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;
import org.apiguardian.api.API;

/**
 * What one recipe's services may take of the host, so that one run cannot starve the others beside
 * it: a replica count, memory and process count above a bound are refused by the deploy policy, and
 * a service that sets no memory or pids limit gets ccci's defaults, overlaid on the compose the
 * run deploys ({@link #withDefaults}; the abra driver gets them as an overlay file,
 * {@link #overlay}). CPU is not limited: a service's CPU use slows the host's other runs but
 * cannot take their memory or processes, and a CPU limit would slow every recipe's start on a
 * two-core host.
 */
@API(status = API.Status.INTERNAL)
public final class ResourceBounds {

    /** More replicas than this is refused: a recipe CI run needs its app, not a fleet. */
    static final int MAX_REPLICAS = 4;
    static final long MAX_MEMORY = 8L << 30;
    static final long MAX_PIDS = 4096;
    static final double MAX_RESERVED_CPUS = 2;
    /** A service without a memory limit gets this one. */
    static final long DEFAULT_MEMORY = 1L << 30;
    /** A service without a pids limit gets this one (the compose version that carries pids is 3.9). */
    static final long DEFAULT_PIDS = 1024;
    static final String PIDS_VERSION = "3.9";

    private ResourceBounds() {
    }

    static final Rule REPLICAS = bounded(MAX_REPLICAS, "replicas", "a recipe's CI run deploys its app, not a fleet;"
            + " set at most " + MAX_REPLICAS + " replicas");
    static final Rule MEMORY = bounded(MAX_MEMORY, "bytes of memory", "set at most " + (MAX_MEMORY >> 30) + " GiB");
    static final Rule PIDS = bounded(MAX_PIDS, "processes", "set at most " + MAX_PIDS);
    static final Rule RESERVED_CPUS = (judging, at, value) -> {
        double cpus = value.isNumber() ? value.asDouble() : parse(value.asText());
        if (!(cpus >= 0 && cpus <= MAX_RESERVED_CPUS)) {
            judging.refuse(at, ComposeRules.shown(value), "reserves", "takes more of the host than a run's share ("
                    + MAX_RESERVED_CPUS + " CPUs), so other runs cannot be scheduled beside it", "reserve at most "
                    + MAX_RESERVED_CPUS + " CPUs.");
        }
    };

    private static Rule bounded(long max, String unit, String fix) {
        return (judging, at, value) -> {
            long n = value.isIntegralNumber() ? value.asLong() : (long) parse(value.asText());
            if (n < 0 || n > max) {
                judging.refuse(at, ComposeRules.shown(value), "asks for", "takes more of the host than one run's share ("
                        + max + " " + unit + " at most), starving the runs beside it", fix + ".");
            }
        };
    }

    private static double parse(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether a compose of {@code version} (as the CLI prints it) can carry {@code pids}: 3.9 and later. */
    static boolean carriesPids(String version) {
        return version.matches("3\\.(9|\\d\\d+)");
    }

    /** Per service without them, the limits ccci adds: {@code memory} and {@code pids}, as the CLI prints them. */
    static Map<String, Map<String, Object>> missing(JsonNode tree) {
        return missing(tree, true);
    }

    private static Map<String, Map<String, Object>> missing(JsonNode tree, boolean pids) {
        Map<String, Map<String, Object>> missing = new LinkedHashMap<>();
        tree.path("services").fields().forEachRemaining(service -> {
            JsonNode limits = service.getValue().path("deploy").path("resources").path("limits");
            Map<String, Object> add = new LinkedHashMap<>();
            if (limits.path("memory").isMissingNode()) {
                add.put("memory", Long.toString(DEFAULT_MEMORY));
            }
            if (pids && limits.path("pids").isMissingNode()) {
                add.put("pids", DEFAULT_PIDS);
            }
            if (!add.isEmpty()) {
                missing.put(service.getKey(), add);
            }
        });
        return missing;
    }

    /** {@code tree} (a copy) with ccci's default limits on every service that sets none of its own. */
    static JsonNode withDefaults(JsonNode tree) {
        ObjectNode copy = tree.deepCopy();
        missing(tree).forEach((service, limits) ->
                put(((ObjectNode) copy.path("services").path(service)).withObject("/deploy/resources/limits"), limits));
        return copy;
    }

    /**
     * The defaults as a compose overlay (for a driver that deploys the recipe's files itself), or null
     * if none is missing. The CLI wants every file of one compose at one version, so the overlay takes
     * the recipe's; below 3.9 it carries no {@code pids} (that schema has none), memory alone.
     */
    public static JsonNode overlay(JsonNode tree) {
        String version = tree.path("version").asText(PIDS_VERSION);
        Map<String, Map<String, Object>> missing = missing(tree, carriesPids(version));
        if (missing.isEmpty()) {
            return null;
        }
        ObjectNode overlay = JsonNodeFactory.instance.objectNode();
        overlay.put("version", version);
        ObjectNode services = overlay.putObject("services");
        missing.forEach((service, limits) -> put(services.putObject(service).withObject("/deploy/resources/limits"), limits));
        return overlay;
    }

    private static void put(ObjectNode limits, Map<String, Object> values) {
        values.forEach((key, value) -> {
            if (value instanceof Long n) {
                limits.put(key, n);
            } else {
                limits.put(key, value.toString());
            }
        });
    }

    /** For the log: which services got which defaults. */
    static String describe(Map<String, Map<String, Object>> missing) {
        StringBuilder text = new StringBuilder();
        missing.forEach((service, limits) -> text.append(text.length() == 0 ? "" : ", ").append(service).append(" (")
                .append(limits.containsKey("memory") ? "memory " + (DEFAULT_MEMORY >> 20) + " MiB" : "")
                .append(limits.size() == 2 ? ", " : "").append(limits.containsKey("pids") ? "pids " + DEFAULT_PIDS : "")
                .append(')'));
        return text.toString();
    }
}
