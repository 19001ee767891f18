package net.commoninternet.ccci.extensions.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.extensions.secrets.UntrustedText;
import net.commoninternet.ccci.spi.RunRecord.Row;
import net.commoninternet.ccci.spi.RunRecord.Status;
import net.commoninternet.ccci.spi.SkipKind;
import org.apiguardian.api.API;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.RunTimeline;

/**
 * A run's results from its record: each rung's verdict, the level, {@code results.json} and the
 * {@code RUN SUMMARY} block. Rungs: install(1) upgrade(2) backup_restore(3) functional(4)
 * lint(5), each pass|fail|skip|unver; the level is the highest passing rung with every rung below
 * it pass or skip; the verdict, the counts and why the run is not a level higher are
 * {@link Standing}'s. Results describe the verdict; they never change it.
 */
@API(status = API.Status.INTERNAL)
public final class RunResults {

    enum Rung {
        INSTALL, UPGRADE, BACKUP_RESTORE, FUNCTIONAL, LINT;

        /** How results.json names it: {@code backup_restore}. */
        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The version of results.json's shape ({@code schema_version}, and the schema's {@code const}):
     * raised when a field changes meaning or goes; a consumer checks it before it reads on. 2 added
     * {@code upgrade}, {@code verdict}, {@code counts}, {@code next_level}, {@code environment} and each
     * row's {@code skip} kind; 3 added {@code upgrades}, the upgrade from each base; 4 added each row's
     * {@code outcome} ({@code flaky}, {@code deterministic}) and {@code attempts}, {@code host_faults} and
     * the skip kind {@code infrastructure}.
     */
    public static final int SCHEMA_VERSION = 4;

    public enum Verdict { PASS, FAIL, SKIP, UNVER }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * What was tested: the recipe at a commit, the version label its head declares, its app, and the
     * upgrade it went through. Any of them may be null when unknown.
     */
    public record Tested(String recipe, String version, String ref, String domain, Upgrade upgrade) {
        /** A run that says nothing of its upgrade. */
        public Tested(String recipe, String version, String ref, String domain) {
            this(recipe, version, ref, domain, Upgrade.NONE);
        }
    }

    /**
     * The upgrade the run made: the release deployed first ({@code base}) and the release tag at the
     * head it upgraded to ({@code head}, null for an untagged head), each null when there is none;
     * {@code plan} says why, as the upgrade plan put it ({@code upgrade from 1.0.0+1.22.1}); {@code from}
     * is the upgrade from each base of the matrix, the previous release first (empty without a base).
     */
    public record Upgrade(String base, String head, String plan, List<UpgradeCell> from) {
        public static final Upgrade NONE = new Upgrade(null, null, null);

        public Upgrade {
            from = List.copyOf(from);
        }

        /** An upgrade from its base alone, no matrix. */
        public Upgrade(String base, String head, String plan) {
            this(base, head, plan, List.of());
        }
    }

    /**
     * Where the run ran: the driver ({@code swarm}, {@code abra}) and what the engine said of itself
     * (its version, its swarm's size, the runtime that sandboxes the app's containers by default).
     */
    public record Environment(String driver, net.commoninternet.ccci.extensions.docker.DockerEngine.Facts engine) {
        public static final Environment UNKNOWN = new Environment("unknown",
                new net.commoninternet.ccci.extensions.docker.DockerEngine.Facts("unknown", 0, "unknown", ""));
    }

    /**
     * What the run leaves besides its verdict: whether its teardown was clean, the secret values
     * it must never show (masked here and scanned for), its customization manifest, and where its
     * minutes went.
     */
    public record Evidence(boolean cleanTeardown, Collection<String> secretValues, Map<String, Object> customization,
                           RunTimeline timeline, Environment environment) {
        /** Evidence of a run that timed nothing. */
        public Evidence(boolean cleanTeardown, Collection<String> secretValues, Map<String, Object> customization) {
            this(cleanTeardown, secretValues, customization, new RunTimeline());
        }

        /** Evidence of a run that did not say where it ran. */
        public Evidence(boolean cleanTeardown, Collection<String> secretValues, Map<String, Object> customization,
                RunTimeline timeline) {
            this(cleanTeardown, secretValues, customization, timeline, Environment.UNKNOWN);
        }
    }

