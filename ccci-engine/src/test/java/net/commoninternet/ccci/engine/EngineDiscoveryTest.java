package net.commoninternet.ccci.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.descriptor.RecipeRunDescriptor;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunBudget;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.DiscoveryIssue.Severity;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class EngineDiscoveryTest {

    /** The drivers discovery would find on this class path ({@link TestDrivers}). */
    private static final Set<String> DRIVERS = Set.of("swarm", "abra");

    @TempDir
    Path recipes;

    @BeforeEach
    void recipeFolder() throws IOException {
        Files.createDirectories(recipes.resolve("demo"));
        Files.createDirectories(recipes.resolve("custom-html"));
    }

    private EngineTestKit.Builder kit(DiscoverySelector selector, String... keyValues) {
        EngineTestKit.Builder kit = EngineTestKit.engine(CcciTestEngine.ID).selectors(selector)
                .configurationParameter(Constants.RECIPES, recipes.toString())
                .configurationParameter(Constants.STAGES, "install,upgrade,backup,restore,custom,lint");
        for (int i = 0; i < keyValues.length; i += 2) {
            kit.configurationParameter(keyValues[i], keyValues[i + 1]);
        }
        return kit;
    }

    private static List<String> ids(TestDescriptor root) {
        return root.getDescendants().stream().map(d -> d.getUniqueId().toString()).sorted().collect(Collectors.toList());
    }

    @Test
    void anchorClassPlusRecipeGivesOneRunWithEveryTierAndTheChecksOfImplementedTiers() {
        EngineDiscoveryResults results = kit(selectClass(Anchor.class), Constants.RECIPE, "demo").discover();

        assertThat(results.getDiscoveryIssues()).isEmpty();
        assertThat(ids(results.getEngineDescriptor())).containsExactly(
                "[engine:ccci]/[recipe:demo]",
                "[engine:ccci]/[recipe:demo]/[tier:backup]",
                "[engine:ccci]/[recipe:demo]/[tier:backup]/[check:settled]",
                "[engine:ccci]/[recipe:demo]/[tier:backup]/[check:verified]",
                "[engine:ccci]/[recipe:demo]/[tier:custom]",
                "[engine:ccci]/[recipe:demo]/[tier:install]",
                "[engine:ccci]/[recipe:demo]/[tier:install]/[check:fails]",
                "[engine:ccci]/[recipe:demo]/[tier:install]/[check:passes]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]/[check:clean]",
                "[engine:ccci]/[recipe:demo]/[tier:restore]",
                "[engine:ccci]/[recipe:demo]/[tier:upgrade]");
        TestDescriptor run = results.getEngineDescriptor().getChildren().iterator().next();
        assertThat(run.getSource()).contains(ClassSource.from(Anchor.class));
    }

    @Test
    void shortRecipeKeyWorksLikeTheLongOne() {
        EngineDiscoveryResults results = kit(selectClass(Anchor.class), Constants.RECIPE_SHORT, "custom-html").discover();

        assertThat(ids(results.getEngineDescriptor())).contains("[engine:ccci]/[recipe:custom-html]");
    }

    @Test
    void stagesSelectTiers() {
        EngineDiscoveryResults results = kit(selectClass(Anchor.class), Constants.RECIPE, "demo",
                Constants.STAGES, "lint, install").discover();

        assertThat(ids(results.getEngineDescriptor())).containsExactly(
                "[engine:ccci]/[recipe:demo]",
                "[engine:ccci]/[recipe:demo]/[tier:install]",
                "[engine:ccci]/[recipe:demo]/[tier:install]/[check:fails]",
                "[engine:ccci]/[recipe:demo]/[tier:install]/[check:passes]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]/[check:clean]");
    }

    @Test
    void aTiersChecksFollowTheRunsDriver() {
        EngineDiscoveryResults results = kit(selectClass(Anchor.class), Constants.RECIPE, "demo",
                Constants.STAGES, "lint", Constants.DRIVER, "abra").discover();

        assertThat(results.getDiscoveryIssues()).isEmpty();
        assertThat(ids(results.getEngineDescriptor())).containsExactly(
                "[engine:ccci]/[recipe:demo]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]/[check:abra-clean]");
        String abraCheck = "[engine:ccci]/[recipe:demo]/[tier:lint]/[check:abra-clean]";
        assertThat(ids(kit(selectUniqueId(abraCheck), Constants.DRIVER, "abra").discover().getEngineDescriptor()))
                .contains(abraCheck);
        assertThat(firstError(kit(selectUniqueId(abraCheck))).message()).contains("has no check 'abra-clean'");
    }

    @Test
    void uniqueIdsRoundTrip() {
        TestDescriptor full = kit(selectClass(Anchor.class), Constants.RECIPE, "demo").discover().getEngineDescriptor();
        for (TestDescriptor node : full.getDescendants()) {
            String id = node.getUniqueId().toString();
            EngineDiscoveryResults again = EngineTestKit.engine(CcciTestEngine.ID).selectors(selectUniqueId(id))
                    .configurationParameter(Constants.RECIPES, recipes.toString()).discover();

            assertThat(again.getDiscoveryIssues()).as(id).isEmpty();
            assertThat(ids(again.getEngineDescriptor())).as(id).contains(id);
        }
    }

    @Test
    void aTierIdSelectsThatTierOnlyEvenOutsideTheConfiguredStages() {
        EngineDiscoveryResults results = kit(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:lint]"),
                Constants.STAGES, "install").discover();

        assertThat(ids(results.getEngineDescriptor())).containsExactly(
                "[engine:ccci]/[recipe:demo]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]",
                "[engine:ccci]/[recipe:demo]/[tier:lint]/[check:clean]");
    }

    @Test
    void aCheckIdSelectsThatCheckOnly() {
        EngineDiscoveryResults results = kit(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:install]/[check:passes]")).discover();

        assertThat(ids(results.getEngineDescriptor())).containsExactly(
                "[engine:ccci]/[recipe:demo]",
                "[engine:ccci]/[recipe:demo]/[tier:install]",
                "[engine:ccci]/[recipe:demo]/[tier:install]/[check:passes]");
    }

    @Test
    void twoTierIdsOfOneRecipeShareOneRun() {
        EngineDiscoveryResults results = EngineTestKit.engine(CcciTestEngine.ID)
                .selectors(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:install]"),
                        selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:lint]"))
                .configurationParameter(Constants.RECIPES, recipes.toString()).discover();

        assertThat(results.getEngineDescriptor().getChildren()).hasSize(1);
        assertThat(results.getEngineDescriptor().getChildren().iterator().next().getChildren()).hasSize(2);
    }

    @Test
    void noRecipeMeansNoRunAndAHint() {
        EngineDiscoveryResults results = kit(selectClass(Anchor.class)).discover();

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(results.getDiscoveryIssues()).singleElement().satisfies(issue -> {
            assertThat(issue.severity()).isEqualTo(Severity.INFO);
            assertThat(issue.message()).contains("-Drecipe=<name>");
        });
    }

    /** {@code mvn test -Drecipe=$RECIPE} with RECIPE unset: one error, whatever is selected, never a run of nothing. */
    @Test
    void aRecipeKeyGivenButEmptyIsOneErrorForAnySelection() {
        for (String key : List.of(Constants.RECIPE_SHORT, Constants.RECIPE)) {
            for (String blank : List.of("", "  ")) {
                for (EngineTestKit.Builder kit : List.of(kit(selectClass(Anchor.class), key, blank),
                        kit(selectClass(String.class), key, blank))) {
                    assertThat(singleError(kit).message()).as(key + "='" + blank + "'").isEqualTo("-D" + key
                            + "= was given but names no recipe: pass -Drecipe=<name>, e.g. -Drecipe=custom-html (a CI job"
                            + " whose RECIPE variable is empty would otherwise test nothing and pass), or leave it out to"
                            + " run ccci's own tests.");
                }
            }
        }
    }

    @Test
    void theDeadlineIsBoundedSoAHugeValueCannotDisableIt() {
        for (String bad : List.of("0", "-5", "86401", "9223372036854775807")) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEADLINE, bad))
                    .message()).as(bad).contains(Constants.DEADLINE + "=" + bad + " is out of bounds",
                    "from 1 to 86400");
        }
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEADLINE, "86400"))
                .options().deadline()).hasSeconds(86400);
    }

    @Test
    void theHookTimeoutIsBoundedAndDefaultsToTenMinutes() {
        for (String bad : new String[] {"0", "3601", "9223372036854775807", "soon"}) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.HOOK_TIMEOUT, bad))
                    .message()).as(bad).contains(Constants.HOOK_TIMEOUT);
        }
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.HOOK_TIMEOUT, "3"))
                .options().trust().hookTimeout()).hasSeconds(3);
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().hookTimeout())
                .isEqualTo(RunSettings.HostTrust.DEFAULT_HOOK_TIMEOUT).hasMinutes(10);
    }

    /** ccci.upgrade-from: a known key, its four forms read, anything else one sentence naming the forms. */
    @Test
    void theUpgradeBasesAreReadInTheirFourFormsAndDefaultToThePreviousRelease() {
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).subject().upgradeFrom())
                .isEqualTo(UpgradeFrom.PREVIOUS);
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.UPGRADE_FROM, "last:3"))
                .subject().upgradeFrom()).isEqualTo(new UpgradeFrom(UpgradeFrom.Kind.LAST, 3, List.of()));
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.UPGRADE_FROM, "ALL"))
                .subject().upgradeFrom().kind()).isEqualTo(UpgradeFrom.Kind.ALL);
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.UPGRADE_FROM,
                "1.0.0+1.25, 1.1.0+1.25")).subject().upgradeFrom().releases()).containsExactly("1.0.0+1.25", "1.1.0+1.25");
        for (String bad : List.of("last:0", "last:21", "last:x", "", "1.0.0,--upload-pack=x", "../1.0.0", "1.0.0,,1.1.0")) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.UPGRADE_FROM, bad))
                    .message()).as(bad).startsWith(Constants.UPGRADE_FROM + "='").contains("pass previous (the default), last:N");
        }
    }

    /** The host's bounds on a run: each within its range (zero, or one too large, would disable it), defaults as documented. */
    @Test
    void theRunsBoundsAreBoundedAndDefaultToTwentyMinutesFifteenMinutesAndAHundredMebibytes() {
        for (String key : List.of(Constants.RUN_BUDGET, Constants.MAX_DEPLOY_TIMEOUT, Constants.FETCH_MAX_BYTES,
                Constants.FETCH_MAX_FILES)) {
            for (String bad : List.of("0", "-5", "9223372036854775807", "soon")) {
                assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", key, bad)).message())
                        .as(key + "=" + bad).startsWith(key + "=").contains("pass a number of");
            }
        }
        RunSettings.Bounds set = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.RUN_BUDGET, "60",
                Constants.MAX_DEPLOY_TIMEOUT, "30", Constants.FETCH_MAX_BYTES, "4096", Constants.FETCH_MAX_FILES, "7"))
                .options().trust().bounds();
        assertThat(set).isEqualTo(new RunSettings.Bounds(Duration.ofSeconds(60), Duration.ofSeconds(30), 4096, 7));
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().bounds())
                .isEqualTo(RunSettings.Bounds.DEFAULT)
                .isEqualTo(new RunSettings.Bounds(Duration.ofMinutes(20), Duration.ofMinutes(15), 100L << 20, 10_000));
    }

    /** keep-on-failure: off unless given; seconds, minutes or hours; over the host's most it is clamped, said at the keep. */
    @Test
    void keepOnFailureIsOffUnlessGivenReadsSecondsMinutesOrHoursAndIsBoundedByTheHostsMost() {
        RunSettings.Keep off = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().bounds().keep();
        assertThat(off.on()).isFalse();
        assertThat(off.max()).hasHours(1);
        for (String[] given : new String[][] {{"90", "90"}, {"30m", "1800"}, {"1h", "3600"}, {" 45s ", "45"}}) {
            RunSettings.Keep keep = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.KEEP_ON_FAILURE,
                    given[0])).options().trust().bounds().keep();
            assertThat(keep.on()).isTrue();
            assertThat(keep.duration()).as(given[0]).hasSeconds(Long.parseLong(given[1]));
        }
        RunSettings.Keep clamped = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.KEEP_ON_FAILURE,
                "2h", Constants.KEEP_ON_FAILURE_MAX, "30m")).options().trust().bounds().keep();
        assertThat(clamped.clamped()).isTrue();
        assertThat(clamped.duration()).hasMinutes(30);
        for (String key : List.of(Constants.KEEP_ON_FAILURE, Constants.KEEP_ON_FAILURE_MAX)) {
            for (String bad : List.of("0", "2d", "-5", "soon", "25h", "1.5h")) {
                assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", key, bad)).message())
                        .as(key + "=" + bad).isEqualTo(key + "='" + bad + "' is not a duration from 1 s to 24 h: pass seconds,"
                                + " or minutes or hours with m or h, for example -D" + key + "=30m.");
            }
        }
    }

    @Test
    void theLeaseTimesAreBoundedAndTheHeartbeatFitsSeveralTimesInTheTtl() {
        for (String bad : List.of("2", "3601", "x")) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.LEASE_TTL, bad))
                    .message()).as(bad).contains(Constants.LEASE_TTL);
        }
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.LEASE_TTL, "20",
                Constants.LEASE_HEARTBEAT, "6")).message())
                .contains(Constants.LEASE_HEARTBEAT + "=6 does not fit " + Constants.LEASE_TTL + "=20", "from 1 to a quarter");
        RunSettings.Lease lease = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.LEASE_TTL, "20",
                Constants.LEASE_HEARTBEAT, "5")).options().lease();
        assertThat(lease.ttl()).hasSeconds(20);
        assertThat(lease.heartbeat()).hasSeconds(5);
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().lease())
                .isEqualTo(RunSettings.Lease.DEFAULT);
    }

    /**
     * One run's share of the host is the host's: each ccci.budget key in units a person writes, its
     * default docs/security.md's, a value out of its bounds one sentence naming the key and an example.
     */
    @Test
    void theRunBudgetIsTheHostsEachKeyBoundedWithItsDefault() {
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().budget())
                .isEqualTo(RunBudget.DEFAULT);
        RunBudget set = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.BUDGET_MEMORY, "12g",
                Constants.BUDGET_PIDS, "8192", Constants.BUDGET_CPUS, "1.5", Constants.BUDGET_TASKS, "10",
                Constants.BUDGET_DISK, "1.5GiB", Constants.BUDGET_LOG_MAX_SIZE, "512k", Constants.BUDGET_LOG_MAX_FILE, "2"))
                .options().trust().budget();
        assertThat(set).isEqualTo(new RunBudget(new RunBudget.Limits(12L << 30, 8192, 1.5, 10), 3L << 29,
                new RunBudget.Logs(512L << 10, 2)));
        Map<String, String> bad = Map.of(Constants.BUDGET_MEMORY, "1m", Constants.BUDGET_PIDS, "lots", Constants.BUDGET_CPUS,
                "-1", Constants.BUDGET_TASKS, "0", Constants.BUDGET_DISK, "8 elephants", Constants.BUDGET_LOG_MAX_SIZE, "2g",
                Constants.BUDGET_LOG_MAX_FILE, "101");
        bad.forEach((key, value) -> assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", key, value))
                .message()).as(key).startsWith(key + "='" + value + "' is not ").contains("-D" + key + "="));
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.BUDGET_MEMORY, "1m"))
                .message()).isEqualTo(Constants.BUDGET_MEMORY + "='1m' is not a size from 64 MiB to 1 PiB: pass bytes or a"
                        + " binary unit, for example -D" + Constants.BUDGET_MEMORY + "=8g (the default).");
    }

    /** The run-app namespace: a domain suffix of DNS labels, refused in one sentence otherwise (no run app could match it). */
    @Test
    void theDomainSuffixIsADomainAndDefaultsToTheProductionOne() {
        for (String bad : List.of("CI.example.org", "ci_example.org", ".ci.example.org", "ci..example.org", "ci.example.org.",
                "-ci.example.org", "a".repeat(41))) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DOMAIN_SUFFIX, bad))
                    .message()).as("'" + bad + "'").contains(Constants.DOMAIN_SUFFIX + " / CCCI_DOMAIN_SUFFIX='" + bad
                            + "' is not a domain suffix", "or unset it for ci.commoninternet.net.");
        }
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DOMAIN_SUFFIX,
                "f1.ci.commoninternet.net")).paths().domainSuffix()).isEqualTo("f1.ci.commoninternet.net");
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).paths().domainSuffix())
                .isEqualTo(Constants.DEFAULT_DOMAIN_SUFFIX).isEqualTo("ci.commoninternet.net");
    }

    @Test
    void aLockOrRunsFolderThatIsAFileIsOneErrorAndNothingIsCreated(@TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
        for (String key : List.of(Constants.APP_LOCK_DIR, Constants.RUNS_DIR)) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", key, file.toString()))
                    .message()).as(key).contains(key + " / ", "points at " + file + ", which is a file, not a folder");
        }
        assertThat(file).hasContent("x");
    }

    @Test
    void classesWithoutTheAnchorAnnotationAreNotOurs() {
        EngineDiscoveryResults results = kit(selectClass(String.class), Constants.RECIPE, "demo").discover();

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(results.getDiscoveryIssues()).isEmpty();
    }

    @Test
    void unknownRecipeIsOneErrorNamingTheChoices() {
        DiscoveryIssue issue = singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "custom-htm"));

        assertThat(issue.message()).contains("recipe 'custom-htm' not found", "available are custom-html, demo",
                "Did you mean 'custom-html'?");
    }

    @Test
    void pathLikeRecipeNamesAreRefused() {
        for (String bad : List.of("../../etc", "a/b", "..", "Custom", "x y", "")) {
            EngineTestKit.Builder kit = kit(selectClass(Anchor.class), Constants.RECIPE, bad);
            if (bad.isEmpty()) {
                assertThat(kit.discover().getEngineDescriptor().getChildren()).isEmpty();
                continue;
            }
            assertThat(singleError(kit).message()).as(bad).contains("is not a recipe name", "-Drecipe=custom-html");
        }
    }

    @Test
    void unknownStageIsOneErrorWithASuggestion() {
        DiscoveryIssue issue = singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.STAGES, "instal"));

        assertThat(issue.message()).contains("unknown stage 'instal'", "Did you mean 'install'?");
    }

    @Test
    void unknownTierInAUniqueIdIsOneError() {
        DiscoveryIssue issue = firstError(kit(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:upgarde]")));

        assertThat(issue.message()).contains("unknown tier 'upgarde'", "Did you mean 'upgrade'?");
    }

    @Test
    void unknownCheckInAUniqueIdIsOneError() {
        DiscoveryIssue issue = firstError(kit(selectUniqueId("[engine:ccci]/[recipe:demo]/[tier:install]/[check:pass]")));

        assertThat(issue.message()).contains("has no check 'pass'", "Did you mean 'passes'?");
    }

    @Test
    void badNumbersAndDriverAreErrors() {
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.PR, "x")).message())
                .contains("ccci.pr='x' is not a number");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DRIVER, "swarn")).message())
                .contains("unknown driver 'swarn'", "Did you mean 'swarm'?");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.RUN_ID, "../x")).message())
                .contains("run id '../x' is not usable as a folder name");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.SKIP_FETCH, "yes")).message())
                .contains("ccci.skip-fetch/CCCI_SKIP_FETCH='yes' is not a switch");
    }

    private static final String D1 = "sha256:" + "a1".repeat(32);
    private static final String D2 = "sha256:" + "b2".repeat(32);

    @Test
    void approvedRecipesAreDigestsOfReviewedCodeAndSayWhetherThisRecipesCodeMayRun() {
        RunSettings approved = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo",
                Constants.APPROVED_RECIPES, " custom-html@" + D1 + ", demo@" + D2.toUpperCase().replace("SHA256", "sha256")
                        + " ,,demo@" + D1));
        RunSettings other = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo",
                Constants.APPROVED_RECIPES, "custom-html@" + D1));
        RunSettings none = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo"));

        assertThat(approved.approvedDigests()).containsExactlyInAnyOrder(D1, D2);
        assertThat(approved.options().trust().approvedDigests("custom-html")).containsExactly(D1);
        assertThat(approved.recipeCodeApproved()).isTrue();
        assertThat(other.recipeCodeApproved()).isFalse();
        assertThat(none.options().approvedRecipes()).isEmpty();
        assertThat(none.recipeCodeApproved()).isFalse();
    }

    /** A name alone approves whatever the next pull request puts in the recipe's CI code: refused, naming the form. */
    @Test
    void anApprovalByNameAloneOrABadEntryIsOneErrorNamingTheForm() {
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.APPROVED_RECIPES,
                "custom-html")).message()).isEqualTo("'custom-html' in ccci.approved-recipes approves the recipe's own CI"
                        + " code by its name alone, which binds nothing to what was reviewed: write custom-html@sha256:<digest>"
                        + " with the digest a run of custom-html logs for its compose.ccci.yml and install_steps.sh (in the"
                        + " recipe: sha256sum compose.ccci.yml install_steps.sh 2>/dev/null | sha256sum).");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.APPROVED_RECIPES,
                "custom-html@" + D1 + ", ../demo@" + D1)).message()).startsWith("'../demo' in ccci.approved-recipes is not a"
                        + " recipe name");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.APPROVED_RECIPES,
                "demo@sha256:abc")).message()).startsWith("'demo@sha256:abc' in ccci.approved-recipes is not"
                        + " <recipe>@sha256:<64 hex digits>");
    }

    @Test
    void theApprovedListIsReadFromTheEnvironmentWhenTheKeyIsUnsetAndTheKeyWins() {
        Map<String, String> config = Map.of(Constants.RECIPES, recipes.toString());
        Map<String, String> env = Map.of("CCCI_APPROVED_RECIPES", "demo@" + D1 + ",custom-html@" + D2);

        SettingsReader fromEnv = new SettingsReader(new MapParameters(config), env, 1, DRIVERS);
        assertThat(fromEnv.read("demo")).get().satisfies(s -> {
            assertThat(s.options().approvedRecipes()).containsExactlyInAnyOrder("demo@" + D1, "custom-html@" + D2);
            assertThat(s.recipeCodeApproved()).isTrue();
        });

        Map<String, String> keyToo = new HashMap<>(config);
        keyToo.put(Constants.APPROVED_RECIPES, "custom-html@" + D2);
        assertThat(new SettingsReader(new MapParameters(keyToo), env, 1, DRIVERS).read("demo"))
                .get().extracting(s -> s.options().approvedRecipes()).isEqualTo(Set.of("custom-html@" + D2));

        SettingsReader bad = new SettingsReader(new MapParameters(config), Map.of("CCCI_APPROVED_RECIPES", "Demo@" + D1), 1,
                DRIVERS);
        assertThat(bad.read("demo")).isEmpty();
        assertThat(bad.problems()).singleElement().satisfies(p -> assertThat(p).startsWith("'Demo' in ccci.approved-recipes"));
    }

    @Test
    void aRefGitCouldReadAsAnOptionOrAPathIsRefusedAtDiscovery() {
        for (String ref : List.of("--pathspec-from-file=/etc/hostname", "-q", "HEAD:compose.yml", "../x", "/etc/passwd",
                "main\nv1", "a b", "v1..v2", "main.lock", "refs//x", "x\u0007")) {
            DiscoveryIssue issue = singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.REF, ref));
            assertThat(issue.message()).as(ref).contains("is not a plain git ref: name a branch, a tag or a commit id")
                    .doesNotContain("\n").doesNotContain("\u0007");
        }
        for (String ref : List.of("main", "v1.2.0+1.22.1", "feature/x-y", "0123456789abcdef", "HEAD~1", "HEAD^", "1.0.0_rc")) {
            assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.REF, ref)).subject().ref())
                    .as(ref).isEqualTo(ref);
        }
    }

    @Test
    void theDeployAllowanceIsReadFromTheConfigurationOnlyEntryByEntry() {
        RunSettings allowed = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE,
                "demo:volumes=/var/run/docker.sock, demo:ports ,traefik:cap_add=NET_ADMIN"));
        DeployAllowance allowance = allowed.options().trust().deployAllowance();

        assertThat(allowance.of("demo")).extracting(Object::toString).containsExactly("demo:ports", "demo:volumes=/var/run/docker.sock");
        assertThat(allowance.allowing("demo", "volumes", "/var/run/docker.sock")).isPresent();
        assertThat(allowance.allowing("demo", "volumes", "/")).isEmpty();
        assertThat(allowance.allowing("demo", "ports", "443")).isPresent();
        assertThat(allowance.allowing("other", "ports", "443")).isEmpty();
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().deployAllowance())
                .isEqualTo(DeployAllowance.NONE);
        // never from the environment: a pipeline file in a repository can set that
        SettingsReader fromEnv = new SettingsReader(new MapParameters(Map.of(Constants.RECIPES, recipes.toString())),
                Map.of("CCCI_DEPLOY_ALLOWANCE", "demo:volumes", "ccci.deploy-allowance", "demo:volumes"), 1, DRIVERS);
        assertThat(fromEnv.read("demo")).get().extracting(s -> s.options().trust().deployAllowance())
                .isEqualTo(DeployAllowance.NONE);

        for (String bad : List.of("demo", "demo:rm-rf", "demo:volumes=", "../x:volumes")) {
            assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE, bad))
                    .message()).as(bad).contains("in ccci.deploy-allowance is not <recipe>:<key>[=<value>]");
        }
    }

    /** The operator's file: read only if root alone can have written it; its entries join the -D key's. */
    @Test
    void theDeployAllowanceFileIsReadOnlyIfItIsRootsAloneAndRefusedInOneSentenceOtherwise(@TempDir Path etc)
            throws Exception {
        Path folder = Files.createDirectories(etc.resolve("ccci"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path file = Files.writeString(folder.resolve("deploy-allowance"),
                "# the proxy needs the socket\n\ntraefik:volumes=/var/run/docker.sock\n  demo:ports  \n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        DeployAllowance allowance = settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo",
                Constants.DEPLOY_ALLOWANCE_FILE, file.toString(), Constants.DEPLOY_ALLOWANCE, "demo:cap_add=NET_ADMIN"))
                .options().trust().deployAllowance();
        assertThat(allowance.of("demo")).extracting(Object::toString).containsExactly("demo:cap_add=NET_ADMIN", "demo:ports");
        assertThat(allowance.of("traefik")).extracting(Object::toString).containsExactly("traefik:volumes=/var/run/docker.sock");
        assertThat(allowance.source()).isEqualTo("-Dccci.deploy-allowance and the file " + file);

        // absent at the default path: nothing, silently; named but absent: one sentence
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo")).options().trust().deployAllowance()
                .source()).isEqualTo("-Dccci.deploy-allowance");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE_FILE,
                etc.resolve("none").toString())).message()).isEqualTo(Constants.DEPLOY_ALLOWANCE_FILE + "=" + etc.resolve("none")
                + " does not exist: create it (root's, mode 0644 or stricter) or leave the key out.");

        // a bad line names its line
        Files.writeString(file, "traefik:rm-rf\n");
        assertThat(singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE_FILE,
                file.toString())).message()).startsWith("'traefik:rm-rf' in " + file + " line 1 is not <recipe>:<key>[=<value>]");
        Files.writeString(file, "demo:ports\n");

        // anyone but root could have written it: refused, never read
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
        assertThat(refusal(file)).contains("the file " + file + " is group-writable");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--rw-"));
        assertThat(refusal(file)).contains("the file " + file + " is world-writable");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setAttribute(file, "unix:uid", 65534);
        assertThat(refusal(file)).contains("the file " + file + " is owned by uid 65534, not root");
        Files.setAttribute(file, "unix:uid", 0);
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(refusal(file)).contains("the folder " + folder + " is group-writable");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path link = Files.createSymbolicLink(folder.resolve("link"), file);
        assertThat(refusal(link)).contains(link + " is a symbolic link");
        Path dir = Files.createDirectories(folder.resolve("dir"));
        assertThat(refusal(dir)).contains(dir + " is not a regular file");
        assertThat(settings(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE_FILE,
                file.toString())).options().trust().deployAllowance().of("demo")).hasSize(1);
    }

    private String refusal(Path file) {
        String message = singleError(kit(selectClass(Anchor.class), Constants.RECIPE, "demo", Constants.DEPLOY_ALLOWANCE_FILE,
                file.toString())).message();
        assertThat(message).startsWith("the deploy allowance file " + file + " is refused, not read: ")
                .endsWith("; it must be a regular file owned by root and writable by root alone, in a folder of root's"
                        + " (chown root:root, chmod go-w).").doesNotContain("\n");
        return message;
    }

    private static RunSettings settings(EngineTestKit.Builder kit) {
        EngineDiscoveryResults results = kit.discover();
        assertThat(results.getDiscoveryIssues()).isEmpty();
        return ((RecipeRunDescriptor) results.getEngineDescriptor().getChildren().iterator().next()).settings();
    }

    /** Configuration parameters from a map, for reading settings without the launcher. */
    private record MapParameters(Map<String, String> values) implements ConfigurationParameters {
        @Override
        public Optional<String> get(String key) {
            return Optional.ofNullable(values.get(key));
        }

        @Override
        public Optional<Boolean> getBoolean(String key) {
            return get(key).map(Boolean::parseBoolean);
        }

        @Override
        public Set<String> keySet() {
            return values.keySet();
        }
    }

    /**
     * For a unique id, JUnit itself adds a generic "could not be resolved" after ours (a
     * resolver cannot claim a selector without matching it): ours must come first.
     */
    private static DiscoveryIssue firstError(EngineTestKit.Builder kit) {
        EngineDiscoveryResults results = kit.discover();
        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        List<DiscoveryIssue> issues = results.getDiscoveryIssues();
        assertThat(issues).hasSizeBetween(1, 2);
        assertThat(issues).allMatch(i -> i.severity() == Severity.ERROR);
        return issues.get(0);
    }

    private static DiscoveryIssue singleError(EngineTestKit.Builder kit) {
        EngineDiscoveryResults results = kit.discover();
        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        List<DiscoveryIssue> issues = results.getDiscoveryIssues();
        assertThat(issues).hasSize(1);
        assertThat(issues.get(0).severity()).isEqualTo(Severity.ERROR);
        return issues.get(0);
    }
}
