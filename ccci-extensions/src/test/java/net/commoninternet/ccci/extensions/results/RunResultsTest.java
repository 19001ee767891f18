package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.results.RunResults.Rung;
import net.commoninternet.ccci.extensions.results.RunResults.Verdict;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
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
    }

    /** The published schema (a resource of ccci-extensions) accepts what a run writes, and can refuse. */
    @Test
    void resultsJsonFollowsThePublishedSchema() throws Exception {
        RunRecord record = new RunRecord();
        record.add(pass(Tier.INSTALL));
        record.add(Row.skipped(Tier.UPGRADE, null, SkipKind.STRUCTURAL, "structural skip: no release older than the head"));
        record.add(Row.failed(Tier.BACKUP, "snapshot-created", "expected a snapshot id"));
        Map<String, Object> manifest = CustomizationManifest.of(CiKeys.validated(
                        Map.of("EXTRA_ENV", Map.of("SMTP_PASSWORD", "p"))),
                java.util.Optional.empty(), Map.of("install_steps.sh", "ignored"), false, List.of());
        RunResults.Run run = new RunResults.Run(
                new RunResults.Tested("demo", null, "abc123", "demo-abcdef.ci.commoninternet.net"), 7, "42",
                EnumSet.of(Tier.INSTALL, Tier.UPGRADE, Tier.BACKUP), new RunResults.Evidence(false, List.of(), manifest));
        com.networknt.schema.Schema schema;
        try (java.io.InputStream in = RunResults.class.getResourceAsStream("results.schema.json")) {
            schema = com.networknt.schema.SchemaRegistry.withDefaultDialect(
                    com.networknt.schema.SpecificationVersion.DRAFT_2020_12).getSchema(in);
        }

        String written = Files.readString(RunResults.write(runDir, run, record));

        assertThat(schema.validate(written, com.networknt.schema.InputFormat.JSON)).isEmpty();
        assertThat(schema.validate(written.replace("\"level\" : 1", "\"level\" : 6"), com.networknt.schema.InputFormat.JSON))
                .singleElement().satisfies(e -> assertThat(e.getInstanceLocation().toString()).contains("level"));
        assertThat(schema.validate(written.replace("\"fail\"", "\"failed-ish\""), com.networknt.schema.InputFormat.JSON))
                .isNotEmpty();
    }

    @Test
    void aSecretInALongRunLogIsCaughtWhereverItIsEvenAcrossTheScansChunkEdge() throws Exception {
        Files.createDirectories(runDir);
        String secret = "s3cret-value-xyz";
        for (int at : new int[] {(1 << 20) - 5, 3 * (1 << 20) + 7}) {
            Path log = runDir.resolve("run.log");
            byte[] text = new byte[at + secret.length() + 100];
            java.util.Arrays.fill(text, (byte) 'x');
            System.arraycopy(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, text, at, secret.length());
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
        assertThat(runDir.resolve(RunReport.BADGE)).content().contains("<svg", "level 1", "#fe7d37");
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("timings").get("phases")).extracting(p -> p.get("phase").asText()).containsExactly("janitor", "upgrade");
        assertThat(json.get("timings").get("phases").get(1).get("outcome").asText()).isEqualTo("failed");
        assertThat(json.get("flags").get("no_secret_leak").asBoolean()).as("the engine's message held it: results.json too")
                .isFalse();
    }
}