    /** What the run knew of itself, for the results. */
    public record Run(Tested tested, int pr, String runId, Set<Tier> stages, Evidence evidence) {
        public String recipe() {
            return tested.recipe();
        }

        public String version() {
            return tested.version();
        }

        public String ref() {
            return tested.ref();
        }

        public String domain() {
            return tested.domain();
        }

        public boolean cleanTeardown() {
            return evidence.cleanTeardown();
        }

        public Collection<String> secretValues() {
            return evidence.secretValues();
        }

        public Map<String, Object> customization() {
            return evidence.customization();
        }

        public RunTimeline timeline() {
            return evidence.timeline();
        }

        public Upgrade upgrade() {
            return tested.upgrade() == null ? Upgrade.NONE : tested.upgrade();
        }
    }

    private RunResults() {
    }

    public static Verdict tier(List<Row> rows, Tier tier) {
        List<Row> mine = rows.stream().filter(r -> r.tier() == tier).toList();
        if (mine.isEmpty()) {
            return Verdict.UNVER;
        }
        if (mine.stream().anyMatch(r -> r.status() == Status.FAILED)) {
            return Verdict.FAIL;
        }
        if (mine.stream().anyMatch(r -> r.skip() == SkipKind.LINT_FINDING)) {
            return Verdict.FAIL; // verdict-neutral for the run, but the lint rung did not pass
        }
        // A skip without a structural or intentional reason means nobody knows: unverified; so does a
        // failure the host caused. A check skipped for a structural reason (no READY_PROBE, say) beside
        // passing ones is no reason to doubt the tier.
        if (mine.stream().anyMatch(r -> Standing.unverified(r))) {
            return Verdict.UNVER;
        }
        return mine.stream().anyMatch(r -> r.status() == Status.PASSED) ? Verdict.PASS : Verdict.SKIP;
    }

    static Map<Rung, Verdict> rungs(List<Row> rows) {
        Map<Rung, Verdict> rungs = new EnumMap<>(Rung.class);
        rungs.put(Rung.INSTALL, tier(rows, Tier.INSTALL));
        rungs.put(Rung.UPGRADE, tier(rows, Tier.UPGRADE));
        rungs.put(Rung.BACKUP_RESTORE, combine(tier(rows, Tier.BACKUP), tier(rows, Tier.RESTORE)));
        rungs.put(Rung.FUNCTIONAL, tier(rows, Tier.CUSTOM));
        rungs.put(Rung.LINT, tier(rows, Tier.LINT));
        return rungs;
    }

    private static Verdict combine(Verdict a, Verdict b) {
        if (a == Verdict.FAIL || b == Verdict.FAIL) {
            return Verdict.FAIL;
        }
        if (a == Verdict.UNVER || b == Verdict.UNVER) {
            return Verdict.UNVER;
        }
        return a == Verdict.SKIP && b == Verdict.SKIP ? Verdict.SKIP : Verdict.PASS;
    }

    /** The highest passing rung with every rung below it pass or skip; 0 if none. */
    static int level(Map<Rung, Verdict> rungs) {
        int level = 0;
        for (Rung rung : Rung.values()) {
            Verdict verdict = rungs.get(rung);
            if (verdict == Verdict.PASS) {
                level = rung.ordinal() + 1;
            } else if (verdict != Verdict.SKIP) {
                break;
            }
        }
        return level;
    }

