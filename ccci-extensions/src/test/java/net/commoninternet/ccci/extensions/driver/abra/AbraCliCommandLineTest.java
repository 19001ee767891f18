package net.commoninternet.ccci.extensions.driver.abra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Invocation;
import org.junit.jupiter.api.Test;

/**
 * The command lines are the contract: each is pinned here flag for flag, so a change to what
 * ccci asks of abra is a visible change to this test (and to docs/abra-driver.md).
 */
class AbraCliCommandLineTest {

    private static final String D = "cust-1a2b3c.ci.commoninternet.net";
    private final AbraCli cli = new AbraCli("/opt/abra/bin/abra");

    @Test
    void appNewTakesTheCheckedOutTreeAndNamesServerAndDomain() {
        assertThat(cli.appNew("custom-html", "default", D).argv()).containsExactly(
                "/opt/abra/bin/abra", "app", "new", "-n", "-C", "--server", "default", "--domain", D, "custom-html");
    }

    @Test
    void secretGenerateIsForAllSecretsAndItsOutputIsSensitive() {
        Invocation generate = cli.secretGenerate(D);
        assertThat(generate.argv()).containsExactly("/opt/abra/bin/abra", "app", "secret", "generate", "-n", "-a", D);
        assertThat(generate.sensitive()).isTrue();
    }

    @Test
    void deployIsChaosWithoutAbrasConvergenceWait() {
        assertThat(cli.deploy(D).argv()).containsExactly("/opt/abra/bin/abra", "app", "deploy", "-n", "-C", "-c", D);
    }

    @Test
    void undeployRemoveFetchAndListNeverPrompt() {
        assertThat(cli.undeploy(D).argv()).containsExactly("/opt/abra/bin/abra", "app", "undeploy", "-n", D);
        assertThat(cli.remove(D).argv()).containsExactly("/opt/abra/bin/abra", "app", "rm", "-n", "-f", D);
        assertThat(cli.recipeFetch("custom-html").argv())
                .containsExactly("/opt/abra/bin/abra", "recipe", "fetch", "-n", "custom-html");
        assertThat(cli.appList().argv()).containsExactly("/opt/abra/bin/abra", "app", "ls", "-n", "-m");
    }

    @Test
    void commandsThatNeedNoTerminalRunDirectly() {
        for (Invocation i : List.of(cli.appNew("r", "default", D), cli.secretGenerate(D), cli.deploy(D),
                cli.undeploy(D), cli.remove(D), cli.recipeFetch("r"), cli.appList())) {
            assertThat(i.argv().get(0)).as(i.name()).isEqualTo("/opt/abra/bin/abra");
            assertThat(i.environment()).as(i.name()).isEmpty();
        }
    }

    @Test
    void backupRestoreAndLintRunUnderScriptWithAPinnedShell() {
        assertThat(cli.backupCreate(D).argv()).containsExactly(
                "script", "-qec", "/opt/abra/bin/abra app backup create -n " + D, "/dev/null");
        assertThat(cli.restore(D).argv()).containsExactly(
                "script", "-qec", "/opt/abra/bin/abra app restore -n " + D, "/dev/null");
        assertThat(cli.recipeLint("custom-html").argv()).containsExactly(
                "script", "-qec", "/opt/abra/bin/abra recipe lint -n custom-html", "/dev/null");
        for (Invocation i : List.of(cli.backupCreate(D), cli.restore(D), cli.recipeLint("r"))) {
            assertThat(i.environment()).as(i.name()).isEqualTo(Map.of("SHELL", "/bin/sh"));
        }
    }

    @Test
    void shellQuotingLeavesPlainWordsAndQuotesEverythingElse() {
        assertThat(AbraCli.shellQuote("cust-1a2b3c.ci.commoninternet.net")).isEqualTo("cust-1a2b3c.ci.commoninternet.net");
        assertThat(AbraCli.shellQuote("a b")).isEqualTo("'a b'");
        assertThat(AbraCli.shellQuote("it's")).isEqualTo("'it'\\''s'");
        assertThat(AbraCli.shellQuote("$(rm -rf /)")).isEqualTo("'$(rm -rf /)'");
        assertThat(AbraCli.shellQuote("")).isEqualTo("''");
    }
}
