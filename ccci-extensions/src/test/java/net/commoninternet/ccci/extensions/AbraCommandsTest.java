package net.commoninternet.ccci.extensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.AbraCli.LintRule;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AbraCommands through real processes: real {@code script}, a real pseudo-terminal, real exit
 * codes and the run's real environment. Only abra is not real (there is none here): FAKE_ABRA
 * is a shell script that records how it was called, whether it had a terminal and which
 * ABRA_DIR it saw, then prints one of the constructed outputs and exits as told.
 */
class AbraCommandsTest {

    private static final String FAKE_ABRA = String.join("\n",
            "#!/bin/sh",
            "if [ -t 0 ]; then stdin=tty; else stdin=not-tty; fi",
            "if [ -t 1 ]; then stdout=tty; else stdout=not-tty; fi",
            "{",
            "  printf 'argv:'; for a in \"$@\"; do printf ' [%s]' \"$a\"; done; printf '\\n'",
            "  printf 'ABRA_DIR=%s\\n' \"$ABRA_DIR\"",
            "  echo \"stdin=$stdin\"; echo \"stdout=$stdout\"",
            "} > \"$FAKE_ABRA_LOG\"",
            "cat \"$FAKE_ABRA_OUTPUT\"",
            "exit \"$FAKE_ABRA_EXIT\"",
            "");
    private static final String DOMAIN = "cust-1a2b3c.ci.commoninternet.net";

    @TempDir
    Path dir;

    private Path abra;
    private Path abraDir;

    @BeforeEach
    void installFakeAbra() throws IOException {
        abra = Files.writeString(dir.resolve("fake-abra"), FAKE_ABRA);
        Files.setPosixFilePermissions(abra, PosixFilePermissions.fromString("rwx------"));
        abraDir = Files.createDirectories(dir.resolve("run/abra"));
    }

    /** Commands whose fake abra prints {@code output} and exits {@code exit}. */
    private AbraCommands commands(String output, int exit) throws IOException {
        Path printed = Files.writeString(dir.resolve("output"), output);
        ChildProcesses processes = new ChildProcesses(Map.of("ABRA_DIR", abraDir.toString(),
                "FAKE_ABRA_LOG", dir.resolve("log").toString(), "FAKE_ABRA_OUTPUT", printed.toString(),
                "FAKE_ABRA_EXIT", Integer.toString(exit)));
        return new AbraCommands(new AbraCli(abra.toString()), processes, Duration.ofSeconds(30));
    }

    private List<String> log() throws IOException {
        return Files.readAllLines(dir.resolve("log"), StandardCharsets.UTF_8);
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
