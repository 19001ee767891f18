package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import net.commoninternet.ccci.lifecycle.RunBudget;

/**
 * One run's share of the host, judged on the resolved compose before anything of the app exists:
 * the per-service bounds ({@link ResourceBounds}) let N services take N shares, so the sum over the
 * run's services must fit the host's {@link RunBudget.Limits}: memory (each replica's limit plus its
 * tmpfs sizes, since a tmpfs is memory), processes, reserved CPUs and tasks, a replica counted as
 * many times as it runs (a global service once per node of the swarm). Whatever ccci adds to a
 * service is counted as what it adds: a service without a memory or pids limit is given ccci's
 * default, or an equal share of what the services with limits leave if that is less (so a recipe of
 * many small services is not refused for defaults it never asked for); an unsized tmpfs is given
 * {@link #DEFAULT_TMPFS}. The swarm driver deploys those same values ({@link ResourceBounds#withDefaults}).
 *
 * <p>A run over its share is refused in one sentence naming, for each part of the budget it exceeds,
 * every service's contribution and the budget.
 */
final class RunShare {

    /** An unsized tmpfs (of any form) is given this size, and counted at it. */
    static final long DEFAULT_TMPFS = 256L << 20;
    /** Below this, a service without a memory limit could not start: the run is over its share. */
    static final long MIN_MEMORY = 64L << 20;
    /** Below this, a service without a pids limit could not start: the run is over its share. */
    static final long MIN_PIDS = 64;

    /** How many nodes a global service runs on: every node of the swarm that is not drained. */
    @FunctionalInterface
    interface Nodes {
        int count() throws IOException, InterruptedException;
    }

    /** What one service takes: {@code each} of its replicas, {@code instances} of them ({@code global}: one per node). */
    record Part(String service, int instances, boolean global, PerReplica each) {
        Long memory() {
            return each.memory();
        }

        long tmpfs() {
            return each.tmpfs();
        }

        Long pids() {
            return each.pids();
        }

        double cpus() {
            return each.cpus();
        }
    }

    /** What one replica asks for: its memory and pids limits (null: none, ccci gives one), its tmpfs bytes, its reserved CPUs. */
    record PerReplica(Long memory, long tmpfs, Long pids, double cpus) {
    }

    /** A limit ccci gives a service that sets none: at most {@code fallback}, at least {@code floor} or the run is over. */
    private enum Given {
        MEMORY(ResourceBounds.DEFAULT_MEMORY, MIN_MEMORY) {
            @Override
            Long own(Part part) {
                return part.memory();
            }

            @Override
            long besides(Part part) {
                return part.tmpfs();
            }
        },
        PIDS(ResourceBounds.DEFAULT_PIDS, MIN_PIDS) {
            @Override
            Long own(Part part) {
                return part.pids();
            }
        };

        final long fallback;
        final long floor;

        Given(long fallback, long floor) {
            this.fallback = fallback;
            this.floor = floor;
        }

        /** The service's own limit per replica, null if it sets none. */
        abstract Long own(Part part);

        /** What else each replica takes of the same budget (a tmpfs is memory). */
        long besides(Part part) {
            return 0;
        }

        /**
         * What each replica of a service without its own limit is given: {@link #fallback}, or an equal
         * share of what the others' limits (and what they take besides) leave of {@code budget} if that
         * is less, in whole MiB for memory; -1 if that is below {@link #floor}, or nothing is left.
         */
        long given(List<Part> parts, long budget) {
            long fixed = 0;
            long without = 0;
            for (Part part : parts) {
                Long value = own(part);
                fixed += part.instances() * ((value == null ? 0 : value) + besides(part));
                without += value == null ? part.instances() : 0;
            }
            long left = budget - fixed;
            if (without == 0) {
                return left < 0 ? -1 : fallback;
            }
            long each = left / without;
            if (this == MEMORY) {
                each = each >> 20 << 20;
            }
            return each < floor ? -1 : Math.min(fallback, each);
        }
    }

