package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Rule;

/**
 * A recipe's labels, judged by what reads them. A label does nothing by itself: it reaches the host
 * only through a tool that reads it and acts on the swarm. On a ccci host those are traefik (it routes
 * by them), the engine and ccci itself (they find a stack's objects by theirs), ccci's backups (the
 * {@code backupbot.} keys {@code backup.BackupLabels} reads) and its reading of the recipe's
 * version and timeout; on a Co-op Cloud server also backupbot and swarm-cronjob. So:
 * <ul>
 *   <li>{@code traefik.}: routers, services and middlewares of the run's own name, routing only the
 *       run's own domain ({@link TraefikLabels});
 *   <li>{@code backupbot.}: the keys ccci reads, with the values it reads (a backup path never
 *       climbing out, {@link DeployPolicy#backupPaths});
 *   <li>{@code coop-cloud.<stack>.}: the recipe's own metadata, for its own stack only;
 *   <li>{@code swarm.cronjob.}: swarm-cronjob scales the labelled service itself, on a schedule, to
 *       at most the run's replicas bound;
 *   <li>refused: {@code com.docker.} (the engine's: a service labelled with another stack's namespace
 *       is that stack's to a teardown), {@code net.commoninternet.ccci.} (ccci's own: its anchor, its
 *       engine and node labels), and the label-driven tools known to route a host or run commands
 *       beyond the labelled service ({@link #ACTING});
 *   <li>every other label (an unknown {@code backupbot.} key, a {@code coop-cloud.${STACK_NAME}.} key
 *       compose never interpolates, a label of a tool nobody runs here) is read by nothing on the
 *       host: a lint finding, never a refusal.
 * </ul>
 */
final class ComposeLabels {

    private static final Set<String> BACKUPBOT_FLAGS = Set.of("backupbot.backup", "backupbot.restore");
    private static final Set<String> BACKUPBOT_HOOKS = Set.of("backupbot.backup.pre-hook", "backupbot.backup.post-hook",
            "backupbot.restore.pre-hook", "backupbot.restore.post-hook");
    private static final Set<String> CRONJOB_FLAGS = Set.of("swarm.cronjob.enable", "swarm.cronjob.skip-running",
            "swarm.cronjob.registry-auth", "swarm.cronjob.query-registry");
    /**
     * Label-driven tools that act beyond the labelled service: ofelia and its fork chadburn run
     * commands (job-local on their own host, job-run in new containers of any image), and
     * caddy-docker-proxy routes any host a {@code caddy} label names.
     */
    static final List<String> ACTING = List.of("ofelia.", "chadburn.", "caddy");

    private ComposeLabels() {
    }

    /** What ccci makes of one label: accepted, refused (with why and the fix) or a lint finding (why it is inert). */
    private record Verdict(String[] refusal, String note) {
        static final Verdict OK = new Verdict(null, null);

        static Verdict refuse(String why, String fix) {
            return new Verdict(new String[] {why, fix}, null);
        }

        static Verdict note(String why) {
            return new Verdict(null, why);
        }
    }

    /** The rule for any {@code labels} key of the compose (a service's, its deploy's, an object's). */
    static final Rule RULE = (judging, at, labels) -> {
        Map<String, String> map = asMap(labels);
        for (Map.Entry<String, String> label : map.entrySet()) {
            Verdict verdict = judge(judging, label.getKey(), label.getValue(), map);
            String shown = label.getKey() + "=" + label.getValue();
            if (verdict.refusal() != null) {
                judging.refuse(at, shown, "has the label", verdict.refusal()[0], verdict.refusal()[1]);
            } else if (verdict.note() != null) {
                judging.note(at, shown, verdict.note());
            }
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

    private static Verdict judge(ComposeJudging judging, String key, String value, Map<String, String> labels) {
        if (key.startsWith("traefik.")) {
            return TraefikLabels.why(judging, key, value, labels).map(why -> Verdict.refuse(why[0], why[1])).orElse(Verdict.OK);
        }
        if (key.startsWith("backupbot.")) {
            boolean read = BACKUPBOT_FLAGS.contains(key) && Set.of("true", "false").contains(value)
                    || BACKUPBOT_HOOKS.contains(key) || key.equals("backupbot.backup.path")
                    || key.matches("backupbot\\.backup\\.volumes\\.[^.]+(\\.path)?");
            return read ? Verdict.OK : Verdict.note("is no backupbot label ccci reads (backupbot.backup, .path,"
                    + " .volumes.<volume>[.path], the backup's and the restore's pre-hook and post-hook, with true or false"
                    + " as the flags' values), so nothing on this host acts on it");
        }
        if (key.startsWith("coop-cloud.")) {
            if (key.startsWith("coop-cloud." + judging.stack + ".")) {
                return Verdict.OK;
            }
            if (key.startsWith("coop-cloud.${STACK_NAME}.") || key.startsWith("coop-cloud.$STACK_NAME.")) {
                return Verdict.note("names the stack as ${STACK_NAME} in a mapping key, which compose never interpolates:"
                        + " abra reads coop-cloud.<the app's stack>.<name> and so ignores it (ccci reads it as the run's own);"
                        + " write the label in list form, - \"coop-cloud.${STACK_NAME}.<name>=<value>\"");
            }
            return Verdict.refuse("speaks for another stack than the run's own (" + judging.stack + ")",
                    "name it coop-cloud.${STACK_NAME}.<name>.");
        }
        if (key.startsWith("swarm.cronjob.")) {
            return cronjob(key, value);
        }
        if (key.startsWith("com.docker.") || key.startsWith("net.commoninternet.ccci.")) {
            return Verdict.refuse("is in the engine's or ccci's own namespace, where it can make a teardown, a janitor or a"
                    + " probe take this service for another stack's or for ccci's own", "drop it.");
        }
        for (String tool : ACTING) {
            if (key.startsWith(tool)) {
                return Verdict.refuse("is read by a label-driven tool that routes hosts or runs commands beyond the labelled"
                        + " service (" + tool.replaceFirst("\\.$", "") + ")", "drop it: a recipe's own schedule runs as a"
                        + " swarm-cronjob service, its routes are traefik's.");
            }
        }
        return Verdict.note("is read by no tool ccci knows to act on this host (traefik., backupbot., coop-cloud.<stack>.,"
                + " swarm.cronjob.), so it does nothing here");
    }

    /** swarm-cronjob's labels: it scales the labelled service itself, to at most the run's replicas bound. */
    private static Verdict cronjob(String key, String value) {
        if (CRONJOB_FLAGS.contains(key)) {
            return Set.of("true", "false").contains(value) ? Verdict.OK : Verdict.note("is not true or false, which"
                    + " swarm-cronjob reads");
        }
        if (key.equals("swarm.cronjob.schedule")) {
            return Verdict.OK;
        }
        if (key.equals("swarm.cronjob.replicas")) {
            return value.matches("\\d{1,9}") && Integer.parseInt(value) <= ResourceBounds.MAX_REPLICAS ? Verdict.OK
                    : Verdict.refuse("makes swarm-cronjob scale the service to " + value + " replicas, more than one run's"
                            + " share of the host (" + ResourceBounds.MAX_REPLICAS + " at most)", "set at most "
                            + ResourceBounds.MAX_REPLICAS + ".");
        }
        return Verdict.note("is no swarm-cronjob label (enable, schedule, skip-running, replicas, registry-auth,"
                + " query-registry), so nothing acts on it");
    }
}
