package net.commoninternet.ccci.spi;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * One recipe CI run as the engine hands it to the extensions (and, as a {@link TierContext}, to the
 * tiers): what discovery found of the recipe, the tiers the run executes, the record of outcomes,
 * the run's timeline and its {@link Store}. Each node of the run's report has its own view of the
 * one run: the same run, but {@link #attach} puts a file on that node. Made by the engine; its
 * implementation is internal.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface RunContext {

    /** The recipe under test, e.g. {@code custom-html}. */
    String recipe();

    /** The run's id ({@code ccci.run-id}; {@code <run id>-<recipe>} in a command of several recipes). */
    String runId();

    /** The run's own folder ({@code <runs dir>/<run id>}): its logs, results and whatever its tiers keep. */
    Path runDir();

    /** The recipe's CI keys, defaults filled in. */
    CiKeys keys();

    /** The recipe's customization, if it has one. */
    Optional<RecipeCustomization> customization();

    /** The tiers this run executes (after stage and unique-id selection), in run order. */
    Set<Tier> tiers();

    /** Every check's and tier's outcome so far, as the engine reported it. */
    RunRecord record();

    /** The run's phases and their durations so far (the same timeline in every view of the run). */
    RunTimeline timeline();

    /** The run's state kept by its tiers and extensions, by typed key (the same store in every view of the run). */
    Store store();

    /**
     * {@code text} fit for a report: the run's secret values masked and, as the run's lifecycle
     * makes it, what a recipe printed in it made data (null stays null).
     */
    String redact(String text);

    /**
     * Attaches a copy of {@code file} to the report node that holds this view: the tier, for a
     * tier's operation, its checks and its AfterTier callbacks; the recipe otherwise. Open Test
     * Reporting lists it among the node's attachments. Call it while that node runs.
     *
     * @param mediaType e.g. {@code text/plain}
     */
    void attach(Path file, String mediaType) throws IOException;
}
