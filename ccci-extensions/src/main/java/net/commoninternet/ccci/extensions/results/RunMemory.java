package net.commoninternet.ccci.extensions.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lint.LintedRecipe;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunRecord;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run remembered: its entry appended to its recipe's {@link RunHistory}, and the level against the
 * last recorded run of the same line said in summary.md and the RUN SUMMARY. A run's line is its
 * pull request ({@code pr-<n>}) or, without one, the recipe's default line ({@code default}): a
 * pull request's run is compared with that pull request's last run, a run of the recipe itself with
 * the last such run. Remembering never changes the verdict: a history that cannot be written is a
 * warning.
 */
@API(status = API.Status.INTERNAL)
public final class RunMemory {

    private static final Logger LOG = LoggerFactory.getLogger(RunMemory.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunMemory() {
    }

    /** The line a run belongs to. */
    public static String line(RunSettings.Subject subject) {
        return subject.pr() > 0 ? "pr-" + subject.pr() : "default";
    }

    /**
     * Appends the run to its recipe's history; returns the sentence that compares its level with
     * the line's last recorded run ({@code level 1, was 4 at 1a2b3c4d5e6f: regressed}), or empty
     * when the history could not be written.
     */
    public static Optional<String> remember(RunSettings settings, RunResults.Run run, RunRecord record, Path recipeTree) {
        try {
            ObjectNode entry = entry(settings, run, record, recipeTree);
            Optional<JsonNode> previous = new RunHistory(settings.paths().runsDir()).append(entry);
            return Optional.of(RunHistory.against(entry.get("level").asInt(), previous));
        } catch (Exception e) {
            LOG.warn("could not append the run to its recipe's history (the verdict stands): {}", e.toString());
            return Optional.empty();
        }
    }

    static ObjectNode entry(RunSettings settings, RunResults.Run run, RunRecord record, Path recipeTree) {
        Map<RunResults.Rung, RunResults.Verdict> rungs = RunResults.rungs(record.rows());
        ObjectNode entry = JSON.createObjectNode();
        entry.put("recipe", run.recipe());
        entry.put("run_id", run.runId());
        entry.put("line", line(settings.subject()));
        entry.put("ref", run.ref());
        entry.put("version", run.version());
        entry.put("level", RunResults.level(rungs));
        entry.put("verdict", Standing.of(record.rows(), run.stages()).verdict());
        ObjectNode verdicts = entry.putObject("rungs");
        rungs.forEach((rung, verdict) -> verdicts.put(rung.id(), verdict.name().toLowerCase(Locale.ROOT)));
        Map<String, Object> timings = RunResults.timings(run.timeline());
        entry.put("started_at", String.valueOf(timings.get("started_at")));
        entry.put("total_ms", ((Number) timings.get("total_ms")).longValue());
        ObjectNode phases = entry.putObject("phases_ms");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list = (List<Map<String, Object>>) timings.get("phases");
        list.forEach(p -> phases.put(String.valueOf(p.get("phase")), ((Number) p.get("duration_ms")).longValue()));
        entry.set("images", JSON.valueToTree(images(recipeTree)));
        return entry;
    }

    /** The images the recipe's compose names, as the tree stands at the run's end (as its lint reads them). */
    private static List<String> images(Path recipeTree) {
        List<String> images = new ArrayList<>();
        try {
            if (recipeTree != null && Files.isDirectory(recipeTree)) {
                LintedRecipe.read(recipeTree).services().values().stream().map(LintedRecipe.Service::image)
                        .filter(i -> !i.isEmpty()).distinct().sorted().forEach(images::add);
            }
        } catch (Exception e) {
            LOG.debug("no images for the history: {}", e.toString());
        }
        return images;
    }

    /** summary.md with the sentence under its heading (the first {@code ### } line), written atomically. */
    public static void addToSummary(Path summary, String sentence) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(summary, StandardCharsets.UTF_8));
            int heading = 0;
            while (heading < lines.size() && !lines.get(heading).startsWith("### ")) {
                heading++;
            }
            int at = heading < lines.size() ? heading + 1 : lines.size();
            lines.add(at, "");
            lines.add(at + 1, SummaryMarkdown.code(sentence) + " (the last recorded run of the same line)");
            Path next = summary.resolveSibling(summary.getFileName() + ".next");
            Files.writeString(next, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
            Files.move(next, summary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Exception e) {
            LOG.warn("could not add the history's comparison to {} (the verdict stands): {}", summary, e.toString());
        }
    }

    /** The RUN SUMMARY's lines with the sentence after its {@code level N: ...} line. */
    public static List<String> addToRunSummary(List<String> runSummary, String sentence) {
        List<String> lines = new ArrayList<>(runSummary);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("level ")) {
                lines.add(i + 1, sentence);
                return lines;
            }
        }
        return runSummary;
    }
}