    /**
     * Writes results.json atomically into {@code runDir}, and beside it the report for people
     * ({@link RunReport}: report.html, summary.md, badge.svg) made from the same results, every string
     * of which is data ({@link SecretMasking#asData}: masked, in each of the secrets' forms, and every
     * control visible); returns the path of results.json. The leak scan covers both: the report is
     * written first, the run folder (report included) and the results are scanned, then both are
     * written with the scan's verdict, which changes only that flag's text.
     */
    public static Path write(Path runDir, Run run, RunRecord record) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> shown = (Map<String, Object>) SecretMasking.asData(results(run, record), run.secretValues());
        @SuppressWarnings("unchecked")
        Map<String, Object> flags = (Map<String, Object>) shown.get("flags");
        RunReport.write(runDir, shown, run.secretValues());
        byte[] json = JSON.writeValueAsBytes(shown);
        flags.put("no_secret_leak", !leaks(runDir, new String(json, StandardCharsets.UTF_8), run.secretValues()));
        RunReport.write(runDir, shown, run.secretValues());
        json = JSON.writeValueAsBytes(shown);
        Files.createDirectories(runDir);
        Path file = runDir.resolve("results.json");
        Path next = runDir.resolve("results.json.next");
        Files.write(next, json);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    /** results.json as a tree, in its documented order (results.schema.json); secrets not yet masked. */
    private static Map<String, Object> results(Run run, RunRecord record) {
        List<Row> rows = record.rows();
        Map<Rung, Verdict> rungs = rungs(rows);
        Standing standing = Standing.of(rows, run.stages());
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("schema_version", SCHEMA_VERSION);
        results.put("recipe", run.recipe());
        results.put("version", run.version());
        results.put("pr", run.pr());
        results.put("ref", run.ref());
        results.put("run_id", run.runId());
        results.put("domain", run.domain());
        Map<String, Object> upgrade = new LinkedHashMap<>();
        upgrade.put("base", run.upgrade().base());
        upgrade.put("head", run.upgrade().head());
        upgrade.put("plan", run.upgrade().plan());
        results.put("upgrade", upgrade);
        results.put("upgrades", run.upgrade().from().stream().map(RunResults::cell).toList());
        results.put("stages", run.stages().stream().map(Tier::id).toList());
        results.put("tests", rows.stream().map(RunResults::row).toList());
        results.put("rungs", rungs.entrySet().stream().collect(Collectors.toMap(
                e -> e.getKey().id(), e -> e.getValue().name().toLowerCase(Locale.ROOT),
                (a, b) -> a, LinkedHashMap::new)));
        results.put("level", level(rungs));
        results.put("verdict", standing.verdict());
        results.put("counts", standing.counts());
        results.put("next_level", standing.next().orElse(null));
        results.put("skips", rows.stream().filter(r -> r.status() == Status.SKIPPED).map(RunResults::row).toList());
        results.put("host_faults", Standing.hostFaults(rows).stream().map(RunResults::hostFault).toList());
        results.put("customization", SecretMasking.mask(null, run.customization(), run.secretValues()));
        Map<String, Object> flags = new LinkedHashMap<>();
        flags.put("clean_teardown", run.cleanTeardown());
        flags.put("no_secret_leak", true);
        results.put("flags", flags);
        results.put("timings", timings(run.timeline()));
        results.put("environment", environment(run.evidence().environment()));
        return results;
    }

