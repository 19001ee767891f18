package net.commoninternet.ccci.extensions.driver.abra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * abra's contract, in one place: every command line ccci runs, which of them run under a
 * pseudo-terminal, how abra reports failure, and the parsers for what ccci reads back. Each
 * flag and format and where it was learnt is in docs/abra-driver.md; a change of abra version
 * is a change to this class and to the fixtures its tests parse. Nothing here starts a process
 * ({@link AbraCommands} does), so every line of it is testable without abra.
 */
final class AbraCli {

    /** The abra the production host runs (recorded by the production harness, see the docs). */
    static final String WRITTEN_FOR = "0.13.x (production runs 0.13.0-beta)";

    /** One command line as ccci runs it, named for messages, with the environment it needs. */
    record Invocation(String name, List<String> argv, Map<String, String> environment, boolean sensitive) {
        Invocation {
            argv = List.copyOf(argv);
            environment = Map.copyOf(environment);
        }
    }

    /** One app of {@code abra app ls --machine}. */
    record AppRow(String server, String domain, String recipe, String status, String version) {
    }

    /** A restic snapshot id: 8 (short) to 64 (full) lower-case hex digits. */
    record Snapshot(String id) {
        private static final Pattern ID = Pattern.compile("[0-9a-f]{8,64}");

        Snapshot {
            if (!ID.matcher(id).matches()) {
                throw new IllegalArgumentException("not a restic snapshot id: " + id);
            }
        }
    }

    enum Severity { WARN, ERROR }

    /** Whether abra checked the rule and found it satisfied, or did not check it (it does not apply here). */
    enum Outcome { SATISFIED, UNSATISFIED, SKIPPED }

    /** One row of {@code abra recipe lint}'s table. */
    record LintRule(String ref, String rule, Severity severity, Outcome outcome, String resolve) {

        boolean satisfied() {
            return outcome == Outcome.SATISFIED;
        }

        boolean skipped() {
            return outcome == Outcome.SKIPPED;
        }
    }

    /** The lint table, and whether abra itself warned that critical (error-level) rules fail. */
    record Lint(List<LintRule> rules, boolean criticalWarning) {
        Lint {
            rules = List.copyOf(rules);
        }

        /** Error-level rules that ran and are not satisfied: what makes a recipe fail lint. */
        List<LintRule> failures() {
            return rules.stream().filter(r -> r.severity() == Severity.ERROR && !r.satisfied() && !r.skipped())
                    .collect(Collectors.toList());
        }
    }

    // ---- command lines ------------------------------------------------------------------

    /** abra's global "no input" flag: never prompt, take the default (a prompt would hang a run). */
    private static final String NO_INPUT = "-n";

    private final String abra;

    /** @param abra the abra executable: {@code abra} on the PATH, or a path to it. */
    AbraCli(String abra) {
        this.abra = abra;
    }

    /**
     * The env file {@code $ABRA_DIR/servers/<server>/<domain>.env} from the recipe's
     * {@code .env.sample}. {@code -C} (chaos): use the recipe tree as checked out, the ref under
     * test, not a released version. Secrets are generated separately, once ccci has finished
     * editing the env (its {@code SECRET_*_VERSION}s name them).
     */
    Invocation appNew(String recipe, String server, String domain) {
        return plain("abra app new", List.of("app", "new", NO_INPUT, "-C", "--server", server, "--domain", domain,
                recipe), false);
    }

    /** Every secret the env names ({@code -a}). abra prints the generated values: sensitive. */
    Invocation secretGenerate(String domain) {
        return plain("abra app secret generate", List.of("app", "secret", "generate", NO_INPUT, "-a", domain), true);
    }

    /**
     * The one deploy of the checked-out tree: {@code -C} (chaos) deploys the working tree as it
     * is, which is the ref under test plus the ccci overlay; {@code -c} skips abra's own
     * convergence wait, so ccci's convergence check (SwarmConvergence) is the one that decides.
     * The upgrade is the same command after checking out the new head.
     */
    Invocation deploy(String domain) {
        return plain("abra app deploy", List.of("app", "deploy", NO_INPUT, "-C", "-c", domain), false);
    }

    Invocation undeploy(String domain) {
        return plain("abra app undeploy", List.of("app", "undeploy", NO_INPUT, domain), false);
    }

    /** The app's env file and what abra created for it; {@code -f}: force, ask nothing. */
    Invocation remove(String domain) {
        return plain("abra app rm", List.of("app", "rm", NO_INPUT, "-f", domain), false);
    }

    /** Runs backup-bot's {@code create} for the app: needs a terminal (see {@link #underPty}). */
    Invocation backupCreate(String domain) {
        return pty("abra app backup create", List.of("app", "backup", "create", NO_INPUT, domain));
    }

