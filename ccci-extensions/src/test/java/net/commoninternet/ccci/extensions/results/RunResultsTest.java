package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.results.RunResults.Rung;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.RunRecord.Row;
import net.commoninternet.ccci.spi.RunRecord.Status;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.spi.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunResultsTest {

    @TempDir
    Path runDir;

    private static Row pass(Tier tier) {
        return Row.passed(tier, "check");
    }

    @Test
    void levelIsTheHighestPassingRungWithEveryRungBelowPassOrSkip() {
        assertThat(RunResults.level(Map.of(Rung.INSTALL, Verdict.PASS, Rung.UPGRADE, Verdict.SKIP,
                Rung.BACKUP_RESTORE, Verdict.PASS, Rung.FUNCTIONAL, Verdict.UNVER, Rung.LINT, Verdict.PASS))).isEqualTo(3);
        assertThat(RunResults.level(Map.of(Rung.INSTALL, Verdict.FAIL, Rung.UPGRADE, Verdict.PASS,
                Rung.BACKUP_RESTORE, Verdict.PASS, Rung.FUNCTIONAL, Verdict.PASS, Rung.LINT, Verdict.PASS))).isZero();
        assertThat(RunResults.level(Map.of(Rung.INSTALL, Verdict.PASS, Rung.UPGRADE, Verdict.PASS,
                Rung.BACKUP_RESTORE, Verdict.PASS, Rung.FUNCTIONAL, Verdict.PASS, Rung.LINT, Verdict.PASS))).isEqualTo(5);
        assertThat(RunResults.level(Map.of(Rung.INSTALL, Verdict.SKIP, Rung.UPGRADE, Verdict.SKIP,
                Rung.BACKUP_RESTORE, Verdict.SKIP, Rung.FUNCTIONAL, Verdict.SKIP, Rung.LINT, Verdict.SKIP))).isZero();
    }

    @Test
    void tierVerdictsDistinguishStructuralSkipsFromUnverifiedTiers() {
        List<Row> rows = List.of(pass(Tier.INSTALL), Row.failed(Tier.INSTALL, "other", "boom"),
                Row.skipped(Tier.UPGRADE, null, SkipKind.STRUCTURAL, "structural skip: no release older than the head"),
                Row.skipped(Tier.CUSTOM, null, SkipKind.UNVERIFIED, "tier custom has no implementation on the class path (unver)"),
                pass(Tier.BACKUP));

        Map<Rung, Verdict> rungs = RunResults.rungs(rows);

        assertThat(rungs).containsEntry(Rung.INSTALL, Verdict.FAIL).containsEntry(Rung.UPGRADE, Verdict.SKIP)
                .containsEntry(Rung.FUNCTIONAL, Verdict.UNVER).containsEntry(Rung.LINT, Verdict.UNVER)
                .containsEntry(Rung.BACKUP_RESTORE, Verdict.UNVER);
    }

    @Test
    void aLintFindingFailsTheLintRungWithoutFailingAnyCheck() {
        List<Row> rows = List.of(pass(Tier.INSTALL), Row.passed(Tier.LINT, "compose-parses"),
                Row.skipped(Tier.LINT, "healthchecks", SkipKind.LINT_FINDING, SkipKind.LINT_FINDING.describe("services without a healthcheck: app")));

        assertThat(RunResults.rungs(rows)).containsEntry(Rung.LINT, Verdict.FAIL);
    }

    @Test
    void resultsJsonCarriesTheRunTheRowsTheRungsTheLevelAndTheFlags() throws Exception {
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.skipped(Tier.UPGRADE, null, SkipKind.STRUCTURAL, "structural skip: no release older than the head"));
        RunResults.Run run = new RunResults.Run(
                new RunResults.Tested("demo", "1.0.0+1", "abc123", "demo-abcdef.ci.commoninternet.net"), 7, "42",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of("s3cret-value-xyz"), Map.of()));

        Path file = RunResults.write(runDir, run, record);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("recipe").asText()).isEqualTo("demo");
        assertThat(json.get("pr").asInt()).isEqualTo(7);
        assertThat(json.get("run_id").asText()).isEqualTo("42");
        assertThat(json.get("level").asInt()).isEqualTo(1);
        assertThat(json.get("rungs").get("upgrade").asText()).isEqualTo("skip");
        assertThat(json.get("tests")).hasSize(2);
        assertThat(json.get("skips").get(0).get("message").asText()).startsWith("structural skip");
        assertThat(json.get("flags").get("clean_teardown").asBoolean()).isTrue();
        assertThat(json.get("flags").get("no_secret_leak").asBoolean()).isTrue();
        assertThat(Files.readString(file)).doesNotContain("s3cret-value-xyz");
        assertThat(runDir.resolve("results.json.next")).doesNotExist();
        assertThat(json.get("schema_version").asInt()).isEqualTo(RunResults.SCHEMA_VERSION).isEqualTo(4);
        assertThat(json.get("skips").get(0).get("skip").asText()).isEqualTo("structural");
        assertThat(json.get("tests").get(0).get("skip").isNull()).isTrue();
        assertThat(json.get("verdict").asText()).isEqualTo("passed");
        assertThat(json.get("counts").toString()).isEqualTo("{\"passed\":1,\"failed\":0,\"skipped\":1,\"unverified\":0}");
        assertThat(json.get("next_level").get("level").asInt()).isEqualTo(2);
        assertThat(json.get("next_level").get("rung").asText()).isEqualTo("upgrade");
        assertThat(json.get("next_level").get("why").asText()).isEqualTo("upgrade: structural skip: no release older than the head");
        assertThat(json.get("upgrade").get("base").isNull()).isTrue();
        assertThat(json.get("environment").get("ccci_version").asText()).as("the build's version, filtered in")
                .isNotEqualTo("unknown").doesNotStartWith("${");
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains("### ccci: `demo` `1.0.0+1` — level 1, passed");
    }

    /**
     * A check tried again on the live app carries its attempts and its outcome, in the outcome's own
     * words ({@code flaky}, {@code deterministic}), in results.json (valid against its schema), report.html,
     * summary.md and the RUN SUMMARY.
     */
    @Test
    void aFlakyAndADeterministicCheckCarryTheirAttemptsAndOutcomeIntoEveryReport() throws Exception {
        RunRecord record = new RunRecord();
        record.add(Row.passed(Tier.INSTALL, "serves-http").withAttempts(List.of(
                new RunRecord.Attempt(1, 3, Status.FAILED, "GET / answered 502"), new RunRecord.Attempt(2, 3, Status.PASSED, null))));
        record.add(Row.failed(Tier.INSTALL, null, "flaky: serves-http passed on attempt 2 of 3 (attempt 1: GET / answered 502)."));
        record.add(Row.failed(Tier.UPGRADE, "moved-to-head", "the app did not move").withAttempts(List.of(
                new RunRecord.Attempt(1, 3, Status.FAILED, "the app did not move"),
                new RunRecord.Attempt(2, 3, Status.FAILED, "the app did not move"),
                new RunRecord.Attempt(3, 3, Status.FAILED, "the app did not move"))));
        record.add(pass(Tier.UPGRADE));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.0.0+1", "abc", "demo-abcdef.ci.commoninternet.net"),
                0, "9", EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(), Map.of()));

        Path file = RunResults.write(runDir, run, record);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        JsonNode flaky = json.get("tests").get(0);
        assertThat(flaky.get("status").asText()).isEqualTo("passed");
        assertThat(flaky.get("outcome").asText()).isEqualTo("flaky");
        assertThat(flaky.get("attempts").toString()).isEqualTo("[{\"attempt\":1,\"of\":3,\"status\":\"failed\","
                + "\"message\":\"GET / answered 502\"},{\"attempt\":2,\"of\":3,\"status\":\"passed\",\"message\":null}]");
        assertThat(json.get("tests").get(2).get("outcome").asText()).isEqualTo("deterministic");
        assertThat(json.get("tests").get(2).get("attempts")).hasSize(3);
        assertThat(json.get("tests").get(3).get("outcome").isNull()).isTrue();
        assertThat(json.get("tests").get(3).get("attempts")).isEmpty();
        assertThat(json.get("rungs").get("install").asText()).as("the flaky check failed its tier").isEqualTo("fail");
        try (var in = RunResults.class.getResourceAsStream("results.schema.json")) {
            assertThat(com.networknt.schema.SchemaRegistry.withDefaultDialect(com.networknt.schema.SpecificationVersion.DRAFT_2020_12)
                    .getSchema(in).validate(Files.readString(file), com.networknt.schema.InputFormat.JSON)).isEmpty();
        }
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("passed (flaky: passed on attempt 2 of 3)",
                "attempt 1 of 3: failed — GET / answered 502", "failed (deterministic: failed 3 of 3 attempts)");
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains("**Flaky checks**",
                "- `install > serves-http`: flaky: passed on attempt 2 of 3; attempt 1: `GET / answered 502`",
                "- `upgrade > moved-to-head`: `the app did not move` (deterministic: failed 3 of 3 attempts)");
        assertThat(String.join("\n", RunResults.summary(run, record, "here", "0123456789abcdef"))).contains(
                "  install > serves-http: flaky: passed on attempt 2 of 3 — attempt 1: GET / answered 502",
                "  upgrade > moved-to-head: failed (deterministic: failed 3 of 3 attempts) — the app did not move");
    }

    /** Where a run ran and what it upgraded from reach results.json, the report and summary.md. */
    @Test
    void theUpgradesBaseAndHeadAndTheEnvironmentAreInTheResultsTheReportAndTheSummary() throws Exception {
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(pass(Tier.UPGRADE));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.1.0+1", "abc", "demo-abcdef.ci.commoninternet.net",
                new RunResults.Upgrade("1.0.0+1", "1.1.0+1", "upgrade from 1.0.0+1")), 0, "1", EnumSet.of(Tier.INSTALL, Tier.UPGRADE),
                new RunResults.Evidence(true, List.of(), Map.of(), new net.commoninternet.ccci.spi.RunTimeline(),
                        new RunResults.Environment("abra", new net.commoninternet.ccci.extensions.docker.DockerEngine.Facts(
                                "20.10.24+dfsg1", 3, "runsc", "/usr/bin/runsc"))));

        JsonNode json = new ObjectMapper().readTree(RunResults.write(runDir, run, record).toFile());

        assertThat(json.get("upgrade").toString()).isEqualTo(
                "{\"base\":\"1.0.0+1\",\"head\":\"1.1.0+1\",\"plan\":\"upgrade from 1.0.0+1\"}");
        assertThat(json.get("environment").get("driver").asText()).isEqualTo("abra");
        assertThat(json.get("environment").get("docker_engine").asText()).isEqualTo("20.10.24+dfsg1");
        assertThat(json.get("environment").get("swarm_nodes").asInt()).isEqualTo(3);
        assertThat(json.get("environment").get("default_runtime").asText()).isEqualTo("runsc");
        assertThat(json.get("next_level").get("why").asText()).isEqualTo(
                "not selected: the run's stages (ccci.stages or a tag filter) left out backup and restore");
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("Upgrade: from 1.0.0+1 to 1.1.0+1.", "runsc", "3 nodes",
                "level 2, not 3: backup_restore unver — not selected");
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains("upgrade from `1.0.0+1` to `1.1.0+1`");
        assertThat(String.join("\n", RunResults.summary(run, record, "here", "0123456789abcdef"))).contains("upgraded from 1.0.0+1",
                "passed, level 2, not 3: backup_restore unver — not selected", "checks 2 passed, 0 failed, 0 skipped, 0 unverified");
    }

    /**
     * The upgrade from each base (ccci.upgrade-from) in results.json, the report and summary.md: each
     * base with its status and reason, the upgrade's checks as columns, a skip never a failure, the
     * operator actions by base.
     */
    @Test
    void theUpgradeFromEachBaseIsAListInTheResultsAndATableInTheReportAndTheSummary() throws Exception {
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        List<Row> own = List.of(Row.passed(Tier.UPGRADE, "operation"), Row.passed(Tier.UPGRADE, "converged"));
        own.forEach(record::add);
        record.add(Row.failed(Tier.UPGRADE, "from 1.0.0+1", "converged: the task failed"));
        net.commoninternet.ccci.extensions.recipe.OperatorActions.Action action = new net.commoninternet.ccci.extensions.recipe
                .OperatorActions.Action(net.commoninternet.ccci.extensions.recipe.OperatorActions.Kind.ENV_KEY, "MAIL_FROM",
                        ".env.sample sets MAIL_FROM since this release");
        List<UpgradeCell> cells = List.of(
                new UpgradeCell("1.2.0+1", UpgradeCell.Status.PASS, "", own, List.of()),
                new UpgradeCell("1.1.0+1", UpgradeCell.Status.SKIP, "the base could not be deployed here: No such image", List.of(),
                        List.of()),
                new UpgradeCell("1.0.0+1", UpgradeCell.Status.FAIL, "converged: the task failed", List.of(
                        Row.passed(Tier.UPGRADE, "operation"), Row.failed(Tier.UPGRADE, "converged", "the task failed")),
                        List.of(action)));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.3.0+1", "abc", "d",
                new RunResults.Upgrade("1.2.0+1", "1.3.0+1", "upgrade from 1.2.0+1", cells)), 0, "1",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(), Map.of()));

        JsonNode json = new ObjectMapper().readTree(RunResults.write(runDir, run, record).toFile());

        assertThat(json.get("schema_version").asInt()).isEqualTo(4);
        JsonNode upgrades = json.get("upgrades");
        assertThat(upgrades).hasSize(3);
        assertThat(upgrades.get(0).get("base").asText()).isEqualTo("1.2.0+1");
        assertThat(upgrades.get(0).get("status").asText()).isEqualTo("pass");
        assertThat(upgrades.get(1).get("status").asText()).isEqualTo("skip");
        assertThat(upgrades.get(1).get("reason").asText()).contains("No such image");
        assertThat(upgrades.get(2).get("status").asText()).isEqualTo("fail");
        assertThat(upgrades.get(2).get("checks").get(1).toString()).isEqualTo(
                "{\"check\":\"converged\",\"status\":\"failed\",\"message\":\"the task failed\"}");
        assertThat(upgrades.get(2).get("operator_actions").get(0).get("kind").asText()).isEqualTo("env_key");
        assertThat(upgrades.get(2).get("logs").asText()).isEqualTo("upgrade-from-1.0.0+1/logs/upgrade");
        // the failed base fails the upgrade rung: level 1
        assertThat(json.get("level").asInt()).isEqualTo(1);
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains(
                "| base | outcome | operation | converged | logs |",
                "| `1.2.0+1` (the run's own) | pass | passed | passed | logs/upgrade |",
                "| `1.1.0+1` | skip: `the base could not be deployed here: No such image` | - | - | upgrade-from-1.1.0+1/logs/upgrade |",
                "| `1.0.0+1` | fail: `converged: the task failed` | passed | failed | upgrade-from-1.0.0+1/logs/upgrade |",
                "- from `1.0.0+1`: `.env.sample sets MAIL_FROM since this release`");
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("<h2>Upgrade from each base</h2>",
                "<th scope=\"row\">1.0.0+1</th><td class=\"failed\">fail <span class=\"reason\">converged: the task failed</span>",
                "<a href=\"upgrade-from-1.0.0+1/logs/upgrade/\">", "<h2>Operator action</h2>");
    }

    /** "passed" follows from the rungs: a run whose checks were all unverified proved nothing and is not green. */
    @Test
    void aRunWhoseChecksAreAllUnverifiedIsNotPassedAndOneThatReachedNoLevelSaysWhy() throws Exception {
        RunRecord record = new RunRecord();
        for (Tier tier : Tier.values()) {
            record.add(Row.skipped(tier, null, SkipKind.UNVERIFIED, "tier " + tier.id() + " has no implementation on the class path (unver)"));
        }
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", null, "abc", "d"), 0, "1",
                EnumSet.allOf(Tier.class), new RunResults.Evidence(true, List.of(), Map.of()));

        JsonNode json = new ObjectMapper().readTree(RunResults.write(runDir, run, record).toFile());

        assertThat(json.get("level").asInt()).isZero();
        assertThat(json.get("verdict").asText()).isEqualTo("unverified");
        assertThat(json.get("counts").get("unverified").asInt()).isEqualTo(6);
        assertThat(json.get("next_level").get("why").asText())
                .isEqualTo("install: tier install has no implementation on the class path (unver)");
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("class=\"verdict unverified\"")
                .doesNotContain("class=\"verdict passed\"");
        assertThat(String.join("\n", RunResults.summary(run, record, "here", "0123456789abcdef")))
                .contains("unverified, level 0, not 1: install unver");
    }

    /**
     * A check the host failed (an infrastructure row) beside passing rungs: its rung reads unver, not
     * fail, the run is unverified, not failed nor passed, and every report says it is the host's fault,
     * its cause and what to do, whole.
     */
    @Test
    void aCheckTheHostFailedLeavesItsRungUnverifiedAndEveryReportSaysItIsTheHostsFault() throws Exception {
        String sentence = HostFault.Cause.IMAGE_PULL.describe("docker.io/library/nginx:1.27 was not found on the engine,"
                + " and the engine cannot reach registry-1.docker.io: Get \"https://registry-1.docker.io/v2/\": dial tcp: lookup"
                + " registry-1.docker.io on 10.255.255.53:53: no such host");
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.skipped(Tier.UPGRADE, "serves-http", SkipKind.INFRASTRUCTURE, sentence));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", null, "abc", "d"), 0, "1",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(), Map.of()));

        JsonNode json = new ObjectMapper().readTree(RunResults.write(runDir, run, record).toFile());

        assertThat(json.get("rungs").get("install").asText()).isEqualTo("pass");
        assertThat(json.get("rungs").get("upgrade").asText()).isEqualTo("unver");
        assertThat(json.get("level").asInt()).isEqualTo(1);
        assertThat(json.get("verdict").asText()).isEqualTo("unverified");
        assertThat(json.get("counts").get("failed").asInt()).isZero();
        assertThat(json.get("counts").get("unverified").asInt()).isEqualTo(1);
        assertThat(json.get("host_faults")).hasSize(1);
        assertThat(json.get("host_faults").get(0).get("cause").asText()).isEqualTo("image_pull");
        assertThat(json.get("host_faults").get(0).get("message").asText()).isEqualTo(sentence);
        assertThat(json.get("next_level").get("why").asText()).startsWith("upgrade > serves-http: the host's fault, not the"
                + " recipe's: an image could not be pulled; rerun once the engine reaches the registry again");
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("class=\"verdict unverified\"",
                "Not verified: the host's fault, not the recipe's", "upgrade &gt; serves-http", "unverified (the host&#39;s fault)").doesNotContain("Where it broke");
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains("level 1, unverified",
                "**Not verified: the host's fault, not the recipe's**", "- `upgrade > serves-http`: `" + sentence + "`")
                .doesNotContain("Failing checks");
        assertThat(String.join("\n", RunResults.summary(run, record, "here", "0123456789abcdef")))
                .contains("unverified, level 1, not 2: upgrade unver — upgrade > serves-http: the host's fault",
                        "  upgrade > serves-http: not verified — " + sentence)
                .doesNotContain(": failed");
    }

    /** Level 5 has no higher rung; a failing check is named, on one line, whatever its message's lines. */
    @Test
    void atLevelFiveEveryRungPassedAndAFailureIsNamedOnOneLine() {
        List<Row> all = Arrays.stream(Tier.values()).map(RunResultsTest::pass).toList();
        assertThat(Standing.of(all, EnumSet.allOf(Tier.class)).next()).isEmpty();
        assertThat(Standing.whyNotHigher(5, null)).isEqualTo("level 5: every rung passed");

        Standing failed = Standing.of(List.of(pass(Tier.INSTALL), Row.failed(Tier.UPGRADE, "moved-to-head",
                "[the deployed app changed] \nExpecting actual:\n  1.0.0\nnot to be equal to:\n  1.0.0\n")), EnumSet.allOf(Tier.class));
        assertThat(failed.verdict()).isEqualTo("failed");
        assertThat(failed.next().orElseThrow().get("why")).isEqualTo(
                "upgrade > moved-to-head: [the deployed app changed] Expecting actual: 1.0.0 not to be equal to: 1.0.0");
        assertThat(Standing.oneLine("x".repeat(400))).hasSize(300).endsWith("…");
    }

    /**
     * summary.md as a forge renders it (CommonMark, GFM tables): what a run printed never becomes a
     * link, an image, HTML or a table cell, and reads as it was printed, in code.
     */
    @Test
    void theSummaryRendersWhatTheRunPrintedAsTextAndListsTheFailingChecks() throws Exception {
        String printed = "![x](http://tracker.example/p.png) <img src=x> | *boom* [a](b) `code` &amp; # _x_";
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.failed(Tier.UPGRADE, "moved-to-head", printed));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.1.0+1", "abc", "d"), 0, "1",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(), Map.of()));

        RunResults.write(runDir, run, record);

        String summary = Files.readString(runDir.resolve(RunReport.SUMMARY));
        // the hidden marker by which the recipe's one comment on a pull request is found again (scripts/pr-comment)
        assertThat(summary.lines().findFirst()).contains("<!-- ccci:demo -->");
        String html = ForgeMarkdown.html(summary);
        assertThat(html).contains("<h3>ccci: <code>demo</code> <code>1.1.0+1</code> — level 1, failed</h3>", "<td>upgrade</td>",
                "<td>fail</td>", "<strong>Failing checks</strong>", "checks: 1 passed, 1 failed, 0 skipped, 0 unverified")
                .doesNotContain("<img", "<a ", "<em>", "<h1>");
        assertThat(ForgeMarkdown.codes(summary)).as("the reason reads as printed, in code").contains(printed);
        assertThat(html).as("the marker is a comment no forge shows").startsWith("<!-- ccci:demo -->");
        assertThat(html.split("<tr>", -1)).as("a header and five rungs: the reason's | made no cell").hasSize(7);
    }

    @Test
    void aSecretInALongRunLogIsCaughtWhereverItIsEvenAcrossTheScansChunkEdge() throws Exception {
        Files.createDirectories(runDir);
        String secret = "s3cret-value-xyz";
        for (int at : new int[] {(1 << 20) - 5, 3 * (1 << 20) + 7}) {
            Path log = runDir.resolve("run.log");
            byte[] text = new byte[at + secret.length() + 100];
            Arrays.fill(text, (byte) 'x');
            System.arraycopy(secret.getBytes(StandardCharsets.UTF_8), 0, text, at, secret.length());
            Files.write(log, text);

            assertThat(RunResults.leaks(runDir, "{}", List.of(secret))).as("secret at byte %s", at).isTrue();
            assertThat(RunResults.leaks(runDir, "{}", List.of("other-value-abc"))).isFalse();
        }
        assertThat(RunResults.leaks(runDir, "{}", List.of("xxx"))).as("shorter than the masking floor").isFalse();
    }

    @Test
    void aSecretPlantedInAnArtifactOfTheRunIsCaught() throws Exception {
        Files.createDirectories(runDir.resolve("logs"));
        Files.writeString(runDir.resolve("logs/install.log"), "db password is s3cret-value-xyz\n");
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", null, "abc", "d"), 0, "1",
                EnumSet.of(Tier.INSTALL), new RunResults.Evidence(true, List.of("s3cret-value-xyz"), Map.of()));

        Path file = RunResults.write(runDir, run, new RunRecord());

        assertThat(new ObjectMapper().readTree(file.toFile()).get("flags").get("no_secret_leak").asBoolean()).isFalse();
    }

    @Test
    void passesBesideStructuralOrIntentionalSkipsArePassAndBesideAnyOtherSkipUnver() {
        List<Row> rows = List.of(
                pass(Tier.INSTALL), Row.skipped(Tier.INSTALL, "ready-probe", SkipKind.STRUCTURAL, "structural skip: no READY_PROBE"),
                pass(Tier.CUSTOM), Row.skipped(Tier.CUSTOM, "sso", SkipKind.INTENTIONAL, "intentional skip (EXPECTED_NA): no sso"),
                pass(Tier.LINT), Row.skipped(Tier.LINT, "healthchecks", SkipKind.UNVERIFIED, "tier lint has no checks (unver)"),
                pass(Tier.UPGRADE), Row.skipped(Tier.UPGRADE, "migrations", SkipKind.UNVERIFIED, null),
                Row.skipped(Tier.BACKUP, null, SkipKind.STRUCTURAL, "structural skip: no backupbot labels"));

        assertThat(RunResults.tier(rows, Tier.INSTALL)).isEqualTo(Verdict.PASS);
        assertThat(RunResults.tier(rows, Tier.CUSTOM)).isEqualTo(Verdict.PASS);
        assertThat(RunResults.tier(rows, Tier.LINT)).isEqualTo(Verdict.UNVER);
        assertThat(RunResults.tier(rows, Tier.UPGRADE)).isEqualTo(Verdict.UNVER);
        assertThat(RunResults.tier(rows, Tier.BACKUP)).isEqualTo(Verdict.SKIP);
    }

    @Test
    void theCustomizationBlockOfResultsJsonMasksSecretLookingEnvValuesAndGeneratedSecrets() throws Exception {
        String generated = "Zq8vK2pLm9xW";
        Map<String, Object> customization = Map.of(
                "class", "net.commoninternet.ccci.recipes.DemoCi",
                "keys", Map.of("HEALTH_PATH", "/", "EXTRA_ENV", Map.of("SMTP_PASSWORD", "hunter2-smtp",
                        "WELCOME", "admin password is " + generated, "SMTP_HOST", "mail.example.org")));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", null, "abc", "d"), 0, "1",
                EnumSet.of(Tier.INSTALL), new RunResults.Evidence(true, List.of(generated), customization));

        Path file = RunResults.write(runDir, run, new RunRecord());

        JsonNode env = new ObjectMapper().readTree(file.toFile()).get("customization").get("keys").get("EXTRA_ENV");
        assertThat(env.get("SMTP_PASSWORD").asText()).isEqualTo(SecretMasking.MASK);
        assertThat(env.get("WELCOME").asText()).isEqualTo("admin password is " + SecretMasking.MASK);
        assertThat(env.get("SMTP_HOST").asText()).isEqualTo("mail.example.org");
        assertThat(Files.readString(file)).doesNotContain("hunter2-smtp", generated);
        assertThat(new ObjectMapper().readTree(file.toFile()).get("flags").get("no_secret_leak").asBoolean()).isTrue();
    }

    /**
     * Beside results.json: report.html and badge.svg, from the same results, every generated
     * secret value masked (also one that reached a check's reason), with the timings.
     */
    @Test
    void theReportAndTheBadgeSitBesideTheResultsWithTheReasonsAndTimingsAndNoSecret() throws Exception {
        String secret = "s3cret-value-xyz";
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.failed(Tier.UPGRADE, "moved-to-head", "the version label is still 1.0.0 (db password " + secret + ")"));
        net.commoninternet.ccci.spi.RunTimeline timeline = new net.commoninternet.ccci.spi.RunTimeline();
        timeline.time("janitor", () -> null);
        timeline.start("upgrade").end(net.commoninternet.ccci.spi.RunTimeline.Outcome.FAILED);
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.1.0+1", "abc", "demo-abcdef.ci.commoninternet.net"),
                0, "1", EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(secret), Map.of(), timeline));

        Path file = RunResults.write(runDir, run, record);

        String report = Files.readString(runDir.resolve(RunReport.HTML));
        assertThat(report).contains("level 1", "failed", "upgrade &gt; moved-to-head",
                "the version label is still 1.0.0 (db password " + SecretMasking.MASK + ")", "janitor", "upgrade",
                "href=\"run.log\"").doesNotContain(secret, "<script", "src=", "href=\"http", "url(http", "@import");
        assertThat(runDir.resolve(RunReport.BADGE)).content().contains("<svg", "level 1", "#a84300");
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("timings").get("phases")).extracting(p -> p.get("phase").asText()).containsExactly("janitor", "upgrade");
        assertThat(json.get("timings").get("phases").get(1).get("outcome").asText()).isEqualTo("failed");
        assertThat(json.get("tests").get(1).get("message").asText()).as("results.json is masked like the report")
                .isEqualTo("the version label is still 1.0.0 (db password " + SecretMasking.MASK + ")");
        assertThat(Files.readString(file)).doesNotContain(secret);
        assertThat(json.get("flags").get("no_secret_leak").asBoolean()).as("nothing of the run folder holds it").isTrue();
    }

    /**
     * The canary's red run as a maintainer reads it: the title names the head under test (its
     * release tag), not the release that stayed deployed (the unbumped label); the failing check's
     * service log is empty, so its place is taken by ccci's own lines of that tier from run.log,
     * which say what the upgrade did (and nothing of the tier before it or after it).
     */
    @Test
    void theTitleNamesTheHeadUnderTestAndAnEmptyServiceLogGivesWayToTheRunsOwnLinesOfTheTier() throws Exception {
        String secret = "s3cret-value-xyz";
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.failed(Tier.UPGRADE, "moved-to-head", "the upgrade left 1.0.0+1.36.0 running with the same images;"
                + " the head under test is 1.1.0+1.36.1"));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("canary", "1.0.0+1.36.0", "abc", "cana-abcdef.ci.commoninternet.net",
                new RunResults.Upgrade("1.0.0+1.36.0", "1.1.0+1.36.1", "upgrade from 1.0.0+1.36.0")), 0, "1",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE), new RunResults.Evidence(true, List.of(secret), Map.of()));
        Files.createDirectories(runDir.resolve("logs/upgrade"));
        Files.createDirectories(runDir.resolve("logs/install"));
        Files.writeString(runDir.resolve("logs/upgrade/app.log"), "");
        Files.writeString(runDir.resolve("logs/install/app.log"), "");
        Files.writeString(runDir.resolve("run.log"), String.join("\n",
                "12:00:00.000 INFO  [canary] RunProgress - >> canary install started at +0:04",
                "12:00:01.000 INFO  [canary] RunProgress - << canary install done in 1.0 s (at +0:05)",
                "12:00:01.100 INFO  [canary] RunProgress - >> canary upgrade started at +0:05",
                "12:00:01.200 INFO  [canary] SwarmDriver - deploying cana-abcdef_ci_commoninternet_net (the judged compose of compose.yml)",
                "12:00:01.300 INFO  [canary] SwarmConvergence - stack cana-abcdef_ci_commoninternet_net: app: 0/1 running"
                        + " (last task error: task: non-zero exit (1)), password " + secret,
                "12:00:02.000 INFO  [canary] RunProgress - << canary upgrade FAILED after 0.9 s (at +0:06)",
                "12:00:02.100 INFO  [canary] RunProgress - >> canary backup started at +0:06", ""));

        RunResults.write(runDir, run, record);

        String report = Files.readString(runDir.resolve(RunReport.HTML));
        assertThat(report).contains("<title>canary: level 1", "<h1>canary 1.1.0+1.36.1</h1>",
                "The service logs of the upgrade are empty (logs/upgrade/app.log). What ccci logged of it instead:",
                "the end of run.log, its lines of the upgrade", "canary upgrade started at +0:05",
                "deploying cana-abcdef_ci_commoninternet_net", "last task error: task: non-zero exit (1)",
                "canary upgrade FAILED after 0.9 s").doesNotContain("canary install started", "canary backup started",
                "the end of logs/upgrade/app.log", secret, "1.0.0+1.36.0</h1>");
        assertThat(runDir.resolve(RunReport.SUMMARY)).content().contains("### ccci: `canary` `1.1.0+1.36.1` — level 1, failed");
        assertThat(RunResults.summary(run, record, "here", "0123456789abcdef").get(1)).startsWith(
                "recipe canary 1.1.0+1.36.1 (pr 0, ref abc), run 1, app cana-abcdef.ci.commoninternet.net, upgraded from 1.0.0+1.36.0");
        // a log that says something stays the evidence
        Files.writeString(runDir.resolve("logs/upgrade/app.log"), "app.1 nginx: [emerg] unknown directive\n");
        RunResults.write(runDir, run, record);
        assertThat(runDir.resolve(RunReport.HTML)).content().contains("the end of logs/upgrade/app.log", "[emerg] unknown directive")
                .doesNotContain("its lines of the upgrade", "What ccci logged of it instead");
    }

    /** Whether {@code text} holds a character no sink may carry raw: a control but tab and newline, a format or separator character. */
    private static boolean holdsAControl(String text) {
        return text.codePoints().anyMatch(c -> c != '\t' && c != '\n' && (Character.getType(c) == Character.CONTROL
                || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.LINE_SEPARATOR
                || Character.getType(c) == Character.PARAGRAPH_SEPARATOR || Character.getType(c) == Character.SURROGATE));
    }

    /**
     * The held-out attack on the results' sinks, as a failing hook's whole output in a check's message
     * (and the recipe's own version and tag): results.json, report.html and summary.md carry none of
     * its controls, none of the secret's forms, and in summary.md no link, image, HTML, mention, math
     * or issue reference: it sits in code.
     */
    @Test
    void whatARecipePrintedIsDataInTheResultsTheReportAndTheSummary() throws Exception {
        String secret = "Zq8vK2pLm9xWc4RtY7uB1nH5jG3fD6sA";
        String encoded = java.util.Base64.getEncoder().encodeToString(new StringBuilder(secret).reverse().toString()
                .getBytes(StandardCharsets.UTF_8));
        String printed = "hook failed\n== RUN SUMMARY ==\nlevel 5: every rung passed\n\u001b[2K\u001b]0;owned\u0007\u001b[8mhidden"
                + " @everyone @org/team [log in](https://evil.example/login) https://evil.example/x www.evil.example"
                + " <img src=x onerror=alert(1)> <b>bold</b> $$\\sqrt{2}$$ $x$ #42 \u202eexe.txt ` `` ``` "
                + encoded.substring(0, 24) + "\n" + encoded.substring(24);
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.failed(Tier.BACKUP, "backup", printed));
        RunResults.Run run = new RunResults.Run(new RunResults.Tested("demo", "1.0.0+1\u001b[8m @everyone",
                "abc", "demo-abcdef.ci.commoninternet.net", new RunResults.Upgrade("0.9.0 [x](https://evil.example)",
                        "1.0.0+1 @org/team", "upgrade")), 0, "1", EnumSet.of(Tier.INSTALL, Tier.BACKUP),
                new RunResults.Evidence(true, List.of(secret), Map.of()));

        Path file = RunResults.write(runDir, run, record);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        String message = json.get("tests").get(1).get("message").asText();
        assertThat(holdsAControl(message)).as(message).isFalse();
        assertThat(message).contains("\\x1b[2K", "\\u202eexe.txt", SecretMasking.MASK).doesNotContain(encoded.substring(0, 12));
        assertThat(holdsAControl(json.get("version").asText())).isFalse();
        String report = Files.readString(runDir.resolve(RunReport.HTML));
        assertThat(holdsAControl(report)).isFalse();
        assertThat(report).doesNotContain("<img src=x", "<b>bold", encoded.substring(0, 12), encoded.substring(24, 36));
        String summary = Files.readString(runDir.resolve(RunReport.SUMMARY));
        assertThat(holdsAControl(summary)).isFalse();
        assertThat(ForgeMarkdown.live(summary)).as(summary).isEmpty();
        assertThat(ForgeMarkdown.codes(summary)).anyMatch(c -> c.contains("@everyone @org/team [log in](https://evil.example/login)"))
                .anyMatch(c -> c.contains("@org/team")).anyMatch(c -> c.contains("[x](https://evil.example)"));
        assertThat(summary.lines()).noneMatch(l -> l.startsWith("== RUN SUMMARY") || l.startsWith("level 5"));
        assertThat(summary).doesNotContain(encoded.substring(0, 12), encoded.substring(24, 36));
    }
}
