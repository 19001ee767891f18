package net.commoninternet.ccci.extensions.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * A run's report for people, beside its results.json and made from the same (already masked)
 * results: {@code report.html}, one self-contained page (no script, no network: styles inline, the
 * badge inline) with the level as a badge, where the run broke, each rung and each check with its
 * reason, the timings as a bar and a table, and links to run.log, results.json and each service
 * log; and {@code badge.svg}, the level badge a recipe's README can embed.
 */
@API(status = API.Status.INTERNAL)
public final class RunReport {

    public static final String HTML = "report.html";
    public static final String BADGE = "badge.svg";

    /** Phases of the lifecycle before the tiers, shown in the bar in their own colour. */
    private static final List<String> SETUP = List.of("janitor", "fetch", "lock", "dependencies", "deploy", "convergence",
            "ready-probe");

    private RunReport() {
    }

    /** Writes report.html and badge.svg into {@code runDir} from the run's results (as written to results.json). */
    static void write(Path runDir, Map<String, Object> results) throws IOException {
        Files.createDirectories(runDir);
        int level = ((Number) results.get("level")).intValue();
        String badge = badge(level);
        Templates.write(runDir.resolve(BADGE), badge);
        Templates.write(runDir.resolve(HTML), Templates.render("report.html.mustache", model(runDir, results, badge)));
    }

    /** The level badge: {@code ccci | level N}, coloured by level. */
    static String badge(int level) {
        String label = "ccci";
        String message = "level " + level;
        int labelWidth = 10 + 7 * label.length();
        int messageWidth = 10 + 7 * message.length();
        Map<String, Object> model = new HashMap<>();
        model.put("label", label);
        model.put("message", message);
        model.put("labelWidth", labelWidth);
        model.put("messageWidth", messageWidth);
        model.put("width", labelWidth + messageWidth);
        model.put("labelX", labelWidth / 2.0);
        model.put("messageX", labelWidth + messageWidth / 2.0);
        model.put("color", Templates.levelColor(level));
        return Templates.render("badge.svg.mustache", model);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> model(Path runDir, Map<String, Object> results, String badge) throws IOException {
        Map<String, Object> model = new HashMap<>();
        int level = ((Number) results.get("level")).intValue();
        List<Map<String, Object>> tests = (List<Map<String, Object>>) results.get("tests");
        boolean failed = tests.stream().anyMatch(t -> "failed".equals(t.get("status")));
        Map<String, Object> flags = (Map<String, Object>) results.get("flags");
        Map<String, Object> timings = (Map<String, Object>) results.get("timings");
        model.put("recipe", results.get("recipe"));
        model.put("version", results.get("version") == null ? "" : results.get("version"));
        model.put("runId", results.get("run_id"));
        model.put("pr", results.get("pr"));
        model.put("ref", results.get("ref"));
        model.put("domain", results.get("domain"));
        model.put("level", level);
        model.put("color", Templates.levelColor(level));
        model.put("verdict", failed ? "failed" : "passed");
        model.put("badge", badge);
        model.put("cleanTeardown", flags.get("clean_teardown"));
        model.put("noSecretLeak", flags.get("no_secret_leak"));
        model.put("startedAt", timings.get("started_at"));
        model.put("total", Templates.duration(((Number) timings.get("total_ms")).longValue()));
        List<Map<String, Object>> broke = new ArrayList<>();
        List<Map<String, Object>> checks = new ArrayList<>();
        for (Map<String, Object> test : tests) {
            String where = test.get("tier") + (test.get("check") == null ? "" : " > " + test.get("check"));
            Map<String, Object> row = new HashMap<>();
            row.put("tier", test.get("tier"));
            row.put("check", test.get("check") == null ? "(the tier)" : test.get("check"));
            row.put("status", test.get("status"));
            row.put("reason", test.get("message") == null ? "" : test.get("message"));
            checks.add(row);
            if ("failed".equals(test.get("status"))) {
                broke.add(Map.of("where", where, "reason", row.get("reason")));
            }
        }
        model.put("broke", broke);
        model.put("hasBroke", !broke.isEmpty());
        model.put("checks", checks);
        List<Map<String, Object>> rungs = new ArrayList<>();
        ((Map<String, Object>) results.get("rungs")).forEach((name, verdict) -> rungs.add(Map.of("name", name, "verdict", verdict)));
        model.put("rungs", rungs);
        model.put("phases", phases(timings));
        model.put("logs", logs(runDir));
        return model;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> phases(Map<String, Object> timings) {
        List<Map<String, Object>> phases = (List<Map<String, Object>>) timings.get("phases");
        double total = Math.max(1, phases.stream().mapToLong(p -> ((Number) p.get("duration_ms")).longValue()).sum());
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> phase : phases) {
            String name = (String) phase.get("phase");
            long millis = ((Number) phase.get("duration_ms")).longValue();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", name);
            row.put("start", Templates.duration(((Number) phase.get("start_ms")).longValue()));
            row.put("duration", Templates.duration(millis));
            row.put("percent", String.format(java.util.Locale.ROOT, "%.2f", 100 * millis / total));
            row.put("kind", SETUP.contains(name) ? "setup" : name.equals("teardown") ? "teardown" : "tier");
            row.put("outcome", phase.get("outcome"));
            row.put("failed", "failed".equals(phase.get("outcome")));
            out.add(row);
        }
        return out;
    }

    /** The service logs of the run folder ({@code logs/<tier>/...}), as links relative to it. */
    private static List<Map<String, Object>> logs(Path runDir) throws IOException {
        Path logs = runDir.resolve("logs");
        if (!Files.isDirectory(logs)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(logs)) {
            return files.filter(Files::isRegularFile).map(f -> runDir.relativize(f).toString().replace('\\', '/')).sorted()
                    .map(p -> Map.<String, Object>of("path", p)).toList();
        }
    }
}