    /**
     * Restores the app's latest snapshot. A run takes exactly one backup of its app before
     * restoring, so latest is that backup; pinning a snapshot id would need a flag this
     * contract has no verified spelling for.
     */
    Invocation restore(String domain) {
        return pty("abra app restore", List.of("app", "restore", NO_INPUT, domain));
    }

    Invocation recipeFetch(String recipe) {
        return plain("abra recipe fetch", List.of("recipe", "fetch", NO_INPUT, recipe), false);
    }

    /** abra's lint table; without a terminal abra stops with "inappropriate ioctl for device". */
    Invocation recipeLint(String recipe) {
        return pty("abra recipe lint", List.of("recipe", "lint", NO_INPUT, recipe));
    }

    /** Every app of every server as JSON ({@code -m}, machine-readable). */
    Invocation appList() {
        return plain("abra app ls", List.of("app", "ls", NO_INPUT, "-m"), false);
    }

    private Invocation plain(String name, List<String> args, boolean sensitive) {
        return new Invocation(name, Stream.concat(Stream.of(abra), args.stream()).collect(Collectors.toList()),
                Map.of(), sensitive);
    }

    private Invocation pty(String name, List<String> args) {
        Invocation direct = plain(name, args, false);
        return new Invocation(name, underPty(direct.argv()), Map.of("SHELL", "/bin/sh"), false);
    }

    /**
     * The command under a pseudo-terminal, with util-linux {@code script} (Debian's essential
     * bsdutils package, so every host has it): {@code -q} no banner, {@code -e} exit with the
     * command's exit code, {@code -c} the command, {@code /dev/null} discards the typescript.
     * Without a terminal abra's lint stops ("inappropriate ioctl for device") even with
     * {@code -n}, and backup and restore need one too (docs/abra-driver.md has the evidence).
     * {@code script} hands the string to
     * {@code $SHELL -c}, so every argument is single-quoted and {@code SHELL} is pinned to
     * {@code /bin/sh}: no domain or recipe name can be read as shell syntax.
     */
    static List<String> underPty(List<String> argv) {
        return List.of("script", "-qec", argv.stream().map(AbraCli::shellQuote).collect(Collectors.joining(" ")),
                "/dev/null");
    }

