package net.commoninternet.ccci.extensions.results;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import net.commoninternet.ccci.extensions.recipe.UpgradeBases;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.RunRecord;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's end as its results say it: what it tested (its checkout, its upgrade), how it was
 * customized, what its teardown found, assembled once into a {@link RunResults.Run}; then
 * results.json and the report written, the RUN SUMMARY printed whatever happened to the files, and
 * the files attached to the run's node. Nothing here changes the run's verdict.
 */
@API(status = API.Status.INTERNAL)
public final class RunEnding {

    private static final Logger LOG = LoggerFactory.getLogger(RunEnding.class);

    /**
     * What the teardown found: whether it left nothing, the secret values the results must never
     * show (the app's and its dependencies'), and where the run ran.
     */
    public record Teardown(boolean clean, Collection<String> secretValues, RunResults.Environment environment,
            List<UpgradeCell> upgrades, List<String> kept) {
        public Teardown {
            upgrades = List.copyOf(upgrades);
            kept = List.copyOf(kept);
        }

        /** An app that was not kept. */
        public Teardown(boolean clean, Collection<String> secretValues, RunResults.Environment environment,
                List<UpgradeCell> upgrades) {
            this(clean, secretValues, environment, upgrades, List.of());
        }

        /** A run with no other base to upgrade from. */
        public Teardown(boolean clean, Collection<String> secretValues, RunResults.Environment environment) {
            this(clean, secretValues, environment, List.of());
        }
    }

    private RunEnding() {
    }

    /**
     * Writes, prints and attaches the results of {@code run}, which tested {@code checkout} with
     * the recipe files its set-up used ({@code recipeFiles}, for the customization manifest). The RUN
     * SUMMARY goes to the console through the run's {@code log}, as ccci's own lines between two that
     * carry the run's mark ({@link RedactedConsole.RunLog#printOwn}).
     */
    public static void publish(LifecycleContext run, Checkout checkout, Map<String, String> recipeFiles, Teardown teardown,
            RedactedConsole.RunLog log) {
        RunResults.Run summary = of(run, checkout, recipeFiles, teardown);
        // the run joins its recipe's history first, so its summaries can say the level against the last run
        Optional<String> against = RunMemory.remember(run.settings(), summary, run.record(), checkout.tree().dir());
        // The RUN SUMMARY is printed whatever happens to the file (a full disk under the runs folder).
        Path file = null;
        String where;
        try {
            file = RunResults.write(run.settings().runDir(), summary, run.record());
            where = "results " + file + ", report " + file.resolveSibling(RunReport.HTML) + ", summary "
                    + file.resolveSibling(RunReport.SUMMARY);
            Path markdown = file.resolveSibling(RunReport.SUMMARY);
            against.ifPresent(sentence -> RunMemory.addToSummary(markdown, sentence));
            ReadmeScores.addToSummary(markdown, checkout.tree().dir(), run.record());
            if (!teardown.kept().isEmpty()) {
                // the failed run's app is kept: the maintainer's two commands, a shell in it and the keep's end
                Files.writeString(markdown, "\n**The app is kept** " + String.join(" ", teardown.kept().stream()
                        .map(SummaryMarkdown::code).toList()) + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
        } catch (Exception e) {
            where = "results not written (" + e.getMessage() + ")";
            LOG.warn("could not write the run's results (the verdict stands): {}", e.toString());
        }
        List<String> runSummary = new ArrayList<>(RunResults.summary(summary, run.record(), where, log.mark()));
        teardown.kept().forEach(line -> runSummary.add(runSummary.size() - 1, "app kept: " + line));
        log.printOwn(against.map(a -> RunMemory.addToRunSummary(runSummary, a)).orElse(runSummary));
        try {
            if (file != null) {
                run.attach(file, "application/json");
                run.attach(file.resolveSibling(RunReport.HTML), "text/html");
                run.attach(file.resolveSibling(RunReport.BADGE), "image/svg+xml");
                run.attach(file.resolveSibling(RunReport.SUMMARY), "text/markdown");
            }
        } catch (Exception e) {
            LOG.warn("could not attach the run's results (the verdict stands): {}", e.toString());
        }
    }

    /**
     * The upgrade matrix: the previous release's cell is the run's own UPGRADE tier (its rows; failed
     * if one failed, a skip if it never passed a check), then the other bases' cells as their runs
     * ended.
     */
    static List<UpgradeCell> matrix(LifecycleContext run, Checkout checkout, List<UpgradeCell> others) {
        List<UpgradeBases.Base> bases = checkout.upgrade().bases().bases();
        if (bases.isEmpty()) {
            return List.of();
        }
        List<RunRecord.Row> rows = run.record().rows().stream().filter(r -> r.tier() == Tier.UPGRADE)
                .filter(r -> r.check() == null || !r.check().startsWith("from "))
                // the tier's own row (its operation failed or was skipped) is the cell's "operation", as a base's is
                .map(r -> r.check() != null ? r : new RunRecord.Row(r.tier(), "operation", r.status(), r.skip(), r.message()))
                .toList();
        Optional<RunRecord.Row> failed = rows.stream().filter(r -> r.status() == RunRecord.Status.FAILED).findFirst();
        boolean passed = rows.stream().anyMatch(r -> r.status() == RunRecord.Status.PASSED);
        UpgradeCell previous = new UpgradeCell(bases.get(0).release(), failed.isPresent() ? UpgradeCell.Status.FAIL
                : passed ? UpgradeCell.Status.PASS : UpgradeCell.Status.SKIP, failed.map(r -> r.check() + ": " + r.message())
                .orElse(passed ? "" : rows.stream().map(RunRecord.Row::message).filter(java.util.Objects::nonNull).findFirst()
                        .orElse("the run's UPGRADE tier did not run")), rows, bases.get(0).actions());
        List<UpgradeCell> all = new java.util.ArrayList<>(List.of(previous));
        all.addAll(others);
        return all;
    }

    /** The run as results.json describes it. */
    static RunResults.Run of(LifecycleContext run, Checkout checkout, Map<String, String> recipeFiles, Teardown teardown) {
        RunSettings settings = run.settings();
        List<String> secrets = List.copyOf(teardown.secretValues());
        return new RunResults.Run(
                new RunResults.Tested(run.recipe(), checkout.upgrade().headVersion().orElse(null), checkout.tree().commit(),
                        checkout.domain(), new RunResults.Upgrade(checkout.upgrade().base().map(RecipeVersion::text).orElse(null),
                                checkout.upgrade().headRelease().orElse(null), checkout.upgrade().reason(),
                                matrix(run, checkout, teardown.upgrades()))),
                settings.subject().pr(), settings.runId(), run.tiers(),
                new RunResults.Evidence(teardown.clean(), secrets, CustomizationManifest.of(run.keys(), run.customization(),
                        recipeFiles, settings.recipeCodeApproved(), secrets), run.timeline(), teardown.environment()));
    }
}