    /** One base of the upgrade matrix as results.json has it. */
    private static Map<String, Object> cell(UpgradeCell cell) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("base", cell.base());
        out.put("status", cell.status().json());
        out.put("reason", cell.reason());
        out.put("checks", cell.checks().stream().map(r -> {
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("check", r.check());
            check.put("status", r.status().name().toLowerCase(Locale.ROOT));
            check.put("message", r.message());
            return check;
        }).toList());
        out.put("operator_actions", cell.actions().stream().map(a -> {
            Map<String, Object> action = new LinkedHashMap<>();
            action.put("kind", a.kind().name().toLowerCase(Locale.ROOT));
            action.put("subject", a.subject());
            action.put("sentence", a.sentence());
            return action;
        }).toList());
        out.put("logs", cell.logs());
        return out;
    }

    /** Where the run ran; this ccci's own version from the build ({@code ccci.properties}). */
    private static Map<String, Object> environment(Environment where) {
        Environment known = where == null ? Environment.UNKNOWN : where;
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("ccci_version", CCCI_VERSION);
        environment.put("driver", known.driver());
        environment.put("docker_engine", known.engine().version());
        environment.put("swarm_nodes", known.engine().swarmNodes());
        environment.put("default_runtime", known.engine().defaultRuntime());
        return environment;
    }

    /** The version the build wrote into ccci.properties ({@code unknown} from a tree the build did not filter). */
    private static final String CCCI_VERSION = ccciVersion();

    private static String ccciVersion() {
        Properties properties = new Properties();
        try (InputStream in = RunResults.class.getResourceAsStream("ccci.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String version = properties.getProperty("version", "unknown");
        return version.startsWith("${") ? "unknown" : version;
    }

    /**
     * Whether the file holds any of the values, read in 1 MiB chunks that overlap by the longest
     * value's length, so a long run.log is scanned whole and a value across a chunk edge is seen.
     */
    static boolean contains(Path file, List<String> values) throws IOException {
        int overlap = values.stream().mapToInt(v -> v.getBytes(StandardCharsets.UTF_8).length).max().orElse(0);
        List<byte[]> needles = values.stream().map(v -> v.getBytes(StandardCharsets.UTF_8)).toList();
        byte[] buffer = new byte[(1 << 20) + overlap];
        try (InputStream in = Files.newInputStream(file)) {
            int filled = 0;
            while (true) {
                int read = in.readNBytes(buffer, filled, buffer.length - filled);
                int size = filled + read;
                String text = new String(buffer, 0, size, StandardCharsets.ISO_8859_1);
                for (byte[] needle : needles) {
                    if (text.contains(new String(needle, StandardCharsets.ISO_8859_1))) {
                        return true;
                    }
                }
                if (size < buffer.length) {
                    return false;
                }
                int carry = Math.min(overlap, size);
                System.arraycopy(buffer, size - carry, buffer, 0, carry);
                filled = carry;
            }
        }
    }

    /**
     * Where the minutes went: each phase with its start since the run's start and its duration
     * (monotonic clock, milliseconds), in the order they started; {@code total_ms} up to now.
     */
    static Map<String, Object> timings(RunTimeline timeline) {
        Map<String, Object> timings = new LinkedHashMap<>();
        timings.put("started_at", timeline.startedAt().truncatedTo(ChronoUnit.MILLIS).toString());
        timings.put("total_ms", timeline.elapsed().toMillis());
        timings.put("phases", timeline.phases().stream().sorted(Comparator.comparing(RunTimeline.Phase::start))
                .map(p -> {
                    Map<String, Object> phase = new LinkedHashMap<>();
                    phase.put("phase", p.name());
                    phase.put("start_ms", p.start().toMillis());
                    phase.put("duration_ms", p.duration().toMillis());
                    phase.put("outcome", p.outcome().name().toLowerCase(Locale.ROOT));
                    return phase;
                }).toList());
        return timings;
    }

    /**
     * The RUN SUMMARY block for the end of the log: short, since it is the last thing a person reads
     * (what failed is listed; skips are counted, and named in report.html and summary.md). Its first
     * and last line carry the run's {@code mark}, which the run said on its first line and no recipe
     * can know: a block the recipe printed (in a hook's output, a failure message) has none, and its
     * lines never begin a line of the console anyway. Every text of the recipe's here is on one line
     * that begins with ccci's words. One line per element.
     */
    public static List<String> summary(Run run, RunRecord record, String where, String mark) {
        Map<Rung, Verdict> rungs = rungs(record.rows());
        int level = level(rungs);
        Standing standing = Standing.of(record.rows(), run.stages());
        List<String> lines = new ArrayList<>();
        lines.add("== RUN SUMMARY " + mark + " ==");
        String head = run.upgrade().head() != null ? run.upgrade().head() : run.version();
        lines.add("recipe " + run.recipe() + " " + (head == null ? "" : head + " ") + "(pr " + run.pr()
                + ", ref " + run.ref() + "), run " + run.runId() + ", app " + run.domain()
                + (run.upgrade().base() == null ? "" : ", upgraded from " + run.upgrade().base()));
        lines.add("level " + level + ": " + rungs.entrySet().stream()
                .map(e -> e.getKey().id() + " " + e.getValue().name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")));
        lines.add(standing.verdict() + ", " + Standing.whyNotHigher(level, standing.next().orElse(null)) + "; checks "
                + Standing.describe(standing.counts()));
        record.rows().stream().filter(r -> r.status() == Status.FAILED).forEach(r -> lines.add("  " + r.tier().id()
                + (r.check() == null ? "" : " > " + r.check()) + ": failed"
                + r.outcomeLine().map(o -> " (" + o + ")").orElse("")
                + (r.message() == null ? "" : " — " + Standing.oneLine(r.message()))));
        record.rows().stream().filter(r -> r.status() == Status.PASSED && r.outcome().isPresent()).forEach(r -> lines.add("  "
                + r.tier().id() + " > " + r.check() + ": " + r.outcomeLine().orElseThrow() + " — attempt 1: "
                + Standing.oneLine(String.valueOf(r.attempts().get(0).message()))));
        // the host's failures in full: the sentence says whose fault, what happened and what to do
        Standing.hostFaults(record.rows()).forEach(r -> lines.add("  " + r.tier().id() + (r.check() == null ? "" : " > "
                + r.check()) + ": not verified — " + UntrustedText.oneLine(String.valueOf(r.message()))));
        String timings = RunReport.timingsLine(timings(run.timeline()));
        if (!timings.isEmpty()) {
            lines.add(timings);
        }
        lines.add("clean_teardown " + run.cleanTeardown() + "; " + where);
        lines.add("== END RUN SUMMARY " + mark + " ==");
        return lines.stream().map(UntrustedText::oneLine).toList();
    }

    /** A failure the host caused, as results.json's {@code host_faults} lists it: where, its cause and the sentence. */
    private static Map<String, Object> hostFault(Row row) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tier", row.tier().id());
        out.put("check", row.check());
        out.put("cause", Standing.hostCause(row.message()));
        out.put("message", row.message());
        return out;
    }

    private static Map<String, Object> row(Row row) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tier", row.tier().id());
        out.put("check", row.check());
        out.put("status", row.status().name().toLowerCase(Locale.ROOT));
        out.put("skip", row.skip() == null ? null : row.skip().name().toLowerCase(Locale.ROOT));
        out.put("message", row.message());
        out.put("outcome", row.outcome().map(RunRecord.Outcome::word).orElse(null));
        out.put("attempts", row.attempts().stream().map(a -> {
            Map<String, Object> attempt = new LinkedHashMap<>();
            attempt.put("attempt", a.number());
            attempt.put("of", a.of());
            attempt.put("status", a.status().name().toLowerCase(Locale.ROOT));
            attempt.put("message", a.message());
            return attempt;
        }).toList());
        return out;
    }

    /**
     * A row's outcome in a reader's words, from results.json: {@code flaky: passed on attempt 2 of 3},
     * {@code deterministic: failed 3 of 3 attempts}, or empty for a check tried once.
     */
    @SuppressWarnings("unchecked")
    static String outcomeLine(Map<String, Object> test) {
        List<Map<String, Object>> attempts = (List<Map<String, Object>>) test.getOrDefault("attempts", List.of());
        Object outcome = test.get("outcome");
        if (outcome == null || attempts.isEmpty()) {
            return "";
        }
        Map<String, Object> last = attempts.get(attempts.size() - 1);
        return "flaky".equals(outcome) ? "flaky: passed on attempt " + last.get("attempt") + " of " + last.get("of")
                : outcome + ": failed " + attempts.size() + " of " + last.get("of") + " attempts";
    }

    /**
     * Whether any of the app's generated secret values appears in the results or in a text file
     * of the run folder (the backup repository, encrypted, is not read).
     */
    static boolean leaks(Path runDir, String results, Collection<String> all) throws IOException {
        // the same floor as the masking: shorter values would match ordinary text
        List<String> secrets = all.stream().filter(s -> s != null && s.length() >= RedactedConsole.MIN_SECRET).toList();
        if (secrets.isEmpty()) {
            return false;
        }
        if (secrets.stream().anyMatch(results::contains)) {
            return true;
        }
        if (!Files.isDirectory(runDir)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(runDir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(f -> !f.startsWith(runDir.resolve("backup")))
                    .filter(f -> !f.startsWith(runDir.resolve("abra")))::iterator) {
                if (contains(file, secrets)) {
                    return true;
                }
            }
        }
        return false;
    }
}
