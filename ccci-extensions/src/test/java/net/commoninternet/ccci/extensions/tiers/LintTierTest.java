package net.commoninternet.ccci.extensions.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.driver.abra.AbraFixtures;
import net.commoninternet.ccci.extensions.driver.abra.AbraRecipeLint;
import net.commoninternet.ccci.extensions.driver.abra.FakeAbra;
import net.commoninternet.ccci.extensions.driver.swarm.RecipeLint;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.UpgradePlan;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunRecord.Row;
import net.commoninternet.ccci.spi.RunRecord.Status;
import net.commoninternet.ccci.spi.RunSettings;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * The LINT tier as a run drives it: its operation on a real git tree in the run's ABRA_DIR, its
 * checks, and the lint rung they make. Under {@code ccci.driver=abra} the lint is abra's, run
 * through real {@code script} and a real pseudo-terminal; abra itself is {@link FakeAbra}, a
 * stand-in printing a constructed fixture, found on the run's PATH as the real one would be.
 */
class LintTierTest {

    private static final String RECIPE = "hedgedoc";

    @TempDir
    Path dir;

    private FakeAbra abra;
    private Path abraDir;
    private Path tree;
    private String head;

    @BeforeEach
    void recipeTreeInTheRunsAbraDir() throws Exception {
        abra = FakeAbra.install(dir);
        abraDir = Files.createDirectories(dir.resolve("run/abra"));
        tree = Files.createDirectories(abraDir.resolve("recipes").resolve(RECIPE));
        Files.writeString(tree.resolve("compose.yml"), "version: \"3.8\"\nservices:\n  app:\n    image: nginx:1.27.0\n");
        Files.writeString(tree.resolve(".env.sample"), "TYPE=hedgedoc\nDOMAIN=hedgedoc.example.com\n");
        ChildProcesses git = new ChildProcesses(Map.of());
        for (List<String> step : List.of(List.of("init", "--quiet"), List.of("add", "."),
                List.of("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "head"))) {
            List<String> command = new ArrayList<>(List.of("git", "-C", tree.toString()));
            command.addAll(step);
            git.run(command, null).orThrow();
        }
        head = git.run(List.of("git", "-C", tree.toString(), "rev-parse", "HEAD"), null).orThrow().output().strip();
    }

    /** What the engine would record for the LINT tier: the operation's abort, or one row per check. */
    private List<Row> lint(String driver, String abraOutput, int abraExit) throws Exception {
        Map<String, String> environment = new HashMap<>(abra.answering(abraOutput, abraExit));
        environment.put("ABRA_DIR", abraDir.toString());
        environment.put("PATH", abra.searchPath());
        ChildProcesses children = new ChildProcesses(environment);
        RunSettings settings = new RunSettings(RECIPE, 0, null, "lint-test", Set.of(Tier.LINT), dir, driver,
                dir.resolve("locks"), dir.resolve("runs"), dir.resolve("canonical"), Duration.ofMinutes(5), false, Set.of());
        RunContext run = new RunContext(settings, tree, Set.of(Tier.LINT), List.of());
        run.put(Deployment.class, new Deployment(new App(RECIPE, "hedg-1a2b3c.ci.commoninternet.net",
                "hedg-1a2b3c_ci_commoninternet_net", tree, dir.resolve("app.env"), Map.of()), null, null,
                children, null));
        run.put(UpgradePlan.class, new UpgradePlan(Optional.empty(), head, Optional.empty(), Optional.empty(), "not selected"));
        LintTier tier = new LintTier();
        try {
            tier.operate(run);
        } catch (TestAbortedException e) {
            return List.of(new Row(Tier.LINT, null, Status.SKIPPED, e.getMessage()));
        }
        List<Row> rows = new ArrayList<>();
        for (Check check : tier.checks(settings)) {
            try {
                check.verify(run);
                rows.add(new Row(Tier.LINT, check.name(), Status.PASSED, null));
            } catch (TestAbortedException e) {
                rows.add(new Row(Tier.LINT, check.name(), Status.SKIPPED, e.getMessage()));
            }
        }
        return rows;
    }

    private static List<String> skipped(List<Row> rows) {
        return rows.stream().filter(r -> r.status() == Status.SKIPPED).map(r -> r.check() + ": " + r.message())
                .collect(Collectors.toList());
    }

    @Test
    void underAbraEachOfAbrasRulesIsACheckAndAFailingErrorRuleIsAVerdictNeutralFinding() throws Exception {
        List<Row> rows = lint("abra", AbraFixtures.read("lint-r014-error.constructed.txt"), 0);

        assertThat(abra.log()).containsExactly("argv: [recipe] [lint] [-n] [" + RECIPE + "]", "ABRA_DIR=" + abraDir,
                "stdin=tty", "stdout=tty");
        assertThat(rows).extracting(Row::check).containsExactlyElementsOf(AbraRecipeLint.CHECKS);
        assertThat(skipped(rows)).containsExactly("R014: " + LintTier.FINDING
                + "R014 only annotated tags used for recipe version (error): replace lightweight tags with annotated tags");
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aTableWithNoFailingErrorRulePassesTheRung() throws Exception {
        List<Row> clean = lint("abra", AbraFixtures.read("lint-all-satisfied.constructed.txt"), 0);
        // R015 is warn-level: abra prints no critical warning for it, and production reads lint pass.
        List<Row> warnOnly = lint("abra", AbraFixtures.read("lint-r015-warn-only.constructed.txt"), 0);

        assertThat(clean).allMatch(r -> r.status() == Status.PASSED);
        assertThat(RunResults.tier(clean, Tier.LINT)).isEqualTo(Verdict.PASS);
        assertThat(warnOnly).allMatch(r -> r.status() == Status.PASSED);
        assertThat(RunResults.tier(warnOnly, Tier.LINT)).isEqualTo(Verdict.PASS);
    }

    @Test
    void theTableAsAPseudoTerminalDeliversItIsReadTheSame() throws Exception {
        List<Row> rows = lint("abra", AbraFixtures.read("lint-r014-error-pty.constructed.txt"), 0);

        assertThat(skipped(rows)).singleElement().asString().startsWith("R014: " + LintTier.FINDING);
    }

    @Test
    void withoutATerminalAbraStopsAndTheLintIsNotRunNotPassed() throws Exception {
        List<Row> rows = lint("abra", AbraFixtures.read("lint-fatal-no-tty.constructed.txt"), 1);

        assertThat(rows).containsExactly(new Row(Tier.LINT, null, Status.SKIPPED,
                AbraRecipeLint.NOT_RUN + "abra recipe lint exited 1: FATA inappropriate ioctl for device"));
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.UNVER);
    }

    @Test
    void aRecipeAbraCannotValidateIsOneFinding() throws Exception {
        List<Row> rows = lint("abra", AbraFixtures.read("lint-fatal-env-sample.constructed.txt"), 1);

        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.check()).isNull();
            assertThat(r.message()).startsWith(LintTier.FINDING + "abra cannot lint hedgedoc, the recipe itself is invalid:"
                    + " FATA unable to validate recipe: open /root/.abra/recipes/hedgedoc/.env.sample");
        });
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aFailedCommandWithoutATableIsOneNotRunMessageQuotingWhatAbraSaid() throws Exception {
        List<Row> crashed = lint("abra", "panic: runtime error: index out of range\n", 2);
        List<Row> unreadable = lint("abra", "INFO nothing to lint here\n", 0);

        assertThat(crashed).singleElement().extracting(Row::message).asString()
                .startsWith(AbraRecipeLint.NOT_RUN + "abra recipe lint exited 2:")
                .contains("panic: runtime error: index out of range");
        assertThat(unreadable).singleElement().extracting(Row::message).asString()
                .startsWith(AbraRecipeLint.NOT_RUN + "abra recipe lint printed output ccci cannot read (no lint table");
        assertThat(RunResults.tier(crashed, Tier.LINT)).isEqualTo(Verdict.UNVER);
        assertThat(RunResults.tier(unreadable, Tier.LINT)).isEqualTo(Verdict.UNVER);
    }

