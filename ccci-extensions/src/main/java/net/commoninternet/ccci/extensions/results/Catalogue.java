package net.commoninternet.ccci.extensions.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;

/**
 * The catalogue of a command of several recipes, in the command's folder
 * ({@code <runs dir>/<run id>/}): {@code catalogue.json} and {@code catalogue.html}, one row per
 * recipe with its version, level, rungs, duration, outcome and a link to its report, read from
 * each run's results.json; a run is green only when its verdict says so (passed), red when it
 * failed, and unverified when it proved nothing. A run that wrote none (it failed before its teardown, or never started)
 * is listed with why. Every secret value any run of the command registered is masked, and scanned
 * for ({@code no_secret_leak}).
 */
@API(status = API.Status.INTERNAL)
public final class Catalogue {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> RUNGS = List.of("install", "upgrade", "backup_restore", "functional", "lint");

    /**
     * One run of the command as its end left it.
     *
     * @param failure why the run failed or did not start (masked), or null
     */
    public record Entry(RunSettings settings, boolean red, String failure) {
        public static Entry of(RunSettings settings, boolean red, String failure) {
            return new Entry(settings, red, failure);
        }
    }

    /** Where the catalogue went. */
    public record Written(Path json, Path html) {
    }

    private Catalogue() {
    }

    /** Writes the catalogue of {@code plan} from its runs' entries (a run of the plan without one: not run). */
    public static Written write(RunPlan plan, List<Entry> entries, Collection<String> secrets) throws IOException {
        Map<String, Entry> byRunId = entries.stream().collect(Collectors.toMap(e -> e.settings().runId(), e -> e, (a, b) -> a));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (RunSettings run : plan.runs()) {
            rows.add(row(plan.dir(), run, byRunId.get(run.runId())));
        }
        Map<String, Object> catalogue = new LinkedHashMap<>();
        catalogue.put("run_id", plan.runId());
        catalogue.put("recipes", rows);
        catalogue.put("red", rows.stream().filter(r -> Boolean.TRUE.equals(r.get("red"))).map(r -> r.get("recipe")).toList());
        catalogue.put("regressed", rows.stream().filter(r -> r.get("regressed_from") != null).map(r -> r.get("recipe")).toList());
        Map<String, Object> flags = new LinkedHashMap<>();
        flags.put("no_secret_leak", true);
        catalogue.put("flags", flags);
        @SuppressWarnings("unchecked")
        Map<String, Object> masked = (Map<String, Object>) SecretMasking.asData(catalogue, secrets);
        Path dir = Files.createDirectories(plan.dir());
        Path json = dir.resolve("catalogue.json");
        Path html = dir.resolve("catalogue.html");
        for (int pass = 0; pass < 2; pass++) {
            Templates.write(json, JSON.writeValueAsString(masked));
            Templates.write(html, Templates.render("catalogue.html.mustache", model(masked)));
            ((Map<String, Object>) masked.get("flags")).put("no_secret_leak", !leaks(List.of(json, html), secrets));
        }
        return new Written(json, html);
    }

    private static Map<String, Object> row(Path commandDir, RunSettings run, Entry entry) throws IOException {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("recipe", run.recipe());
        row.put("run_id", run.runId());
        Path results = run.runDir().resolve("results.json");
        JsonNode json = Files.isRegularFile(results) ? JSON.readTree(results.toFile()) : null;
        // red is what the command's exit says; otherwise the run's own verdict, which is green only
        // when its rungs say so (a run that proved nothing reads unverified)
        String status = entry == null ? "not run" : entry.red() ? "failed"
                : json == null || !json.hasNonNull("verdict") ? "passed" : json.get("verdict").asText();
        row.put("status", status);
        row.put("red", entry != null && entry.red());
        row.put("reason", entry == null ? "the command ended before this run started"
                : entry.failure() != null ? entry.failure() : json == null ? null : brokeAt(json));
        row.put("version", json == null || json.get("version").isNull() ? null : json.get("version").asText());
        row.put("level", json == null ? null : json.get("level").asInt());
        Map<String, Object> rungs = new LinkedHashMap<>();
        for (String rung : RUNGS) {
            rungs.put(rung, json == null ? null : json.get("rungs").get(rung).asText());
        }
        row.put("rungs", rungs);
        row.put("duration_ms", json == null ? null : json.get("timings").get("total_ms").asLong());
        row.put("report", json == null ? null : commandDir.relativize(run.runDir().resolve(RunReport.HTML)).toString());
        history(row, run);
        row.put("results", json == null ? null : commandDir.relativize(results).toString());
        return row;
    }

