package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunHistoryTest {

    @TempDir
    Path runs;

    private static ObjectNode entry(String runId, String line, int level, String ref) {
        ObjectNode entry = new ObjectMapper().createObjectNode();
        entry.put("recipe", "custom-html").put("run_id", runId).put("line", line).put("level", level).put("ref", ref);
        return entry;
    }

    @Test
    void anAppendReturnsTheLastRunOfItsOwnLineAndSaysWhetherItRegressed() throws Exception {
        RunHistory history = new RunHistory(runs);

        assertThat(history.append(entry("1", "default", 4, "aaaaaaaaaaaaaaaa"))).isEmpty();
        assertThat(history.append(entry("2", "pr-7", 2, "bbbbbbbbbbbbbbbb"))).isEmpty();
        Optional<JsonNode> previous = history.append(entry("3", "default", 1, "cccccccccccccccc"));

        assertThat(previous).get().extracting(p -> p.get("run_id").asText()).isEqualTo("1");
        assertThat(RunHistory.against(1, previous)).isEqualTo("level 1, was 4 at aaaaaaaaaaaa: regressed");
        assertThat(RunHistory.against(4, previous)).isEqualTo("level 4, was 4 at aaaaaaaaaaaa: unchanged");
        assertThat(RunHistory.against(5, previous)).isEqualTo("level 5, was 4 at aaaaaaaaaaaa: improved");
        assertThat(RunHistory.against(3, Optional.empty())).isEqualTo("level 3, the first recorded run of its line");
        assertThat(history.runs("custom-html")).extracting(r -> r.get("run_id").asText()).containsExactly("1", "2", "3");
    }

    @Test
    void theHistoryKeepsTheLastRunsAndSkipsAGarbledLine() throws Exception {
        RunHistory history = new RunHistory(runs);
        for (int i = 0; i < RunHistory.KEEP + 5; i++) {
            history.append(entry(String.valueOf(i), "default", 4, "r" + i));
        }
        Files.writeString(history.file("custom-html"), Files.readString(history.file("custom-html")) + "{not json\n");
        history.append(entry("last", "default", 4, "r"));

        assertThat(history.runs("custom-html")).hasSize(RunHistory.KEEP)
                .extracting(r -> r.get("run_id").asText()).startsWith("6").endsWith(String.valueOf(RunHistory.KEEP + 4), "last");
        assertThat(Files.list(runs.resolve("history"))).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder("custom-html.jsonl", "custom-html.lock");
    }

    @Test
    void theSummariesSayTheLevelAgainstTheLastRun() throws Exception {
        Path summary = Files.writeString(runs.resolve("summary.md"), "<!-- ccci:custom-html -->\n### ccci: custom-html — level 1, failed\n\nrest\n");
        RunMemory.addToSummary(summary, "level 1, was 4 at aaaaaaaaaaaa: regressed");

        assertThat(Files.readString(summary)).isEqualTo("<!-- ccci:custom-html -->\n### ccci: custom-html — level 1, failed\n\n"
                + "`level 1, was 4 at aaaaaaaaaaaa: regressed` (the last recorded run of the same line)\n\nrest\n");
        assertThat(RunMemory.addToRunSummary(List.of("== RUN SUMMARY ==", "recipe x", "level 1: install pass", "failed"), "was"))
                .containsExactly("== RUN SUMMARY ==", "recipe x", "level 1: install pass", "was", "failed");
    }
}
