package net.commoninternet.ccci.lifecycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The runs of one test plan, one command ({@code mvn test -Drecipe=a,b,c}), as the engine hands
 * them to the lifecycle once before the first run starts and once after the last one ended
 * ({@link RunLifecycle#beginPlan}, {@link RunLifecycle#endPlan}). A plan of several recipes has
 * the command's run id, and each of its runs {@code <run id>-<recipe>}.
 */
@API(status = API.Status.INTERNAL)
public final class RunPlan {

    private final String runId;
    private final List<RunSettings> runs;
    private final Attachments attachments;
    private final SpareSlots spare;

    /** Where a file attached to a node of the test report goes: that node's output directory. */
    @FunctionalInterface
    public interface Attachments {
        void attach(Path file, String mediaType) throws IOException;
    }

    /**
     * @param runId the command's run id (a single run's own)
     * @param runs the runs, in the plan's order
     * @param attachments where {@link #attach} puts a file: the plan's root node of the test report
     */
    public RunPlan(String runId, List<RunSettings> runs, Attachments attachments) {
        this(runId, runs, attachments, SpareSlots.NONE);
    }

    /** @param spare the command's run slots no run holds, for a run's extra work ({@link SpareSlots}) */
    public RunPlan(String runId, List<RunSettings> runs, Attachments attachments, SpareSlots spare) {
        this.runId = Objects.requireNonNull(runId);
        this.runs = List.copyOf(runs);
        this.attachments = Objects.requireNonNull(attachments);
        this.spare = Objects.requireNonNull(spare);
    }

    /** The command's run slots no run holds right now. */
    public SpareSlots spare() {
        return spare;
    }

    public String runId() {
        return runId;
    }

    public List<RunSettings> runs() {
        return runs;
    }

    /** Whether the plan holds several recipes (a catalogue, run ids {@code <run id>-<recipe>}). */
    public boolean several() {
        return runs.size() > 1;
    }

    /** The command's own folder, {@code <runs dir>/<run id>} (for a plan of several: the catalogue's). */
    public Path dir() {
        return runs.isEmpty() ? Path.of(runId) : runs.get(0).paths().runsDir().resolve(runId);
    }

    /** Attaches a copy of {@code file} to the plan's root node of the test report; call it in {@link RunLifecycle#endPlan}. */
    public void attach(Path file, String mediaType) throws IOException {
        attachments.attach(file, mediaType);
    }
}