    static String shellQuote(String arg) {
        if (!arg.isEmpty() && arg.matches("[A-Za-z0-9_./:=@%+,-]+")) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    // ---- how abra reports ---------------------------------------------------------------

    /** abra's log lines: a level word, then the message (colours removed). */
    private static final Pattern LOG_LINE = Pattern.compile("^\\s*(DEBU|INFO|WARN|ERRO|FATA)\\s+(.*?)\\s*$");
    /** abra's WARN line after a lint table with a failing error-level rule. */
    private static final Pattern CRITICAL_WARNING = Pattern.compile("critical errors present");

    /** The message of abra's first {@code FATA} line: why it stopped (it then exits 1). */
    static Optional<String> fatal(String output) {
        return logMessages(output, "FATA").findFirst();
    }

    private static Stream<String> logMessages(String output, String level) {
        return TerminalText.lines(output).stream().map(LOG_LINE::matcher).filter(Matcher::matches)
                .filter(m -> m.group(1).equals(level)).map(m -> m.group(2));
    }

    /** abra exits non-zero only when it could not do the job; then its FATA line says why. */
    static void checkExit(Invocation invocation, int exitCode, String output) throws AbraException {
        if (exitCode != 0) {
            throw AbraException.failed(invocation, exitCode, output);
        }
    }

    /**
     * Lint could not run because the recipe itself is invalid (a missing {@code .env.sample},
     * a compose file that does not validate): the recipe's fault, unlike a lint that could not
     * run for the host's reasons (a tag fetch, a timeout), which verifies nothing.
     */
    static boolean recipeInvalid(AbraException lintFailure) {
        return lintFailure.fatal().map(f -> f.startsWith("unable to validate recipe")).orElse(false);
    }

    // ---- backup create: the snapshot id -------------------------------------------------

    /** restic's own line for a finished backup: {@code snapshot <id> saved}. */
    private static final Pattern RESTIC_SAVED = Pattern.compile("\\bsnapshot ([0-9a-f]{8,64}) saved\\b");
    /** restic's JSON summary of a finished backup: {@code "snapshot_id": "<id>"}. */
    private static final Pattern RESTIC_SUMMARY = Pattern.compile("\"snapshot_id\"\\s*:\\s*\"([0-9a-f]{8,64})\"");

    /**
     * The one snapshot this backup made. Strict: no id, or two ids that are not the same
     * snapshot (a short id is a prefix of its full id), is an error, never a guess.
     */
    static Snapshot snapshot(Invocation invocation, String output) throws AbraException {
        Set<String> ids = new LinkedHashSet<>();
        for (String line : TerminalText.lines(output)) {
            for (Pattern p : List.of(RESTIC_SAVED, RESTIC_SUMMARY)) {
                Matcher m = p.matcher(line);
                while (m.find()) {
                    ids.add(m.group(1));
                }
            }
        }
        List<String> distinct = new ArrayList<>();
        for (String id : ids) {
            if (distinct.stream().noneMatch(d -> d.startsWith(id) || id.startsWith(d))) {
                distinct.add(id);
            } else {
                distinct.replaceAll(d -> id.startsWith(d) ? id : d);
            }
        }
        if (distinct.isEmpty()) {
            throw AbraException.unparseable(invocation,
                    "no snapshot id: neither restic's \"snapshot <id> saved\" nor a \"snapshot_id\" field", output);
        }
        if (distinct.size() > 1) {
            throw AbraException.unparseable(invocation, "more than one snapshot id: " + String.join(", ", distinct),
                    output);
        }
        return new Snapshot(distinct.get(0));
    }

    // ---- recipe lint: the table ---------------------------------------------------------

    private static final String SEPARATORS = "│┃║|";
    private static final String BORDERS = "─━═┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬+-=: ";
    private static final List<String> LINT_COLUMNS = List.of("ref", "rule", "severity", "satisfied", "skipped");
    private static final Pattern RULE_REF = Pattern.compile("R\\d{3}");

    /**
     * The rows of abra's lint table. Tolerant of what a terminal adds (colours, {@code \r\n},
     * progress redraws), of log lines around the table, of the border style and of any row
     * order (abra walks a Go map). Strict where a misread would change the verdict: the header
     * must name the columns, every row must have the header's cells, a known severity and a
     * ✅/❌ verdict, and abra's own "critical errors present" warning must agree with the
     * table. Anything else is an {@link AbraException}, never a silent pass.
     */
    static Lint lint(Invocation invocation, String output) throws AbraException {
        List<String> lines = TerminalText.lines(output);
        int header = -1;
        char separator = 0;
        List<String> columns = List.of();
        for (int i = 0; i < lines.size() && header < 0; i++) {
            Optional<Character> sep = separatorOf(lines.get(i));
            if (sep.isPresent()) {
                List<String> names = cells(lines.get(i), sep.get()).stream()
                        .map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toList());
                if (names.containsAll(LINT_COLUMNS)) {
                    header = i;
                    separator = sep.get();
                    columns = names;
                }
            }
        }
        if (header < 0) {
            throw AbraException.unparseable(invocation,
                    "no lint table: no header row naming " + String.join(", ", LINT_COLUMNS), output);
        }
        List<List<String>> rows = tableRows(invocation, output, lines.subList(header + 1, lines.size()), separator, columns);
        List<LintRule> rules = new ArrayList<>();
        Set<String> refs = new HashSet<>();
        for (List<String> row : rows) {
            LintRule rule = lintRule(invocation, output, row, columns);
            if (!refs.add(rule.ref())) {
                throw AbraException.unparseable(invocation, "rule " + rule.ref() + " appears twice", output);
            }
            rules.add(rule);
        }
        if (rules.isEmpty()) {
            throw AbraException.unparseable(invocation, "the lint table has a header but no rules", output);
        }
        boolean critical = logMessages(output, "WARN").anyMatch(m -> CRITICAL_WARNING.matcher(m).find());
        Lint lint = new Lint(rules, critical);
        if (critical && lint.failures().isEmpty()) {
            throw AbraException.unparseable(invocation,
                    "abra warned of critical errors, but no error rule is unsatisfied in the table", output);
        }
        return lint;
    }

