package net.commoninternet.ccci.extensions.results;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.lint.LintedRecipe;
import net.commoninternet.ccci.extensions.lint.ReadmeMetadata;
import net.commoninternet.ccci.extensions.lint.ReadmeMetadata.Claim;
import net.commoninternet.ccci.spi.RunRecord;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README's scores ({@code <!-- metadata -->}, typed by hand) against what the run saw: a score
 * that claims what the run did not show is a finding ({@code Backups: Yes} and the backup rung did
 * not pass; {@code Healthcheck: Yes} and no service has a healthcheck; {@code Tests} claimed and the
 * functional rung did not pass), and the scores the run supports are suggested, as a small table
 * in summary.md. Status, Image, Email and SSO are not something a run shows, so they are not judged.
 */
@API(status = API.Status.INTERNAL)
public final class ReadmeScores {

    private static final Logger LOG = LoggerFactory.getLogger(ReadmeScores.class);

    /** One score: what the README says, what the run supports, and the finding when they disagree. */
    record Score(String key, String says, String supported, Optional<String> finding) {
    }

    private ReadmeScores() {
    }

    /** The judged scores of {@code recipe}'s README against the run's rungs; empty without a metadata block. */
    static List<Score> of(LintedRecipe recipe, Map<RunResults.Rung, RunResults.Verdict> rungs) throws java.io.IOException {
        Optional<ReadmeMetadata> metadata = recipe.readme().flatMap(ReadmeMetadata::parse);
        if (metadata.isEmpty()) {
            return List.of();
        }
        ReadmeMetadata readme = metadata.get();
        List<Score> scores = new ArrayList<>();
        long withHealthcheck = recipe.services().values().stream().filter(LintedRecipe.Service::healthcheck).count();
        int services = recipe.services().size();
        String health = withHealthcheck == 0 ? "No" : withHealthcheck == services ? "Yes" : "partly (" + withHealthcheck + " of "
                + services + " services)";
        scores.add(score(readme, ReadmeMetadata.HEALTHCHECK, health, withHealthcheck == 0,
                "no service of the recipe has a healthcheck"));
        scores.add(rung(readme, ReadmeMetadata.BACKUPS, rungs.get(RunResults.Rung.BACKUP_RESTORE), "backup and restore"));
        scores.add(rung(readme, ReadmeMetadata.TESTS, rungs.get(RunResults.Rung.FUNCTIONAL), "functional"));
        return scores;
    }

    private static Score rung(ReadmeMetadata readme, String key, RunResults.Verdict verdict, String rung) {
        String supported = verdict == RunResults.Verdict.PASS ? "Yes (the " + rung + " rung passed)"
                : "No (the " + rung + " rung reads " + verdict.name().toLowerCase(java.util.Locale.ROOT) + ")";
        return score(readme, key, supported, verdict != RunResults.Verdict.PASS,
                "the " + rung + " rung reads " + verdict.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static Score score(ReadmeMetadata readme, String key, String supported, boolean notShown, String why) {
        String says = readme.get(key).orElse("");
        Optional<String> finding = readme.claim(key) == Claim.YES && notShown
                ? Optional.of("README.md says " + key + ": " + says + ", and " + why) : Optional.empty();
        return new Score(key, says, supported, finding);
    }

    /** summary.md with the README's scores against the run appended (nothing without a metadata block). */
    static void addToSummary(Path summary, Path recipeTree, RunRecord record) {
        try {
            List<Score> scores = of(LintedRecipe.read(recipeTree), RunResults.rungs(record.rows()));
            if (scores.isEmpty()) {
                return;
            }
            StringBuilder text = new StringBuilder(Files.readString(summary, StandardCharsets.UTF_8));
            text.append("\n**README metadata against this run**\n\n| score | README.md says | this run supports |\n| --- | --- | --- |\n");
            for (Score score : scores) {
                text.append("| ").append(score.key()).append(" | ").append(cell(score.says().isEmpty() ? "(empty)"
                        : score.says())).append(" | ").append(cell(score.supported())).append(" |\n");
            }
            List<String> findings = scores.stream().map(Score::finding).flatMap(Optional::stream).toList();
            if (!findings.isEmpty()) {
                text.append('\n');
                findings.forEach(f -> text.append("- finding: ").append(SummaryMarkdown.code(f)).append('\n'));
            }
            Path next = summary.resolveSibling(summary.getFileName() + ".next");
            Files.writeString(next, text, StandardCharsets.UTF_8);
            Files.move(next, summary, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            findings.forEach(f -> LOG.warn("README metadata: {}", f));
        } catch (Exception e) {
            LOG.warn("could not compare the README's metadata with the run (the verdict stands): {}", e.toString());
        }
    }

    /**
     * {@code value} as a table cell: a code span (the README's text is the recipe's, data), its pipes
     * escaped, since GFM splits a row at every unescaped pipe, inside a code span too.
     */
    private static String cell(Object value) {
        return SummaryMarkdown.code(value).replace("|", "\\|");
    }
}
