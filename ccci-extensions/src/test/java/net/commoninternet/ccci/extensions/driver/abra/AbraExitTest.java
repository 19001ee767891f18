package net.commoninternet.ccci.extensions.driver.abra;

import static net.commoninternet.ccci.extensions.driver.abra.AbraFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** How abra says it failed: a non-zero exit and a FATA line. */
class AbraExitTest {

    private static final AbraCli CLI = AbraFixtures.CLI;

    @Test
    void exitZeroIsSuccessWhateverWasPrinted() throws AbraException {
        AbraCli.checkExit(CLI.deploy("d"), 0, "WARN something odd\n");
    }

    @Test
    void aFailureQuotesAbrasFatalLine() {
        AbraException e = catchThrowableOfType(AbraException.class,
                () -> AbraCli.checkExit(CLI.recipeLint("hedgedoc"), 1, read("lint-fatal-no-tty.constructed.txt")));
        assertThat(e).hasMessage("abra recipe lint exited 1: FATA inappropriate ioctl for device");
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(e.fatal()).contains("inappropriate ioctl for device");
    }

    @Test
    void aColouredFatalLineIsFound() {
        assertThat(AbraCli.fatal("INFO deploying\r\n\u001B[1;38;5;204mFATA\u001B[0m deploy failed 🛑\r\n"))
                .contains("deploy failed 🛑");
    }

    @Test
    void withoutAFatalLineTheFirstLinesAreShown() {
        assertThatThrownBy(() -> AbraCli.checkExit(CLI.undeploy("d"), 2, "panic: nil map\ngoroutine 1 [running]:\n"))
                .hasMessage("abra app undeploy exited 2: \n  | panic: nil map\n  | goroutine 1 [running]:");
    }

    @Test
    void theOutputOfASecretBearingCommandIsNeverQuoted() {
        assertThatThrownBy(() -> AbraCli.checkExit(CLI.secretGenerate("d"), 1, "db_password v1 hunter2hunter2\n"))
                .hasMessageContaining("output withheld")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void onlyAnInvalidRecipeMakesLintTheRecipesFault() {
        AbraException invalid = catchThrowableOfType(AbraException.class, () -> AbraCli.checkExit(
                CLI.recipeLint("hedgedoc"), 1, read("lint-fatal-env-sample.constructed.txt")));
        AbraException noTty = catchThrowableOfType(AbraException.class, () -> AbraCli.checkExit(
                CLI.recipeLint("hedgedoc"), 1, read("lint-fatal-no-tty.constructed.txt")));
        assertThat(AbraCli.recipeInvalid(invalid)).isTrue();
        assertThat(AbraCli.recipeInvalid(noTty)).isFalse();
    }
}