    @Test
    void aRuleAbraDidNotPrintIsNotCheckedAndARuleCcciDoesNotListStillCounts() throws Exception {
        String table = AbraFixtures.read("lint-all-satisfied.constructed.txt");
        String r014 = table.lines().filter(l -> l.contains(" R014 ")).findFirst().orElseThrow();
        String r017 = r014.replace("R014", "R017").replace("✅", "❌");
        String changed = table.lines().filter(l -> !l.contains(" R016 "))
                .map(l -> l.equals(r014) ? l + "\n" + r017 : l).collect(Collectors.joining("\n", "", "\n"));

        List<Row> rows = lint("abra", changed, 0);

        assertThat(skipped(rows)).containsExactly(
                "R016: not checked: the lint reported no rule R016 (unver)",
                AbraRecipeLint.UNLISTED + ": " + LintTier.FINDING + "R017 only annotated tags used for recipe version"
                        + " (error): replace lightweight tags with annotated tags");
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void underTheSwarmDriverTheEmbeddedRulesLintAndAbraIsNeverCalled() throws Exception {
        List<Row> rows = lint("swarm", AbraFixtures.read("lint-r014-error.constructed.txt"), 0);

        assertThat(rows).extracting(Row::check).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(dir.resolve("fake-abra-log")).doesNotExist();
        assertThat(skipped(rows)).allMatch(s -> !s.contains("R014"));
    }

    @Test
    void theChecksAreKnownAtDiscoveryForEitherDriver() {
        RunSettings swarm = new RunSettings(RECIPE, 0, null, "d", Set.of(Tier.LINT), dir, "swarm", dir, dir, dir,
                Duration.ofMinutes(1), false, Set.of());
        RunSettings abraRun = new RunSettings(RECIPE, 0, null, "d", Set.of(Tier.LINT), dir, "abra", dir, dir, dir,
                Duration.ofMinutes(1), false, Set.of());

        assertThat(new LintTier().checks(swarm)).extracting(Check::name).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(new LintTier().checks()).extracting(Check::name).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(new LintTier().checks(abraRun)).extracting(Check::name)
                .startsWith("R001", "R002").contains("R016").endsWith(AbraRecipeLint.UNLISTED).hasSize(17);
    }
}
