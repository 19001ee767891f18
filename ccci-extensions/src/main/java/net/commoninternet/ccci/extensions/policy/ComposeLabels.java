package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;

/**
 * A recipe's labels, judged by prefix: a label is read by some tool acting on the swarm (traefik
 * routes by them, backupbot backs up by them, abra and ccci read the recipe's version and timeout,
 * the engine and ccci itself find a stack's objects by theirs), and a tool on a real server may act
 * on a label ccci has never heard of (label-driven schedulers run commands from labels). So only
 * the prefixes ccci knows pass, each with the values it accepts:
 * <ul>
 *   <li>{@code traefik.}: routers, services and middlewares of the run's own name, routing only the
 *       run's own domain ({@link TraefikLabels});
 *   <li>{@code backupbot.}: the keys {@code swarm.BackupLabels} reads;
 *   <li>{@code coop-cloud.<stack>.}: the recipe's own metadata, for its own stack only.
 * </ul>
 * Refused: {@code com.docker.} (the engine's: a service labelled with another stack's namespace is
 * that stack's to a teardown) and {@code net.commoninternet.ccci.} (ccci's own: its anchor, its
 * engine and node labels), and every other prefix.
 */
final class ComposeLabels {

    private static final Set<String> BACKUPBOT_FLAGS = Set.of("backupbot.backup", "backupbot.restore");
    private static final Set<String> BACKUPBOT_HOOKS = Set.of("backupbot.backup.pre-hook", "backupbot.backup.post-hook",
            "backupbot.restore.pre-hook", "backupbot.restore.post-hook");

    private ComposeLabels() {
    }

    /** The rule for any {@code labels} key of the compose (a service's, its deploy's, an object's). */
    static final Rule RULE = (judging, at, labels) -> {
        for (Map.Entry<String, String> label : asMap(labels).entrySet()) {
            why(judging, label.getKey(), label.getValue()).ifPresent(why -> judging.refuse(at,
                    label.getKey() + "=" + label.getValue(), "has the label", why[0], why[1]));
        }
    };

    /** Labels as the CLI prints them (a mapping), or a list of {@code key=value}. */
    static Map<String, String> asMap(JsonNode labels) {
        Map<String, String> map = new LinkedHashMap<>();
        if (labels.isObject()) {
            labels.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        } else if (labels.isArray()) {
            labels.forEach(l -> {
                String text = l.asText();
                int eq = text.indexOf('=');
                map.put(eq < 0 ? text : text.substring(0, eq), eq < 0 ? "" : text.substring(eq + 1));
            });
        }
        return map;
    }

    /** Why a label is refused and the fix, or empty if ccci knows it to be safe. */
    private static Optional<String[]> why(ComposeJudging judging, String key, String value) {
        if (key.startsWith("traefik.")) {
            return TraefikLabels.why(judging, key, value);
        }
        if (key.startsWith("backupbot.")) {
            boolean known = BACKUPBOT_FLAGS.contains(key) && Set.of("true", "false").contains(value)
                    || BACKUPBOT_HOOKS.contains(key) || key.equals("backupbot.backup.path")
                    || key.matches("backupbot\\.backup\\.volumes\\.[^.]+(\\.path)?");
            return known ? Optional.empty() : Optional.of(new String[] {"is no backupbot label ccci knows (backupbot.backup,"
                    + " .path, .volumes.<volume>[.path], the backup's and the restore's pre-hook and post-hook)",
                    "drop it, or fix its name or value."});
        }
        if (key.startsWith("coop-cloud.")) {
            return key.startsWith("coop-cloud." + judging.stack + ".") ? Optional.empty() : Optional.of(new String[] {
                "speaks for another stack than the run's own (" + judging.stack + ")",
                "name it coop-cloud.${STACK_NAME}.<name>."});
        }
        if (key.startsWith("com.docker.") || key.startsWith("net.commoninternet.ccci.")) {
            return Optional.of(new String[] {"is in the engine's or ccci's own namespace, where it can make a teardown, a"
                    + " janitor or a probe take this service for another stack's or for ccci's own", "drop it."});
        }
        return Optional.of(new String[] {"has a prefix no tool ccci knows reads (traefik., backupbot., coop-cloud.<stack>.),"
                + " and a tool on a real server may act on it", "drop it."});
    }
}
