package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;
import net.commoninternet.ccci.lifecycle.RunBudget;
import org.apiguardian.api.API;

/**
 * What one recipe's services may take of the host, so that one run cannot starve the others beside
 * it: a replica count, memory and process count above a bound are refused by the deploy policy (per
 * service; their sum over the run is {@link RunShare}'s), and a service that sets no memory or pids
 * limit gets ccci's defaults, an unsized tmpfs a size and every service the host's log rotation
 * ({@link LogBounds}), overlaid on the compose the run deploys ({@link #withDefaults}; the abra
 * driver gets them as an overlay file, {@link #overlay}). CPU use is not limited (its reservations
 * are summed): it slows the host's other runs but cannot take their memory or processes, and a CPU
 * limit would slow every recipe's start on a two-core host.
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

    /**
     * What ccci gives the services of one judged compose ({@link RunShare#judge}): a memory and a pids
     * limit to each service that sets none (or 0, which the engine reads as none), by service; every
     * unsized tmpfs {@code tmpfs} bytes; every service the host's log rotation.
     */
    record Defaults(Map<String, Long> memory, Map<String, Long> pids, long tmpfs, RunBudget.Logs logs) {
        Defaults {
            memory = Map.copyOf(memory);
            pids = Map.copyOf(pids);
        }
    }

    /** Per service that gets them, the limits ccci adds: {@code memory} and {@code pids}, as the CLI prints them. */
    static Map<String, Map<String, Object>> missing(JsonNode tree, Defaults defaults) {
        return missing(tree, defaults, true);
    }

    private static Map<String, Map<String, Object>> missing(JsonNode tree, Defaults defaults, boolean pids) {
        Map<String, Map<String, Object>> missing = new LinkedHashMap<>();
        tree.path("services").fieldNames().forEachRemaining(service -> {
            Map<String, Object> add = new LinkedHashMap<>();
            if (defaults.memory().containsKey(service)) {
                add.put("memory", Long.toString(defaults.memory().get(service)));
            }
            if (pids && defaults.pids().containsKey(service)) {
                add.put("pids", defaults.pids().get(service));
            }
            if (!add.isEmpty()) {
                missing.put(service, add);
            }
        });
        return missing;
    }

    /**
     * {@code tree} (a copy) with what ccci gives each service: its default limits where it sets none,
     * a size on every unsized tmpfs, the host's log rotation. {@code lowered} gets what of the
     * recipe's own was lowered to the host's bound.
     */
    static JsonNode withDefaults(JsonNode tree, Defaults defaults, List<String> lowered) {
        ObjectNode copy = tree.deepCopy();
        missing(tree, defaults).forEach((service, limits) ->
                put(((ObjectNode) copy.path("services").path(service)).withObject("/deploy/resources/limits"), limits));
        copy.path("services").fields().forEachRemaining(service -> {
            ObjectNode spec = (ObjectNode) service.getValue();
            sizeTmpfs(spec, defaults.tmpfs());
            LogBounds.bound(spec, defaults.logs()).forEach(what -> lowered.add(service.getKey() + ": logging " + what));
        });
        return copy;
    }

    /** Every tmpfs of {@code service} without a size in bytes gets {@code size}: what the budget counted it at. */
    private static void sizeTmpfs(ObjectNode service, long size) {
        JsonNode tmpfs = service.path("tmpfs");
        if (!tmpfs.isMissingNode()) {
            ArrayNode sized = service.putArray("tmpfs");
            for (String entry : RunShare.shortTmpfs(tmpfs)) {
                sized.add(RunShare.shortSize(entry) > 0 ? entry : sized(entry, size));
            }
        }
        for (JsonNode mount : service.path("volumes")) {
            if (mount.path("type").asText("").equals("tmpfs")
                    && RunBudget.bytes(mount.path("tmpfs").path("size").asText("0")) <= 0) {
                ((ObjectNode) mount).withObject("/tmpfs").put("size", size);
            }
        }
    }

    /** One short-syntax tmpfs entry ({@code /run}, {@code /run:mode=1777}, {@code /run:size=50%}) with {@code size=}. */
    private static String sized(String entry, long size) {
        int colon = entry.indexOf(':');
        if (colon < 0) {
            return entry + ":size=" + size;
        }
        List<String> options = new ArrayList<>();
        for (String option : entry.substring(colon + 1).split(",")) {
            if (!option.isBlank() && !option.strip().startsWith("size=")) {
                options.add(option.strip());
            }
        }
        options.add("size=" + size);
        return entry.substring(0, colon) + ":" + String.join(",", options);
    }

    /**
     * The defaults as a compose overlay (for a driver that deploys the recipe's files itself), or null
     * if nothing is to be added. The CLI wants every file of one compose at one version, so the overlay
     * takes the recipe's; below 3.9 it carries no {@code pids} (that schema has none), below 3.6 no
     * tmpfs size. Every service gets its logging (whole: the CLI's merge replaces a service's logging
     * when the drivers differ); a tmpfs mount that gets a size is repeated whole (the CLI merges mounts
     * by target).
     */
    public static JsonNode overlay(JsonNode tree, Defaults defaults) {
        String version = tree.path("version").asText(PIDS_VERSION);
        Map<String, Map<String, Object>> missing = missing(tree, defaults, carriesPids(version));
        ObjectNode overlay = JsonNodeFactory.instance.objectNode();
        overlay.put("version", version);
        ObjectNode services = overlay.putObject("services");
        JsonNode bounded = withDefaults(tree, defaults, new ArrayList<>());
        tree.path("services").fieldNames().forEachRemaining(service -> {
            ObjectNode add = services.putObject(service);
            add.set("logging", bounded.path("services").path(service).path("logging"));
            if (missing.containsKey(service)) {
                put(add.withObject("/deploy/resources/limits"), missing.get(service));
            }
            if (version.matches("3\\.([6-9]|\\d\\d+)")) {
                ArrayNode mounts = JsonNodeFactory.instance.arrayNode();
                JsonNode before = tree.path("services").path(service).path("volumes");
                JsonNode after = bounded.path("services").path(service).path("volumes");
                for (int i = 0; i < after.size(); i++) {
                    if (!after.get(i).equals(before.get(i))) {
                        mounts.add(after.get(i));
                    }
                }
                if (!mounts.isEmpty()) {
                    add.set("volumes", mounts);
                }
            }
        });
        return services.isEmpty() ? null : overlay;
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

    /** For the log: which services got which limits. */
    static String describe(Map<String, Map<String, Object>> missing) {
        StringBuilder text = new StringBuilder();
        missing.forEach((service, limits) -> text.append(text.length() == 0 ? "" : ", ").append(service).append(" (")
                .append(limits.containsKey("memory") ? "memory " + RunBudget.shown(Long.parseLong((String) limits.get("memory"))) : "")
                .append(limits.size() == 2 ? ", " : "").append(limits.containsKey("pids") ? "pids " + limits.get("pids") : "")
                .append(')'));
        return text.toString();
    }
}
