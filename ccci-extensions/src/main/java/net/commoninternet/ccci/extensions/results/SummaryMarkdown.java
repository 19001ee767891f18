package net.commoninternet.ccci.extensions.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code summary.md}: the run as a forge comment or a CI job summary shows it (CommonMark with a
 * GFM table): the verdict and level, why not a level higher, the rungs, the failing checks with
 * their reasons, the upgrade, the counts and the timings line, and where the report is. Made from
 * the same masked results as report.html.
 *
 * <p>Every text that comes from the run (a reason is what a recipe's app or a tool printed) has each
 * character that can open Markdown or HTML backslash-escaped ({@code \ ` * _ [ ] < > ! | # ~ &}),
 * which CommonMark reads as the character itself: a reason can never become an image, HTML, a
 * Markdown link, emphasis or a table cell of its own, and no line starts with run text (a heading,
 * a list). A bare URL a forge turns into a link stays a link to where it says.
 *
 * <p>Its first line is a hidden marker, {@code <!-- ccci:<recipe> -->} (an HTML comment: no forge
 * shows it), by which {@code scripts/pr-comment} finds the one comment of this recipe on a pull
 * request and edits it in place (docs/forges.md). A recipe's name is a plain name, so the marker
 * can never be closed early.
 */
final class SummaryMarkdown {

    static final String FILE = "summary.md";

    private static final Pattern MARKUP = Pattern.compile("[\\\\`*_\\[\\]<>!|#~&]");

    private SummaryMarkdown() {
    }

    @SuppressWarnings("unchecked")
    static String of(Map<String, Object> results, String timingsLine) {
        int level = ((Number) results.get("level")).intValue();
        Map<String, Object> next = (Map<String, Object>) results.get("next_level");
        Map<String, Object> upgrade = (Map<String, Object>) results.get("upgrade");
        List<String> lines = new ArrayList<>();
        lines.add(marker(String.valueOf(results.get("recipe"))));
        lines.add("### ccci: " + text(results.get("recipe")) + (results.get("version") == null ? "" : " " + text(results.get("version")))
                + " — level " + level + ", " + results.get("verdict"));
        lines.add("");
        lines.add("**" + text(Standing.whyNotHigher(level, next)) + "**");
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
                lines.add("- " + text(test.get("tier") + (test.get("check") == null ? "" : " > " + test.get("check"))) + ": "
                        + (test.get("message") == null ? "failed" : text(Standing.oneLine((String) test.get("message")))));
            }
        }
        lines.add("");
        lines.add("checks: " + Standing.describe((Map<String, Object>) results.get("counts"))
                + (upgrade.get("base") == null ? "" : "; upgrade from " + text(upgrade.get("base"))
                        + (upgrade.get("head") == null ? " to the head" : " to " + text(upgrade.get("head")))));
        lines.add("");
        lines.add(timingsLine);
        lines.add("");
        lines.add("run " + text(results.get("run_id")) + ", ref " + text(results.get("ref"))
                + ": the report is report.html beside this file, with each check's service logs.");
        return String.join("\n", lines) + "\n";
    }

    /** The hidden first line that names the recipe's one comment on a pull request. */
    static String marker(String recipe) {
        return "<!-- ccci:" + recipe + " -->";
    }

    /** {@code value} as literal Markdown text: what could open markup escaped, on one line. */
    static String text(Object value) {
        String line = String.valueOf(value).replaceAll("\\s+", " ").strip();
        return MARKUP.matcher(line).replaceAll(m -> "\\\\" + Matcher.quoteReplacement(m.group()));
    }
}