    private RunShare() {
    }

    /** Every service of {@code tree} as the budget counts it; {@code nodes} asked only if a service is global. */
    static List<Part> parts(JsonNode tree, Nodes nodes) throws IOException, InterruptedException {
        List<Part> parts = new ArrayList<>();
        Integer nodeCount = null;
        for (var service : (Iterable<Map.Entry<String, JsonNode>>) tree.path("services")::fields) {
            JsonNode spec = service.getValue();
            JsonNode deploy = spec.path("deploy");
            boolean global = deploy.path("mode").asText("replicated").equals("global");
            if (global && nodeCount == null) {
                nodeCount = nodes.count();
            }
            int instances = global ? nodeCount : deploy.path("replicas").asInt(1);
            JsonNode limits = deploy.path("resources").path("limits");
            // a limit of 0 (or less) is none to the engine: ccci gives its default there too
            long memoryLimit = limits.path("memory").isMissingNode() ? 0 : RunBudget.bytes(limits.path("memory").asText());
            long pidsLimit = limits.path("pids").asLong(0);
            Long memory = memoryLimit > 0 ? memoryLimit : null;
            Long pids = pidsLimit > 0 ? pidsLimit : null;
            double cpus = deploy.path("resources").path("reservations").path("cpus").asDouble(0);
            parts.add(new Part(service.getKey(), instances, global, new PerReplica(memory, tmpfs(spec), pids, cpus)));
        }
        return parts;
    }

    /**
     * A service's tmpfs bytes per replica, in every form the compose has: the service's {@code tmpfs}
     * (one path or a list, {@code /run:size=64m,mode=1777}) and its {@code type: tmpfs} mounts
     * ({@code tmpfs.size}); one without a size (or with one that is not bytes, {@code size=50%}) at
     * {@link #DEFAULT_TMPFS}, which ccci gives it.
     */
    static long tmpfs(JsonNode service) {
        long sum = 0;
        for (String entry : shortTmpfs(service.path("tmpfs"))) {
            long size = shortSize(entry);
            sum += size > 0 ? size : DEFAULT_TMPFS;
        }
        for (JsonNode mount : service.path("volumes")) {
            if (mount.path("type").asText("").equals("tmpfs")) {
                long size = mount.path("tmpfs").path("size").isMissingNode() ? 0
                        : RunBudget.bytes(mount.path("tmpfs").path("size").asText());
                sum += size > 0 ? size : DEFAULT_TMPFS;
            }
        }
        return sum;
    }

    /** The entries of a service's {@code tmpfs}: one string or a list of them. */
    static List<String> shortTmpfs(JsonNode tmpfs) {
        List<String> entries = new ArrayList<>();
        if (tmpfs.isTextual()) {
            entries.add(tmpfs.asText());
        } else {
            tmpfs.forEach(entry -> entries.add(entry.asText()));
        }
        return entries;
    }

    /** The bytes of one {@code tmpfs} entry's {@code size=} option, or -1 if it has none in bytes ({@code size=50%}). */
    static long shortSize(String entry) {
        int colon = entry.indexOf(':');
        if (colon >= 0) {
            for (String option : entry.substring(colon + 1).split(",")) {
                if (option.strip().startsWith("size=")) {
                    long size = RunBudget.bytes(option.strip().substring("size=".length()));
                    return size > 0 ? size : -1;
                }
            }
        }
        return -1;
    }

