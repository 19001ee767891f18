package net.commoninternet.ccci.extensions.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * A run's report for people, beside its results.json and made from the same (already masked)
 * results: {@code report.html}, one self-contained page (no script, no network: styles inline, the
 * badge inline) with the level as a badge, the verdict and why the run is not a level higher, the
 * counts, the upgrade's base and head, where the run ran, where it broke, each rung and each check
 * with its reason and its tier's service logs (a failed check shows their ends inline, in a
 * {@code <details>}), the timings as a bar and a table, and links to run.log and results.json;
 * {@code summary.md} ({@link SummaryMarkdown}), the same for a forge comment or a CI job summary;
 * and {@code badge.svg}, the level badge a recipe's README can embed.
 *
 * <p>Any screen, any reader: a viewport, tables that wrap their text rather than overflow a 360 px
 * screen (each in a focusable region that scrolls should one still be wider), captions and header
 * scopes, and colours that meet WCAG 2.1 AA contrast ({@link Templates#levelColor}); checked with
 * axe-core in a real browser (concurrency-suite's ReportInBrowserTest).
 */
@API(status = API.Status.INTERNAL)
public final class RunReport {

    public static final String HTML = "report.html";
    public static final String BADGE = "badge.svg";
    public static final String SUMMARY = SummaryMarkdown.FILE;

    /** Phases of the lifecycle before the tiers, shown in the bar in their own colour. */
    private static final List<String> SETUP = List.of("janitor", "fetch", "lock", "dependencies", "deploy", "convergence",
            "ready-probe");

    private RunReport() {
    }

    /**
     * Writes report.html, summary.md and badge.svg into {@code runDir} from the run's results (as
     * written to results.json); the service logs' tails it shows are masked with {@code secrets}.
     */
    @SuppressWarnings("unchecked")
    static void write(Path runDir, Map<String, Object> results, Collection<String> secrets) throws IOException {
        Files.createDirectories(runDir);
        int level = ((Number) results.get("level")).intValue();
        String badge = badge(level);
        Templates.write(runDir.resolve(BADGE), badge);
        Templates.write(runDir.resolve(HTML), Templates.render("report.html.mustache",
                model(runDir, results, badge, new TierLogs(runDir, secrets))));
        Templates.write(runDir.resolve(SUMMARY), SummaryMarkdown.of(results,
                timingsLine((Map<String, Object>) results.get("timings"))));
    }

    /** {@code timings: janitor 64 ms, fetch 186 ms, ..., upgrade 9.7 s (failed), ...; total 22.9 s}, or empty if nothing was timed. */
    @SuppressWarnings("unchecked")
    static String timingsLine(Map<String, Object> timings) {
        List<Map<String, Object>> phases = (List<Map<String, Object>>) timings.get("phases");
        if (phases.isEmpty()) {
            return "";
        }
        return "timings: " + phases.stream().map(p -> p.get("phase") + " "
                + Templates.duration(((Number) p.get("duration_ms")).longValue())
                + ("failed".equals(p.get("outcome")) ? " (failed)" : "")).collect(Collectors.joining(", "))
                + "; total " + Templates.duration(((Number) timings.get("total_ms")).longValue());
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

    /** Each failure the host caused ({@code host_faults}) as {@code where} and its whole sentence. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> hostFaults(Map<String, Object> results) {
        Object listed = results.get("host_faults");
        if (!(listed instanceof List<?> faults)) {
            return List.of();
        }
        return faults.stream().map(f -> (Map<String, Object>) f).map(f -> Map.<String, Object>of("where", f.get("tier")
                + (f.get("check") == null ? "" : " > " + f.get("check")), "reason", String.valueOf(f.get("message")))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> model(Path runDir, Map<String, Object> results, String badge, TierLogs logs)
            throws IOException {
        Map<String, Object> model = new HashMap<>();
        int level = ((Number) results.get("level")).intValue();
        List<Map<String, Object>> tests = (List<Map<String, Object>>) results.get("tests");
        Map<String, Object> flags = (Map<String, Object>) results.get("flags");
        Map<String, Object> timings = (Map<String, Object>) results.get("timings");
        model.put("recipe", results.get("recipe"));
        model.put("version", headUnderTest(results));
        model.put("runId", results.get("run_id"));
        model.put("pr", results.get("pr"));
        model.put("ref", results.get("ref"));
        model.put("domain", results.get("domain"));
        model.put("level", level);
        model.put("color", Templates.levelColor(level));
        model.put("verdict", results.get("verdict"));
        model.put("whyNotHigher", Standing.whyNotHigher(level, (Map<String, Object>) results.get("next_level")));
        model.put("counts", Standing.describe((Map<String, Object>) results.get("counts")));
        model.put("checkCount", tests.size());
        model.put("upgrade", upgrade((Map<String, Object>) results.get("upgrade")));
        UpgradeMatrixView matrix = new UpgradeMatrixView(results);
        model.put("hasMatrix", matrix.shown());
        model.put("matrixChecks", matrix.checks().stream().map(c -> Map.of("name", c)).toList());
        model.put("matrix", matrix.rows());
        model.put("hasActions", !matrix.actions().isEmpty());
        model.put("actions", matrix.actions());
        model.put("environment", environment((Map<String, Object>) results.get("environment")));
        model.put("badge", badge);
        model.put("cleanTeardown", flags.get("clean_teardown"));
        model.put("noSecretLeak", flags.get("no_secret_leak"));
        model.put("startedAt", timings.get("started_at"));
        model.put("total", Templates.duration(((Number) timings.get("total_ms")).longValue()));
        List<Map<String, Object>> broke = new ArrayList<>();
        List<Map<String, Object>> checks = new ArrayList<>();
        Map<String, List<TierLogs.Log>> listed = new HashMap<>();
        for (Map<String, Object> test : tests) {
            String tier = (String) test.get("tier");
            boolean failed = "failed".equals(test.get("status"));
            String where = tier + (test.get("check") == null ? "" : " > " + test.get("check"));
            Map<String, Object> row = new HashMap<>();
            row.put("tier", tier);
            row.put("check", test.get("check") == null ? "(the tier)" : test.get("check"));
            boolean hosts = "infrastructure".equals(test.get("skip"));
            row.put("status", hosts ? "unverified" : test.get("status"));
            row.put("skip", hosts ? " (the host's fault)"
                    : test.get("skip") == null ? "" : " (" + String.valueOf(test.get("skip")).replace('_', ' ') + ")");
            String outcome = RunResults.outcomeLine(test);
            row.put("outcome", outcome.isEmpty() ? "" : " (" + outcome + ")");
            row.put("reason", reason(test));
            if (!listed.containsKey(tier)) {
                listed.put(tier, logs.of(tier, false));
            }
            List<TierLogs.Log> tierLogs = failed ? logs.of(tier, true) : listed.get(tier);
            row.put("logs", tierLogs.stream().map(TierLogs::model).toList());
            row.put("hasLogs", !tierLogs.isEmpty());
            List<TierLogs.Log> tails = tierLogs;
            row.put("quiet", "");
            if (failed && TierLogs.silent(tierLogs)) {
                // the service logs say nothing: the run's own lines of the tier say what the deploy and the swarm did
                Optional<TierLogs.Log> own = logs.runLogOf(String.valueOf(results.get("recipe")), tier);
                if (own.isPresent()) {
                    tails = List.of(own.get());
                    row.put("quiet", tierLogs.isEmpty() ? "The " + tier + " left no service log."
                            : "The service logs of the " + tier + " are empty ("
                                    + tierLogs.stream().map(TierLogs.Log::path).collect(Collectors.joining(", ")) + ").");
                }
            }
            row.put("hasQuiet", !String.valueOf(row.get("quiet")).isEmpty());
            row.put("tails", failed ? tails.stream().map(TierLogs::model).toList() : List.of());
            row.put("hasTails", failed && !tails.isEmpty());
            checks.add(row);
            if (failed) {
                broke.add(Map.of("where", where, "reason", row.get("reason")));
            }
        }
        model.put("broke", broke);
        model.put("hasBroke", !broke.isEmpty());
        List<Map<String, Object>> hosts = hostFaults(results);
        model.put("hostFaults", hosts);
        model.put("hasHostFaults", !hosts.isEmpty());
        model.put("checks", checks);
        List<Map<String, Object>> rungs = new ArrayList<>();
        ((Map<String, Object>) results.get("rungs")).forEach((name, verdict) -> rungs.add(Map.of("name", name, "verdict", verdict)));
        model.put("rungs", rungs);
        model.put("phases", phases(timings));
        List<Map<String, Object>> pictures = pictures(runDir);
        model.put("pictures", pictures);
        model.put("hasPictures", !pictures.isEmpty());
        return model;
    }

    /** A row's reason, and below it each of its attempts when it was tried more than once. */
    @SuppressWarnings("unchecked")
    private static String reason(Map<String, Object> test) {
        StringBuilder reason = new StringBuilder(test.get("message") == null ? "" : String.valueOf(test.get("message")));
        for (Map<String, Object> attempt : (List<Map<String, Object>>) test.getOrDefault("attempts", List.of())) {
            reason.append(reason.length() == 0 ? "" : "\n").append("attempt ").append(attempt.get("attempt")).append(" of ")
                    .append(attempt.get("of")).append(": ").append(attempt.get("status"))
                    .append(attempt.get("message") == null ? "" : " — " + attempt.get("message"));
        }
        return reason.toString();
    }

    /** A picture's bytes beyond this are linked, not embedded (the report stays a page, not an archive). */
    private static final long EMBEDDED_PICTURE_BYTES = 4L << 20;

    /**
     * The pictures of the app after its install and upgrade ({@link AppPictures}), in tier order:
     * each embedded as a data URI (report.html stays one self-contained file) and linked, with its
     * caption if the browser refused something of the page, or the line saying why there is none.
     */
    private static List<Map<String, Object>> pictures(Path runDir) throws IOException {
        List<Map<String, Object>> pictures = new ArrayList<>();
        for (Tier tier : List.of(Tier.INSTALL, Tier.UPGRADE)) {
            Path png = AppPictures.picture(runDir, tier);
            Path why = AppPictures.why(runDir, tier);
            Map<String, Object> picture = new HashMap<>();
            picture.put("tier", tier.id());
            picture.put("width", AppPictures.WIDTH);
            if (Files.isRegularFile(png, LinkOption.NOFOLLOW_LINKS)) {
                picture.put("file", runDir.relativize(png).toString());
                if (Files.isRegularFile(why, LinkOption.NOFOLLOW_LINKS)) {
                    picture.put("note", Files.readString(why).strip()); // what the browser refused of the page
                }
                if (Files.size(png) <= EMBEDDED_PICTURE_BYTES) {
                    picture.put("dataUri", "data:image/png;base64," + Base64.getEncoder().encodeToString(Files.readAllBytes(png)));
                } else {
                    picture.put("why", "the picture is larger than " + (EMBEDDED_PICTURE_BYTES >> 20) + " MiB: open the file");
                }
            } else if (Files.isRegularFile(why, LinkOption.NOFOLLOW_LINKS)) {
                picture.put("why", Files.readString(why).strip());
            } else {
                continue;
            }
            pictures.add(picture);
        }
        return pictures;
    }

    /**
     * The head under test, as the report's title names it: its release tag when it is tagged (the
     * release the run tests, even when its version label was not bumped and the base's stayed
     * deployed), else the version label it declares; empty when it declares none.
     */
    @SuppressWarnings("unchecked")
    static String headUnderTest(Map<String, Object> results) {
        Object head = ((Map<String, Object>) results.get("upgrade")).get("head");
        Object version = head != null ? head : results.get("version");
        return version == null ? "" : String.valueOf(version);
    }

    /** {@code from 1.0.0+1.22.1 to 1.1.0+1.22.1}, or the plan's reason when there was no upgrade. */
    private static String upgrade(Map<String, Object> upgrade) {
        if (upgrade.get("base") != null) {
            return "from " + upgrade.get("base") + " to " + (upgrade.get("head") == null ? "the head (untagged)" : upgrade.get("head"));
        }
        return upgrade.get("plan") == null ? "none" : "none (" + upgrade.get("plan") + ")";
    }

    /** Where the run ran, as rows of a small table. */
    private static List<Map<String, Object>> environment(Map<String, Object> environment) {
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(Map.of("name", "ccci", "value", environment.get("ccci_version")));
        rows.add(Map.of("name", "driver", "value", environment.get("driver")));
        rows.add(Map.of("name", "Docker engine", "value", environment.get("docker_engine")));
        Object nodes = environment.get("swarm_nodes");
        rows.add(Map.of("name", "swarm", "value", Integer.valueOf(0).equals(nodes) ? "unknown"
                : nodes + (Integer.valueOf(1).equals(nodes) ? " node" : " nodes")));
        rows.add(Map.of("name", "sandbox runtime", "value", environment.get("default_runtime")));
        return rows;
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
            row.put("percent", String.format(Locale.ROOT, "%.2f", 100 * millis / total));
            row.put("kind", SETUP.contains(name) ? "setup" : name.equals("teardown") ? "teardown" : "tier");
            row.put("outcome", phase.get("outcome"));
            row.put("failed", "failed".equals(phase.get("outcome")));
            out.add(row);
        }
        return out;
    }
}
