package net.commoninternet.ccci.extensions.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lock.LockFile;
import org.apiguardian.api.API;

/**
 * Each recipe's history of runs, {@code <runs dir>/history/<recipe>.jsonl}: one JSON object a line
 * (run id, line, ref, version, level, verdict, rungs, timings, images, when), oldest first, the last
 * {@link #KEEP} runs kept.
 *
 * <p>Resource: the recipe's history file, shared by every command on the host (per host: runs
 * folders are a host's). Invariant: no append is ever lost, and a reader never sees a half-written
 * file. Each append reads the file, adds its line, drops the oldest beyond the bound and writes the
 * whole to a temporary name, all under an exclusive {@code flock(2)} of {@code <recipe>.lock} beside
 * it (a kernel lock: two JVMs exclude each other, and a dead holder's lock goes with its process);
 * the linearization point is the rename of the temporary file over the history, so a reader without
 * the lock sees the history before or after an append, never between. The lockfile is never
 * removed, so every appender locks the same inode. Without the lock two
 * appenders that read the same history would each write it back with only their own line.
 */
@API(status = API.Status.INTERNAL)
public final class RunHistory {

    /** How many runs of a recipe the history keeps. */
    public static final int KEEP = 50;

    static final String DIR = "history";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RECIPE = Pattern.compile("[a-z0-9][a-z0-9._-]*");

    /** Called between the history's read and its write, under the lock: a test holds an append there. */
    public interface Pause {
        Pause NONE = runsRead -> { };

        void betweenReadAndWrite(int runsRead) throws IOException;
    }

    private final Path dir;

    public RunHistory(Path runsDir) {
        this.dir = runsDir.resolve(DIR);
    }

    /** The recipe's history file. */
    public Path file(String recipe) {
        if (!RECIPE.matcher(recipe).matches()) {
            throw new IllegalArgumentException("not a recipe name: " + recipe);
        }
        return dir.resolve(recipe + ".jsonl");
    }

    /**
     * Appends {@code entry} (its {@code recipe} and {@code line} set) to its recipe's history and
     * returns the last run of the same line recorded before it, if any.
     */
    public Optional<JsonNode> append(ObjectNode entry) throws IOException {
        return append(entry, Pause.NONE);
    }

    /** {@link #append(ObjectNode)}, calling {@code pause} once the history is read and before it is written. */
    public Optional<JsonNode> append(ObjectNode entry, Pause pause) throws IOException {
        String recipe = entry.get("recipe").asText();
        Path file = file(recipe);
        Files.createDirectories(dir);
        try (LockFile lock = LockFile.open(dir.resolve(recipe + ".lock"))) {
            lock.lock();
            List<JsonNode> runs = read(file);
            pause.betweenReadAndWrite(runs.size());
            Optional<JsonNode> previous = lastOfLine(runs, entry.path("line").asText());
            runs.add(entry);
            List<JsonNode> kept = runs.subList(Math.max(0, runs.size() - KEEP), runs.size());
            StringBuilder text = new StringBuilder();
            for (JsonNode run : kept) {
                text.append(JSON.writeValueAsString(run)).append('\n');
            }
            Path next = dir.resolve(recipe + ".jsonl.next");
            Files.writeString(next, text, StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return previous;
        }
    }

    /** The recipe's recorded runs, oldest first; a line that does not parse (a hand edit) is skipped. */
    public List<JsonNode> runs(String recipe) throws IOException {
        return read(file(recipe));
    }

    private static List<JsonNode> read(Path file) throws IOException {
        List<JsonNode> runs = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return runs;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            try {
                JsonNode run = JSON.readTree(line);
                if (run != null && run.isObject()) {
                    runs.add(run);
                }
            } catch (IOException garbled) {
                // a garbled line is history lost, never a crash that blocks every later run
            }
        }
        return runs;
    }

    static Optional<JsonNode> lastOfLine(List<JsonNode> runs, String line) {
        for (int i = runs.size() - 1; i >= 0; i--) {
            if (runs.get(i).path("line").asText().equals(line)) {
                return Optional.of(runs.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The level against the last run of the same line: {@code level 1, was 4 at <ref>: regressed}
     * ({@code improved}, {@code unchanged}); {@code level 4, the first recorded run} without one.
     */
    public static String against(int level, Optional<JsonNode> previous) {
        if (previous.isEmpty()) {
            return "level " + level + ", the first recorded run of its line";
        }
        int was = previous.get().path("level").asInt();
        String ref = previous.get().path("ref").asText("unknown");
        return "level " + level + ", was " + was + " at " + (ref.length() > 12 ? ref.substring(0, 12) : ref) + ": "
                + (level < was ? "regressed" : level > was ? "improved" : "unchanged");
    }
}
