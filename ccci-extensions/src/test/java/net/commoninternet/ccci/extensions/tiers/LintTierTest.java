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
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.StandaloneRun;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Deployment;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.driver.Drivers;
import net.commoninternet.ccci.extensions.driver.abra.AbraDriver;
import net.commoninternet.ccci.extensions.driver.abra.AbraFixtures;
import net.commoninternet.ccci.extensions.driver.abra.AbraRecipeLint;
import net.commoninternet.ccci.extensions.driver.abra.FakeAbra;
import net.commoninternet.ccci.extensions.driver.swarm.RecipeLint;
import net.commoninternet.ccci.extensions.driver.swarm.SwarmDriver;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import net.commoninternet.ccci.extensions.results.RunResults;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.RunRecord.Row;
import net.commoninternet.ccci.spi.RunRecord.Status;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        Files.writeString(tree.resolve("compose.yml"), "version: \"3.8\"\nservices:\n  app:\n    image: nginx:1.27.0\n"
                + "    deploy:\n      labels:\n        - traefik.enable=true\n        - traefik.http.services.x.loadbalancer.server.port=80\n"
                + "        - coop-cloud.${STACK_NAME}.version=1.0.0+1.27.0\n");
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

    /** The drivers, as the engine finds them. */
    private static final String SWARM = "swarm";
    private static final String ABRA = "abra";

    /** A run of {@code driver} as discovery would make it. */
    private RunSettings settings(String driver) {
        return new RunSettings(new RunSettings.Subject(RECIPE, 0, null, "lint-test"), Set.of(Tier.LINT), driver,
                new RunSettings.HostPaths(dir, new RunSettings.Namespace(dir.resolve("locks"), AppNaming.DEFAULT_SUFFIX), dir.resolve("runs"), dir.resolve("canonical"),
                        Optional.empty()),
                new RunSettings.Options(Duration.ofMinutes(5), false, Set.of(), "ccci.local/busybox:1"));
    }

    /** What the engine would record for the LINT tier: the operation's abort, or one row per check. */
    private List<Row> lint(String kind, String abraOutput, int abraExit) throws Exception {
        Map<String, String> environment = new HashMap<>(abra.answering(abraOutput, abraExit));
        environment.put("ABRA_DIR", abraDir.toString());
        environment.put("PATH", abra.searchPath());
        ChildProcesses children = new ChildProcesses(environment);
        RunSettings settings = settings(kind);
        // LINT needs no engine: the driver lints the tree (abra through its CLI, the embedded rules in-process).
        AppDriver driver = kind.equals(ABRA) ? new AbraDriver(children, null, dir.resolve("canonical/servers"), null)
                : new SwarmDriver(null, children, dir.resolve("backup"), dir.resolve("canonical/servers"),
                        new DeployPolicy(DeployAllowance.NONE, children));
        String domain = "hedg-1a2b3c.ci.commoninternet.net";
        RunWorkspace workspace = new RunWorkspace(dir.resolve("run"), new RunAbraDir(abraDir, dir.resolve("canonical")), null,
                children, new DeployPolicy(DeployAllowance.NONE, children));
        Checkout checkout = new Checkout(new RecipeFetch.Fetched(tree, head, List.of(), Map.of()), head, domain,
                new UpgradePlan(Optional.empty(), head, Optional.empty(), Optional.empty(), "not selected"));
        App app = new App(RECIPE, domain, tree, dir.resolve("app.env"), Map.of());
        Deployment deployment = new Deployment(new Prepared(CiKeys.defaults(), Set.of(Tier.LINT), workspace, checkout, null),
                new RunTools(null, driver, null, null, null), Dependencies.none(), app, null);
        TierContext run = StandaloneRun.of(settings, tree).tier(Tier.LINT, deployment);
        LintTier tier = new LintTier();
        try {
            tier.operate(run);
        } catch (Skipped e) {
            return List.of(Row.skipped(Tier.LINT, null, e.kind(), e.getMessage()));
        }
        List<Row> rows = new ArrayList<>();
        for (Check check : tier.checks(Drivers.of(settings.driver()))) {
            try {
                check.verify(run);
                rows.add(Row.passed(Tier.LINT, check.name()));
            } catch (Skipped e) {
                rows.add(Row.skipped(Tier.LINT, check.name(), e.kind(), e.getMessage()));
            } catch (AssertionError e) {
                rows.add(Row.failed(Tier.LINT, check.name(), e.getMessage()));
            }
        }
        return rows;
    }

    private static List<String> failed(List<Row> rows) {
        return rows.stream().filter(r -> r.status() == Status.FAILED).map(r -> r.check() + ": " + r.message())
                .collect(Collectors.toList());
    }

    /** The findings and failures, without the structural skips (a rule abra skipped). */
    private static List<String> faults(List<Row> rows) {
        return rows.stream().filter(r -> r.status() == Status.FAILED || r.skip() == SkipKind.LINT_FINDING)
                .map(r -> r.check() + ": " + r.message()).collect(Collectors.toList());
    }

    private static List<String> skipped(List<Row> rows) {
        return rows.stream().filter(r -> r.status() == Status.SKIPPED).map(r -> r.check() + ": " + r.message())
                .collect(Collectors.toList());
    }

    @Test
    void underAbraEachOfAbrasRulesIsACheckNamedAsTheSwarmDriverNamesItAndAFailingErrorRuleFailsIt() throws Exception {
        List<Row> rows = lint(ABRA, AbraFixtures.read("lint-r014-error.constructed.txt"), 0);

        assertThat(abra.log()).containsExactly("argv: [recipe] [lint] [-n] [" + RECIPE + "]", "ABRA_DIR=" + abraDir,
                "stdin=tty", "stdout=tty");
        assertThat(rows).extracting(Row::check).containsExactlyElementsOf(AbraRecipeLint.CHECKS);
        assertThat(faults(rows)).containsExactly("R014-valid-tags: critical lint error (abra would not deploy the recipe):"
                + " replace lightweight tags with annotated tags (R014 only annotated tags used for recipe version, error)");
        assertThat(skipped(rows)).containsExactly("R013-has-recipe-repo: " + SkipKind.STRUCTURAL.describe("abra skipped it"
                + " (it does not apply to this recipe): upload your recipe to git.coopcloud.tech/coop-cloud/..."
                + " (R013 git.coopcloud.tech repo exists, warn)"));
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aCleanTablePassesTheRungAndAFailingWarnRuleIsAVerdictNeutralFinding() throws Exception {
        List<Row> clean = lint(ABRA, AbraFixtures.read("lint-all-satisfied.constructed.txt"), 0);
        // R015 is warn-level: abra prints no critical warning for it and deploys; ccci reports a finding.
        List<Row> warnOnly = lint(ABRA, AbraFixtures.read("lint-r015-warn-only.constructed.txt"), 0);

        assertThat(faults(clean)).isEmpty();
        assertThat(RunResults.tier(clean, Tier.LINT)).isEqualTo(Verdict.PASS);
        assertThat(failed(warnOnly)).isEmpty();
        assertThat(faults(warnOnly)).containsExactly("R015-secret-lengths: " + SkipKind.LINT_FINDING.describe("")
                + "reduce length of secret names to 12 chars (R015 long secret names, warn)");
        assertThat(RunResults.tier(warnOnly, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void theTableAsAPseudoTerminalDeliversItIsReadTheSame() throws Exception {
        List<Row> rows = lint(ABRA, AbraFixtures.read("lint-r014-error-pty.constructed.txt"), 0);

        assertThat(faults(rows)).singleElement().asString().startsWith("R014-valid-tags: critical lint error");
    }

    @Test
    void withoutATerminalAbraStopsAndTheLintIsNotRunNotPassed() throws Exception {
        List<Row> rows = lint(ABRA, AbraFixtures.read("lint-fatal-no-tty.constructed.txt"), 1);

        assertThat(rows).containsExactly(Row.skipped(Tier.LINT, null, SkipKind.UNVERIFIED,
                AbraRecipeLint.NOT_RUN + "abra recipe lint exited 1: FATA inappropriate ioctl for device"));
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.UNVER);
    }

    @Test
    void aRecipeAbraCannotValidateIsOneFinding() throws Exception {
        List<Row> rows = lint(ABRA, AbraFixtures.read("lint-fatal-env-sample.constructed.txt"), 1);

        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.check()).isNull();
            assertThat(r.message()).startsWith(SkipKind.LINT_FINDING.describe("") + "abra cannot lint hedgedoc, the recipe itself is invalid:"
                    + " FATA unable to validate recipe: open /root/.abra/recipes/hedgedoc/.env.sample");
        });
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aFailedCommandWithoutATableIsOneNotRunMessageQuotingWhatAbraSaid() throws Exception {
        List<Row> crashed = lint(ABRA, "panic: runtime error: index out of range\n", 2);
        List<Row> unreadable = lint(ABRA, "INFO nothing to lint here\n", 0);

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

        List<Row> rows = lint(ABRA, changed, 0);

        assertThat(skipped(rows)).contains("R016-deploy-labels-present: not checked: the lint reported no rule"
                + " R016-deploy-labels-present (unver)");
        assertThat(faults(rows)).containsExactly(AbraRecipeLint.UNLISTED + ": critical lint error (abra would not deploy the"
                + " recipe): replace lightweight tags with annotated tags (R017 only annotated tags used for recipe version, error)");
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.FAIL);
    }

    @Test
    void underTheSwarmDriverTheEmbeddedRulesLintAndAbraIsNeverCalled() throws Exception {
        List<Row> rows = lint(SWARM, AbraFixtures.read("lint-r014-error.constructed.txt"), 0);

        assertThat(rows).extracting(Row::check).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(dir.resolve("fake-abra-log")).doesNotExist();
        assertThat(faults(rows)).extracting(f -> f.substring(0, f.indexOf(':')))
                .containsExactly("R002-healthchecks", "R007-metadata-filled-in");
    }

    @Test
    void theChecksAreKnownAtDiscoveryForEitherDriver() {
        RunSettings swarm = settings(SWARM);
        RunSettings abraRun = settings(ABRA);

        assertThat(new LintTier().checks(Drivers.of(swarm.driver()))).extracting(Check::name).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(new LintTier().checks()).extracting(Check::name).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(new LintTier().checks(Drivers.of(abraRun.driver()))).extracting(Check::name)
                .startsWith("R001-compose-version", "R002-healthchecks").contains("R016-deploy-labels-present", AbraRecipeLint.UNLISTED)
                .endsWith("ccci-config-versions").hasSize(17 + 6);
    }
}