    /**
     * The limits ccci gives the services that set none, if the run fits its share with them; else
     * one sentence naming every service's part of each exceeded budget, and the fix.
     */
    static ResourceBounds.Defaults judge(String recipe, List<Part> parts, RunBudget budget) {
        RunBudget.Limits share = budget.limits();
        long memory = Given.MEMORY.given(parts, share.memory());
        long pids = Given.PIDS.given(parts, share.pids());
        List<String> over = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        long memorySum = 0;
        long pidsSum = 0;
        double cpusSum = 0;
        long tasks = 0;
        for (Part part : parts) {
            memorySum += part.instances() * (valueOr(part.memory(), Math.max(memory, MIN_MEMORY)) + part.tmpfs());
            pidsSum += part.instances() * valueOr(part.pids(), Math.max(pids, MIN_PIDS));
            cpusSum += part.instances() * part.cpus();
            tasks += part.instances();
        }
        if (memory < MIN_MEMORY) {
            over.add("memory " + RunBudget.shown(memorySum) + " of " + RunBudget.shown(share.memory()) + " ("
                    + each(parts, p -> memoryOf(p, Math.max(memory, MIN_MEMORY))) + ")");
            keys.add("memory");
        }
        if (pids < MIN_PIDS) {
            over.add("processes " + pidsSum + " of " + share.pids() + " (" + each(parts, p -> pidsOf(p, Math.max(pids, MIN_PIDS)))
                    + ")");
            keys.add("pids");
        }
        if (cpusSum > share.cpus() + 1e-9) {
            over.add("reserved CPUs " + number(cpusSum) + " of " + number(share.cpus()) + " (" + each(parts, p -> p.service()
                    + ": " + instances(p) + " × " + number(p.cpus()) + " = " + number(p.instances() * p.cpus())) + ")");
            keys.add("cpus");
        }
        if (tasks > share.tasks()) {
            over.add("tasks " + tasks + " of " + share.tasks() + " (" + each(parts, p -> p.service() + ": " + instances(p)) + ")");
            keys.add("tasks");
        }
        if (!over.isEmpty()) {
            StringJoiner flags = new StringJoiner(", ");
            keys.forEach(key -> flags.add("-Dccci.budget." + key));
            throw new IllegalStateException(recipe + ": its services ask for more of the host than one run's share, which"
                    + " every run beside it gets too: " + String.join("; ", over) + ". Lower the replicas, limits,"
                    + " reservations or tmpfs sizes until they fit, or ask this host's operator for a larger share ("
                    + flags + ").");
        }
        Map<String, Long> memoryGiven = new LinkedHashMap<>();
        Map<String, Long> pidsGiven = new LinkedHashMap<>();
        for (Part part : parts) {
            if (part.memory() == null) {
                memoryGiven.put(part.service(), memory);
            }
            if (part.pids() == null) {
                pidsGiven.put(part.service(), pids);
            }
        }
        return new ResourceBounds.Defaults(memoryGiven, pidsGiven, DEFAULT_TMPFS, budget.logs());
    }

    private static long valueOr(Long value, long fallback) {
        return value == null ? fallback : value;
    }

    private static String memoryOf(Part part, long given) {
        String limit = part.memory() == null ? "no limit, at least " + RunBudget.shown(given) : RunBudget.shown(part.memory());
        String per = part.tmpfs() == 0 ? limit : "(" + limit + " + tmpfs " + RunBudget.shown(part.tmpfs()) + ")";
        long total = part.instances() * (valueOr(part.memory(), given) + part.tmpfs());
        return part.service() + ": " + instances(part) + " × " + per + " = " + RunBudget.shown(total);
    }

    private static String pidsOf(Part part, long given) {
        String limit = part.pids() == null ? "no limit, at least " + given : Long.toString(part.pids());
        return part.service() + ": " + instances(part) + " × " + limit + " = " + part.instances() * valueOr(part.pids(), given);
    }

    private static String instances(Part part) {
        return part.global() ? part.instances() + " (global, one per node)" : Integer.toString(part.instances());
    }

    private static String each(List<Part> parts, java.util.function.Function<Part, String> shown) {
        StringJoiner all = new StringJoiner(", ");
        parts.forEach(part -> all.add(shown.apply(part)));
        return all.toString();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.2f", value)
                .replaceFirst("0$", "");
    }
}
