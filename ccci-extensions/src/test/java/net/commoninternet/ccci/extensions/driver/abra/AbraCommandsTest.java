package net.commoninternet.ccci.extensions.driver.abra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.LintRule;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AbraCommands through real processes: real {@code script}, a real pseudo-terminal, real exit
 * codes and the run's real environment. Only abra is not real (there is none here): {@link
 * FakeAbra} stands in for it, recording how it was called, then printing one of the
 * constructed outputs and exiting as told.
 */
class AbraCommandsTest {

    private static final String DOMAIN = "cust-1a2b3c.ci.commoninternet.net";

    @TempDir
    Path dir;

    private FakeAbra abra;
    private Path abraDir;

    @BeforeEach
    void installFakeAbra() throws IOException {
        abra = FakeAbra.install(dir);
        abraDir = Files.createDirectories(dir.resolve("run/abra"));
    }

    /** Commands whose stand-in abra prints {@code output} and exits {@code exit}. */
    private AbraCommands commands(String output, int exit) throws IOException {
        Map<String, String> environment = new HashMap<>(abra.answering(output, exit));
        environment.put("ABRA_DIR", abraDir.toString());
        return new AbraCommands(new AbraCli(abra.executable().toString()), new ChildProcesses(environment),
                Duration.ofSeconds(30));
    }

    private List<String> log() throws IOException {
        return abra.log();
    }

    @Test
    void deployRunsWithoutATerminalInTheRunsAbraDir() throws Exception {
        commands("INFO deployed\n", 0).deploy(DOMAIN);
        assertThat(log()).containsExactly("argv: [app] [deploy] [-n] [-C] [-c] [" + DOMAIN + "]",
                "ABRA_DIR=" + abraDir, "stdin=not-tty", "stdout=not-tty");
    }

    @Test
    void lintRunsUnderAPseudoTerminalAndItsTableIsRead() throws Exception {
        AbraCli.Lint lint = commands(AbraFixtures.read("lint-r014-error.constructed.txt"), 0).lint("hedgedoc");
        assertThat(log()).containsExactly("argv: [recipe] [lint] [-n] [hedgedoc]", "ABRA_DIR=" + abraDir,
                "stdin=tty", "stdout=tty");
        assertThat(lint.failures()).extracting(LintRule::ref).containsExactly("R014");
    }

    @Test
    void theBackupsSnapshotIdSurvivesThePseudoTerminal() throws Exception {
        AbraCli.Snapshot snapshot = commands(AbraFixtures.read("backup-create-pty.constructed.txt"), 0).backup(DOMAIN);
        assertThat(snapshot.id()).isEqualTo("3f9a1c2e");
        assertThat(log()).contains("stdout=tty");
    }

    @Test
    void restoreRunsUnderAPseudoTerminal() throws Exception {
        commands("INFO restored\n", 0).restore(DOMAIN);
        assertThat(log()).containsExactly("argv: [app] [restore] [-n] [" + DOMAIN + "]", "ABRA_DIR=" + abraDir,
                "stdin=tty", "stdout=tty");
    }

    @Test
    void aFailedCommandReportsAbrasFatalLine() throws Exception {
        AbraCommands commands = commands("INFO checking\nFATA deploy failed: no such service\n", 1);
        AbraException e = catchThrowableOfType(AbraException.class, () -> commands.deploy(DOMAIN));
        assertThat(e).hasMessage("abra app deploy exited 1: FATA deploy failed: no such service");
    }

    @Test
    void theExitCodeComesBackThroughThePseudoTerminal() throws Exception {
        AbraCommands commands = commands(AbraFixtures.read("lint-fatal-env-sample.constructed.txt"), 1);
        AbraException e = catchThrowableOfType(AbraException.class, () -> commands.lint("hedgedoc"));
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(AbraCli.recipeInvalid(e)).isTrue();
    }

    @Test
    void noArgumentIsReadAsShellSyntaxUnderThePseudoTerminal() throws Exception {
        String hostile = "x'; touch " + dir.resolve("pwned") + "; echo '$(id)`id`";
        commands(AbraFixtures.read("lint-all-satisfied.constructed.txt"), 0).lint(hostile);
        assertThat(log().get(0)).isEqualTo("argv: [recipe] [lint] [-n] [" + hostile + "]");
        assertThat(dir.resolve("pwned")).doesNotExist();
    }

    @Test
    void aFailedSecretGenerationNeverShowsWhatWasGenerated() throws Exception {
        AbraCommands commands = commands("db_password v1 hunter2hunter2hunter2\n", 1);
        AbraException e = catchThrowableOfType(AbraException.class, () -> commands.generateSecrets(DOMAIN));
        assertThat(e).hasMessageContaining("abra app secret generate exited 1").hasMessageNotContaining("hunter2");
    }

    @Test
    void theAppListIsRead() throws Exception {
        List<AbraCli.AppRow> apps = commands(AbraFixtures.read("app-ls-machine.constructed.json"), 0).apps();
        assertThat(apps).extracting(AbraCli.AppRow::domain).contains("warm-keycloak.ci.commoninternet.net");
        assertThat(log().get(0)).isEqualTo("argv: [app] [ls] [-n] [-m]");
    }
}