    /**
     * The recipe's trend from its history: the levels of the last runs of this run's line, oldest
     * first ({@code 4 → 4 → 1}), and whether it regressed (its level below the line's run before it).
     */
    private static void history(Map<String, Object> row, RunSettings run) {
        List<JsonNode> runs;
        try {
            runs = new RunHistory(run.paths().runsDir()).runs(run.recipe());
        } catch (IOException | IllegalArgumentException e) {
            runs = List.of();
        }
        String line = RunMemory.line(run.subject());
        List<JsonNode> mine = runs.stream().filter(r -> r.path("line").asText().equals(line)).toList();
        int thisRun = -1;
        for (int i = 0; i < mine.size(); i++) {
            if (mine.get(i).path("run_id").asText().equals(run.runId())) {
                thisRun = i;
            }
        }
        List<JsonNode> upTo = thisRun < 0 ? mine : mine.subList(0, thisRun + 1);
        row.put("line", line);
        row.put("trend", upTo.subList(Math.max(0, upTo.size() - TREND), upTo.size()).stream()
                .map(r -> String.valueOf(r.path("level").asInt())).toList());
        Map<String, Object> regressed = null;
        if (thisRun > 0 && mine.get(thisRun).path("level").asInt() < mine.get(thisRun - 1).path("level").asInt()) {
            regressed = new LinkedHashMap<>();
            regressed.put("level", mine.get(thisRun).path("level").asInt());
            regressed.put("was", mine.get(thisRun - 1).path("level").asInt());
            regressed.put("ref", mine.get(thisRun - 1).path("ref").asText());
        }
        row.put("regressed_from", regressed);
    }

    /** How many of a recipe's last runs its trend shows. */
    private static final int TREND = 10;

    /** Where a run that wrote its results broke: its first failed check, {@code broke at <tier> > <check>}. */
    private static String brokeAt(JsonNode results) {
        for (JsonNode test : results.get("tests")) {
            if (test.get("status").asText().equals("failed")) {
                return "broke at " + test.get("tier").asText() + (test.get("check").isNull() ? "" : " > " + test.get("check").asText());
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> model(Map<String, Object> catalogue) {
        List<Map<String, Object>> recipes = new ArrayList<>();
        for (Map<String, Object> row : (List<Map<String, Object>>) catalogue.get("recipes")) {
            Map<String, Object> shown = new HashMap<>(row);
            Object level = row.get("level");
            shown.put("hasLevel", level != null);
            shown.put("color", level == null ? "#777" : Templates.levelColor(((Number) level).intValue()));
            shown.put("version", row.get("version") == null ? "" : row.get("version"));
            shown.put("status", ((String) row.get("status")).replace(' ', '-'));
            Map<String, Object> rungs = (Map<String, Object>) row.get("rungs");
            shown.put("rungs", RUNGS.stream().map(r -> Map.of("name", r, "verdict", rungs.get(r) == null ? "—" : rungs.get(r)))
                    .toList());
            Object millis = row.get("duration_ms");
            shown.put("duration", millis == null ? "" : Templates.duration(((Number) millis).longValue()));
            shown.put("hasReason", row.get("reason") != null);
            shown.put("hasReport", row.get("report") != null);
            shown.put("trend", String.join(" → ", (List<String>) row.get("trend")));
            recipes.add(shown);
        }
        long red = recipes.stream().filter(r -> Boolean.TRUE.equals(r.get("red"))).count();
        long notRun = recipes.stream().filter(r -> "not-run".equals(r.get("status"))).count();
        long unverified = recipes.stream().filter(r -> "unverified".equals(r.get("status"))).count();
        Map<String, Object> model = new HashMap<>();
        model.put("runId", catalogue.get("run_id"));
        model.put("recipes", recipes);
        model.put("done", recipes.size());
        model.put("redCount", red);
        model.put("notRunCount", notRun);
        model.put("greenCount", recipes.size() - red - notRun - unverified);
        model.put("unverifiedCount", unverified);
        model.put("hasUnverified", unverified > 0);
        model.put("hasRed", red > 0);
        model.put("hasNotRun", notRun > 0);
        List<Map<String, Object>> regressed = new ArrayList<>();
        for (Map<String, Object> row : (List<Map<String, Object>>) catalogue.get("recipes")) {
            if (row.get("regressed_from") != null) {
                Map<String, Object> drop = new HashMap<>((Map<String, Object>) row.get("regressed_from"));
                drop.put("recipe", row.get("recipe"));
                drop.put("line", row.get("line"));
                regressed.add(drop);
            }
        }
        model.put("regressed", regressed);
        model.put("hasRegressed", !regressed.isEmpty());
        return model;
    }

    private static boolean leaks(List<Path> files, Collection<String> secrets) throws IOException {
        Set<String> values = secrets.stream().filter(s -> s != null && s.length() >= net.commoninternet.ccci.extensions.secrets.RedactedConsole.MIN_SECRET).collect(Collectors.toSet());
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            if (values.stream().anyMatch(text::contains)) {
                return true;
            }
        }
        return false;
    }
}
