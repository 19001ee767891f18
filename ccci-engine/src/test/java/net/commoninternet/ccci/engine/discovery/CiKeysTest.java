package net.commoninternet.ccci.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.CiKeys.Probe.Kind;
import net.commoninternet.ccci.api.CiKeys.Probe;
import org.junit.jupiter.api.Test;

class CiKeysTest {

    private static CiKeysParser.Result parse(Map<String, Object> raw) {
        return CiKeysParser.parse("demo", raw, key -> "");
    }

    private static CiKeys keys(Map<String, Object> raw) {
        CiKeysParser.Result result = parse(raw);
        assertThat(result.problems()).isEmpty();
        return result.keys().orElseThrow();
    }

    @Test
    void httpProbesNeedAnAbsolutePathWithoutSpaces() {
        assertThat(Probe.parse("http:/health")).contains(new Probe.Http("/health"));
        assertThat(Probe.parse("  http:/  ")).contains(new Probe.Http("/"));
        assertThat(Probe.parse("http:health")).isEmpty();
        assertThat(Probe.parse("http:/a b")).isEmpty();
        assertThat(Probe.parse("http:")).isEmpty();
    }

    @Test
    void tcpProbesTakeAPortInRangeAndAtLeastOneStableConnectDefaultThree() {
        assertThat(Probe.parse("tcp:5432")).contains(new Probe.Tcp(5432, 3));
        assertThat(Probe.parse("tcp:5432:5")).contains(new Probe.Tcp(5432, 5));
        assertThat(Probe.parse("tcp:1")).map(p -> ((Probe.Tcp) p).port()).contains(1);
        assertThat(Probe.parse("tcp:65535")).map(p -> ((Probe.Tcp) p).port()).contains(65535);
        for (String bad : List.of("tcp:0", "tcp:65536", "tcp:99999", "tcp:123456", "tcp:80:0", "tcp:80:1000",
                "tcp:-1", "tcp:http", "tcp:", "tcp:80:")) {
            assertThat(Probe.parse(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void execProbesNameAServiceAndANonBlankCommandWhichMayContainColons() {
        assertThat(Probe.parse("exec:db:pg_isready -U postgres"))
                .contains(new Probe.Exec("db", "pg_isready -U postgres"));
        assertThat(Probe.parse("exec:app:curl -sf http://localhost:8080/"))
                .contains(new Probe.Exec("app", "curl -sf http://localhost:8080/"));
        for (String bad : List.of("exec:db:", "exec:db:   ", "exec::true", "exec:db", "exec:a b:true")) {
            assertThat(Probe.parse(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void otherSchemesAreNoProbe() {
        for (String bad : List.of("", "/health", "https:/health", "HTTP:/health", "udp:53", "exec")) {
            assertThat(Probe.parse(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void aProbeReadsBackFromItsOwnText() {
        for (String text : List.of("http:/status", "tcp:6379:2", "exec:db:mysqladmin ping")) {
            Probe probe = Probe.parse(text).orElseThrow();
            assertThat(Probe.parse(probe.toString())).as(text).contains(probe);
        }
        assertThat(Probe.parse("tcp:6379").orElseThrow()).hasToString("tcp:6379:3");
    }

    @Test
    void readyProbeTakesHttpAndTcpButRefusesExec() {
        assertThat(keys(Map.of("READY_PROBE", "tcp:5432")).readyProbe()).map(Probe::kind).contains(Kind.TCP);
        assertThat(keys(Map.of("READY_PROBE", "http:/ready")).readyProbe()).contains(new Probe.Http("/ready"));

        assertThat(parse(Map.of("READY_PROBE", "exec:db:pg_isready")).problems()).containsExactly(
                "CI key READY_PROBE of demo must be an HTTP or TCP probe: http:<path> (answers a HEALTH_OK status)"
                        + " or tcp:<port>[:<N>] (N stable connects in a row, default 3), not exec:db:pg_isready.");
        assertThat(parse(Map.of("READY_PROBE", "tcp:70000")).problems()).singleElement()
                .satisfies(p -> assertThat(p).startsWith("CI key READY_PROBE of demo must be an HTTP or TCP probe"));
        assertThat(parse(Map.of("READY_PROBE", 8080)).keys()).isEmpty();
    }

    @Test
    void readyProbeRefusesExecEvenWithLeadingWhitespace() {
        CiKeysParser.Result result = parse(Map.of("READY_PROBE", " exec:db:pg_isready"));

        assertThat(result.keys()).isEmpty();
        assertThat(result.problems()).singleElement()
                .satisfies(p -> assertThat(p).startsWith("CI key READY_PROBE of demo must be an HTTP or TCP probe"));
    }

    @Test
    void backupVerifyTakesEveryKindOfProbe() {
        assertThat(keys(Map.of("BACKUP_VERIFY", "exec:db:test -s /backup.sql")).backupVerify())
                .contains(new Probe.Exec("db", "test -s /backup.sql"));
        assertThat(parse(Map.of("BACKUP_VERIFY", "exec:db:")).problems()).singleElement().satisfies(p -> assertThat(p)
                .isEqualTo("CI key BACKUP_VERIFY of demo must be a probe: http:<path>, tcp:<port>[:<N>] or"
                        + " exec:<service>:<shell command> (exit 0), not exec:db:."));
    }

    @Test
    void absentKeysHaveTheirDefaults() {
        CiKeys defaults = CiKeys.defaults();

        assertThat(defaults.readyProbe()).isEmpty();
        assertThat(defaults.backupVerify()).isEmpty();
        assertThat(defaults.backupCapable()).isEmpty();
        assertThat(defaults.extraEnv()).isEmpty();
        assertThat(defaults.upgradeExtraEnv()).isEmpty();
        assertThat(defaults.deps()).isEmpty();
        assertThat(defaults.notActedOn()).isEmpty();
    }

    @Test
    void envMapsAndBackupCapableAreReadBackAndCheckedForShape() {
        CiKeys keys = keys(Map.of("EXTRA_ENV", Map.of("SMTP_HOST", "mail"), "UPGRADE_EXTRA_ENV", Map.of("NEW_FLAG", "1"),
                "BACKUP_CAPABLE", false));

        assertThat(keys.extraEnv()).containsExactly(Map.entry("SMTP_HOST", "mail"));
        assertThat(keys.upgradeExtraEnv()).containsExactly(Map.entry("NEW_FLAG", "1"));
        assertThat(keys.backupCapable()).contains(false);
        assertThat(parse(Map.of("EXTRA_ENV", Map.of("PORT", 25))).problems()).containsExactly(
                "CI key EXTRA_ENV of demo must be a map of env names to strings, not {PORT=25}.");
        assertThat(parse(Map.of("BACKUP_CAPABLE", "yes")).problems()).containsExactly(
                "CI key BACKUP_CAPABLE of demo must be true or false, not yes.");
    }

    @Test
    void nonEmptyDepsIsAHardErrorAndAnEmptyListIsNone() {
        assertThat(keys(Map.of("DEPS", List.of("mariadb", "redis"))).deps()).containsExactly("mariadb", "redis");
        assertThat(parse(Map.of("DEPS", List.of("redis", "redis"))).problems()).containsExactly(
                "CI key DEPS of demo names a dependency twice: [redis, redis]; list each recipe once.");
        assertThat(parse(Map.of("DEPS", List.of("demo"))).problems()).containsExactly(
                "CI key DEPS of demo names the recipe itself: list the recipes its app needs.");
        assertThat(keys(Map.of("DEPS", List.of())).deps()).isEmpty();
        assertThat(parse(Map.of("DEPS", "mariadb")).problems()).containsExactly(
                "CI key DEPS of demo must be a list of recipe names, not mariadb.");
    }

    @Test
    void screenshotNamesThePageWhosePictureIsTakenAndDefaultsToTheHealthPath() {
        CiKeys keys = keys(Map.of("WARM_CANONICAL", true, "SCREENSHOT", "/gallery", "HEALTH_PATH", "/health"));

        assertThat(keys.notActedOn()).isEmpty();
        assertThat(keys.screenshotPath()).isEqualTo("/gallery");
        assertThat(keys(Map.of("HEALTH_PATH", "/health")).screenshotPath()).isEqualTo("/health");
        assertThat(keys(Map.of()).screenshotPath()).isEqualTo("/");
    }

    @Test
    void warmCanonicalNamesTheRecipesWarmApp() {
        assertThat(keys(Map.of("WARM_CANONICAL", true)).warmCanonical("keycloak", "ci.commoninternet.net"))
                .contains("warm-keycloak.ci.commoninternet.net");
        assertThat(keys(Map.of("WARM_CANONICAL", "warm-kc2.ci.commoninternet.net"))
                .warmCanonical("keycloak", "ci.commoninternet.net"))
                .contains("warm-kc2.ci.commoninternet.net");
        assertThat(keys(Map.of("WARM_CANONICAL", false)).warmCanonical("keycloak", "ci.commoninternet.net")).isEmpty();
        assertThat(CiKeys.defaults().warmCanonical("keycloak", "ci.commoninternet.net")).isEmpty();
        assertThat(keys(Map.of("WARM_CANONICAL", true)).warmCanonical("keycloak", "f1.ci.commoninternet.net"))
                .contains("warm-keycloak.f1.ci.commoninternet.net");
        // a run app's domain (or any other) is refused: a warm app is never a run's
        assertThat(parse(Map.of("WARM_CANONICAL", "kc-0a1b2c.ci.commoninternet.net")).problems()).singleElement()
                .asString().startsWith("CI key WARM_CANONICAL of demo must be true, false, or the domain of the recipe's warm app");
    }
}