    /** The data rows after the header, a wrapped cell's continuation lines joined to its row. */
    private static List<List<String>> tableRows(Invocation invocation, String output, List<String> lines,
            char separator, List<String> columns) throws AbraException {
        int width = columns.size();
        int refColumn = columns.indexOf("ref");
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines) {
            if (isBorder(line, separator)) {
                continue;
            }
            if (line.indexOf(separator) < 0) {
                break;
            }
            List<String> cells = cells(line, separator);
            if (cells.size() != width) {
                throw AbraException.unparseable(invocation,
                        "a table row has " + cells.size() + " cells where the header has " + width, output);
            }
            if (!cells.get(refColumn).isEmpty()) {
                rows.add(new ArrayList<>(cells));
            } else if (rows.isEmpty()) {
                throw AbraException.unparseable(invocation, "a table row has no rule ref", output);
            } else {
                List<String> previous = rows.get(rows.size() - 1);
                for (int c = 0; c < width; c++) {
                    if (!cells.get(c).isEmpty()) {
                        previous.set(c, (previous.get(c) + " " + cells.get(c)).strip());
                    }
                }
            }
        }
        return rows;
    }

    private static LintRule lintRule(Invocation invocation, String output, List<String> row, List<String> columns)
            throws AbraException {
        String ref = row.get(columns.indexOf("ref"));
        if (!RULE_REF.matcher(ref).matches()) {
            throw AbraException.unparseable(invocation, "\"" + ref + "\" is not a lint rule ref (R001, R002, ...)",
                    output);
        }
        String level = row.get(columns.indexOf("severity")).toLowerCase(Locale.ROOT);
        Severity severity;
        if (level.equals("warn")) {
            severity = Severity.WARN;
        } else if (level.equals("error")) {
            severity = Severity.ERROR;
        } else {
            throw AbraException.unparseable(invocation, ref + " has unknown severity \"" + level + "\"", output);
        }
        String skippedCell = glyph(row.get(columns.indexOf("skipped")));
        if (!Set.of("✅", "❌", "-", "").contains(skippedCell)) {
            throw AbraException.unparseable(invocation, ref + " has skipped \"" + skippedCell + "\"", output);
        }
        boolean skipped = skippedCell.equals("✅");
        String satisfiedCell = glyph(row.get(columns.indexOf("satisfied")));
        boolean satisfied = satisfiedCell.equals("✅");
        if (!satisfied && !satisfiedCell.equals("❌") && !(skipped && satisfiedCell.equals("-"))) {
            throw AbraException.unparseable(invocation, ref + " has satisfied \"" + satisfiedCell
                    + "\" (expected ✅, ❌, or - for a skipped rule)", output);
        }
        int resolve = resolveColumn(columns);
        Outcome outcome = skipped ? Outcome.SKIPPED : satisfied ? Outcome.SATISFIED : Outcome.UNSATISFIED;
        return new LintRule(ref, row.get(columns.indexOf("rule")), severity, outcome, resolve < 0 ? "" : row.get(resolve));
    }

    /** The how-to-resolve column: the one column that is not a known one, if any. */
    private static int resolveColumn(List<String> columns) {
        for (int c = 0; c < columns.size(); c++) {
            if (!LINT_COLUMNS.contains(columns.get(c))) {
                return c;
            }
        }
        return -1;
    }

    /** A verdict glyph without the emoji variation selector and padding terminals add. */
    private static String glyph(String cell) {
        return cell.replace("\uFE0F", "").strip();
    }

    private static Optional<Character> separatorOf(String line) {
        for (char c : SEPARATORS.toCharArray()) {
            if (line.chars().filter(x -> x == c).count() >= 2) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    private static boolean isBorder(String line, char separator) {
        String s = line.strip();
        return !s.isEmpty() && s.chars().allMatch(c -> c == separator || BORDERS.indexOf(c) >= 0)
                && s.chars().anyMatch(c -> c != ' ' && c != separator);
    }

    private static List<String> cells(String line, char separator) {
        String s = line.strip();
        if (!s.isEmpty() && s.charAt(0) == separator) {
            s = s.substring(1);
        }
        if (!s.isEmpty() && s.charAt(s.length() - 1) == separator) {
            s = s.substring(0, s.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        for (String cell : s.split(Pattern.quote(String.valueOf(separator)), -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    // ---- app ls --machine ---------------------------------------------------------------

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The apps of {@code abra app ls -m}: a JSON object, server name to {@code {"apps": [...]}},
     * each app with at least its {@code domain}. Log lines before the JSON are skipped; a
     * missing or misshapen document is an error, never an empty list.
     */
    static List<AppRow> appList(Invocation invocation, String output) throws AbraException {
        List<String> lines = TerminalText.lines(output);
        int start = 0;
        while (start < lines.size() && !lines.get(start).strip().startsWith("{")) {
            start++;
        }
        if (start == lines.size()) {
            throw AbraException.unparseable(invocation, "no JSON object", output);
        }
        JsonNode root;
        try {
            root = JSON.readTree(String.join("\n", lines.subList(start, lines.size())));
        } catch (JsonProcessingException e) {
            throw AbraException.unparseable(invocation, "invalid JSON: " + e.getOriginalMessage(), output);
        }
        if (!root.isObject()) {
            throw AbraException.unparseable(invocation, "the JSON is not an object of servers", output);
        }
        List<AppRow> apps = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> servers = root.fields(); servers.hasNext(); ) {
            Map.Entry<String, JsonNode> server = servers.next();
            JsonNode list = server.getValue().path("apps");
            if (!list.isArray()) {
                throw AbraException.unparseable(invocation, "server " + server.getKey() + " has no \"apps\" list", output);
            }
            for (JsonNode app : list) {
                String domain = app.path("domain").asText("");
                if (domain.isBlank()) {
                    throw AbraException.unparseable(invocation, "an app of " + server.getKey() + " has no domain", output);
                }
                apps.add(new AppRow(server.getKey(), domain, app.path("recipe").asText(""),
                        app.path("status").asText(""), app.path("version").asText("")));
            }
        }
        return apps;
    }
}
