package net.commoninternet.ccci.extensions.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.secrets.UntrustedText;

/**
 * {@code summary.md}: the run as a forge comment or a CI job summary shows it (CommonMark with a
 * GFM table): the verdict and level, why not a level higher, the rungs, the failing checks with
 * their reasons (and {@code deterministic: failed 3 of 3 attempts}), the flaky checks
 * ({@code flaky: passed on attempt 2 of 3}) with their first failure, the upgrade, the counts and the timings line, and where the report is. Made from
 * the same results as report.html (masked, controls visible).
 *
 * <p>CI posts this file as a comment in its bot's name, so nothing a run read or printed may act in
 * it: every value from the run (a reason is what a recipe's app, hook or a tool printed; a version or
 * a tag is the recipe's; names and ids are the operator's) sits in an inline code span
 * ({@link #code}), on one line, behind words of ccci's. In a code span CommonMark and GFM render the
 * text literally: no emphasis, link, autolink, image, HTML, entity or table cell, and GitHub renders
 * no mention ({@code @user}, {@code @org/team}), issue reference, emoji or math in code. The span's
 * fence is one backtick longer than the longest run of backticks in the text, so the text cannot
 * close it. Only ccci's own words (rung names, verdicts, counts, phase names) are outside code.
 *
 * <p>Its first line is a hidden marker, {@code <!-- ccci:<recipe> -->} (an HTML comment: no forge
 * shows it), by which {@code scripts/pr-comment} finds the one comment of this recipe on a pull
 * request and edits it in place (docs/forges.md). A recipe's name is a plain name, so the marker
 * can never be closed early.
 */
final class SummaryMarkdown {

    static final String FILE = "summary.md";

    private SummaryMarkdown() {
    }

    @SuppressWarnings("unchecked")
    static String of(Map<String, Object> results, String timingsLine) {
        int level = ((Number) results.get("level")).intValue();
        Map<String, Object> next = (Map<String, Object>) results.get("next_level");
        Map<String, Object> upgrade = (Map<String, Object>) results.get("upgrade");
        List<String> lines = new ArrayList<>();
        lines.add(marker(String.valueOf(results.get("recipe"))));
        String head = RunReport.headUnderTest(results);
        lines.add("### ccci: " + code(results.get("recipe")) + (head.isEmpty() ? "" : " " + code(head))
                + " — level " + level + ", " + results.get("verdict"));
        lines.add("");
        lines.add(next == null ? "**level " + level + ": every rung passed**"
                : "**level " + level + ", not " + next.get("level") + ": " + next.get("rung") + " " + next.get("verdict") + "** — "
                        + code(Standing.oneLine(String.valueOf(next.get("why")))));
        lines.add("");
        lines.add("| rung | verdict |");
        lines.add("| --- | --- |");
        ((Map<String, Object>) results.get("rungs")).forEach((rung, verdict) -> lines.add("| " + rung + " | " + verdict + " |"));
        List<Map<String, Object>> failed = ((List<Map<String, Object>>) results.get("tests")).stream()
                .filter(t -> "failed".equals(t.get("status"))).toList();
        if (!failed.isEmpty()) {
            lines.add("");
            lines.add("**Failing checks**");
            lines.add("");
            for (Map<String, Object> test : failed) {
                String outcome = RunResults.outcomeLine(test);
                lines.add("- " + code(test.get("tier") + (test.get("check") == null ? "" : " > " + test.get("check"))) + ": "
                        + (test.get("message") == null ? "failed" : code(Standing.oneLine((String) test.get("message"))))
                        + (outcome.isEmpty() ? "" : " (" + outcome + ")"));
            }
        }
        List<Map<String, Object>> flaky = ((List<Map<String, Object>>) results.get("tests")).stream()
                .filter(t -> "passed".equals(t.get("status")) && "flaky".equals(t.get("outcome"))).toList();
        if (!flaky.isEmpty()) {
            lines.add("");
            lines.add("**Flaky checks**");
            lines.add("");
            for (Map<String, Object> test : flaky) {
                Map<String, Object> first = ((List<Map<String, Object>>) test.get("attempts")).get(0);
                lines.add("- " + code(test.get("tier") + " > " + test.get("check")) + ": " + RunResults.outcomeLine(test)
                        + "; attempt 1: " + code(Standing.oneLine(String.valueOf(first.get("message")))));
            }
        }
        List<Map<String, Object>> hosts = RunReport.hostFaults(results);
        if (!hosts.isEmpty()) {
            lines.add("");
            lines.add("**Not verified: the host's fault, not the recipe's**");
            lines.add("");
            hosts.forEach(f -> lines.add("- " + code(f.get("where")) + ": " + code(f.get("reason"))));
        }
        lines.addAll(new UpgradeMatrixView(results).markdown());
        lines.add("");
        lines.add("checks: " + Standing.describe((Map<String, Object>) results.get("counts"))
                + (upgrade.get("base") == null ? "" : "; upgrade from " + code(upgrade.get("base"))
                        + (upgrade.get("head") == null ? " to the head" : " to " + code(upgrade.get("head")))));
        lines.add("");
        lines.add(timingsLine);
        lines.add("");
        lines.add("run " + code(results.get("run_id")) + ", ref " + code(results.get("ref"))
                + ": the report is report.html beside this file, with each check's service logs.");
        return String.join("\n", lines) + "\n";
    }

    /** The hidden first line that names the recipe's one comment on a pull request. */
    static String marker(String recipe) {
        return "<!-- ccci:" + recipe + " -->";
    }

    /**
     * {@code value} as an inline code span: on one line (its line breaks and tabs as spaces, runs of
     * spaces as one, every control as its escape), fenced by one backtick more than its longest run
     * of backticks, with a space inside each fence when it begins or ends with one (CommonMark strips
     * exactly that space); {@code (empty)} in a span for nothing.
     */
    static String code(Object value) {
        String text = UntrustedText.oneLine(String.valueOf(value)).replaceAll(" {2,}", " ").strip();
        if (text.isEmpty()) {
            text = "(empty)";
        }
        int longest = 0;
        for (int i = 0, run = 0; i < text.length(); i++) {
            run = text.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        String pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
        return fence + pad + text + pad + fence;
    }
}
