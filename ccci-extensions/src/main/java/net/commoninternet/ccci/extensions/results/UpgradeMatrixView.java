package net.commoninternet.ccci.extensions.results;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The upgrade matrix of results.json ({@code upgrades}) as the report and the summary show it:
 * a row per base release, a column per check of the upgrade, each cell the check's outcome, the
 * row's own outcome and a link to its logs; and what an operator upgrading from each base must do
 * by hand. Shown when the run upgraded from more than one base, or found an operator action.
 */
final class UpgradeMatrixView {

    private final List<Map<String, Object>> upgrades;

    @SuppressWarnings("unchecked")
    UpgradeMatrixView(Map<String, Object> results) {
        Object listed = results.get("upgrades");
        this.upgrades = listed instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    boolean shown() {
        return upgrades.size() > 1 || upgrades.stream().anyMatch(u -> !actions(u).isEmpty());
    }

    /** The checks of the upgrade, in the order the first base that ran them has them. */
    List<String> checks() {
        Set<String> names = new LinkedHashSet<>();
        upgrades.forEach(u -> checksOf(u).forEach(c -> names.add(String.valueOf(c.get("check")))));
        return List.copyOf(names);
    }

    /** Each base: its release, outcome, reason, its logs, and each check's outcome in {@link #checks()}' order. */
    List<Map<String, Object>> rows() {
        List<String> checks = checks();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < upgrades.size(); i++) {
            Map<String, Object> u = upgrades.get(i);
            List<Map<String, Object>> cells = new ArrayList<>();
            for (String check : checks) {
                String status = checksOf(u).stream().filter(c -> check.equals(c.get("check"))).map(c -> String.valueOf(c.get("status")))
                        .findFirst().orElse("-");
                cells.add(Map.of("status", status));
            }
            String status = String.valueOf(u.get("status"));
            rows.add(Map.of("base", u.get("base"), "own", i == 0 ? " (the run's own)" : "", "status", status,
                    "verdict", status.equals("pass") ? "passed" : status.equals("fail") ? "failed" : "skipped",
                    "reason", String.valueOf(u.get("reason")), "hasReason", !String.valueOf(u.get("reason")).isEmpty(), "logs", i == 0 ? "logs/upgrade" : String.valueOf(u.get("logs")),
                    "cells", cells));
        }
        return rows;
    }

    /** Every operator action, base by base: {@code base}, {@code sentence}. */
    List<Map<String, Object>> actions() {
        List<Map<String, Object>> all = new ArrayList<>();
        for (Map<String, Object> u : upgrades) {
            actions(u).forEach(a -> all.add(Map.of("base", u.get("base"), "sentence", String.valueOf(a.get("sentence")))));
        }
        return all;
    }

    /** The matrix and the actions as summary.md's lines (recipe text in code spans). */
    List<String> markdown() {
        List<String> lines = new ArrayList<>();
        if (!shown()) {
            return lines;
        }
        List<String> checks = checks();
        lines.add("");
        lines.add("**Upgrade from each base** (the upgrade rung holds only if every base that deployed passed)");
        lines.add("");
        lines.add("| base | outcome | " + String.join(" | ", checks) + " | logs |");
        lines.add("| --- | --- | " + "--- | ".repeat(checks.size()) + "--- |");
        for (Map<String, Object> row : rows()) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> cells = (List<Map<String, Object>>) row.get("cells");
            String reason = String.valueOf(row.get("reason"));
            lines.add("| " + cell(SummaryMarkdown.code(row.get("base"))) + row.get("own") + " | " + row.get("status")
                    + (reason.isEmpty() ? "" : ": " + cell(SummaryMarkdown.code(shortened(reason)))) + " | "
                    + String.join(" | ", cells.stream().map(c -> String.valueOf(c.get("status"))).toList()) + (cells.isEmpty() ? "" : " |")
                    + " " + row.get("logs") + " |");
        }
        List<Map<String, Object>> actions = actions();
        if (!actions.isEmpty()) {
            lines.add("");
            lines.add("**Operator action** (what an operator upgrading from that base must do by hand)");
            lines.add("");
            actions.forEach(a -> lines.add("- from " + SummaryMarkdown.code(a.get("base")) + ": "
                    + SummaryMarkdown.code(a.get("sentence"))));
        }
        return lines;
    }

    /** The most of a reason a table's cell shows; the report and results.json have it whole. */
    private static final int CELL_REASON = 120;

    private static String shortened(String reason) {
        String line = Standing.oneLine(reason);
        return line.length() <= CELL_REASON ? line : line.substring(0, CELL_REASON) + "…";
    }

    /** Text inside a table's cell: a pipe ends a cell even in a code span (GitHub, Gitea), so it is escaped. */
    private static String cell(String markdown) {
        return markdown.replace("|", "\\|");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> checksOf(Map<String, Object> upgrade) {
        Object checks = upgrade.get("checks");
        return checks instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> actions(Map<String, Object> upgrade) {
        Object actions = upgrade.get("operator_actions");
        return actions instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }
}
