package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.StateRun;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Run-scoped state files (spec section 3), the double-!testme regression (M2(c)) with real
 * processes and a real flock: a second run of the same domain executes its preamble while the
 * first is live and then parks at the app lock; it must neither reset the first run's deploy
 * count nor lose its own files when the first run ends normally. Run with distinct run ids (two
 * Drone builds of one PR) and with one shared run id (only the pid tells them apart).
 */
@RealProcesses
class RunStateTest {

    private static final String DOMAIN = "stat-000001.ci.commoninternet.net";

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private Helper stateRun(String runId) throws Exception {
        Helper run = helpers.start(Helper.java(StateRun.class, sandbox.resolve("runs").toString(), runId,
                sandbox.resolve("locks").toString(), DOMAIN));
        return run;
    }

    @ParameterizedTest(name = "run ids {0} and {1}")
    @CsvSource({"41,42", "17,17"})
    void aSecondRunOfTheSameDomainNeitherResetsNorDeletesTheFirstRunsStateFiles(String firstId, String secondId)
            throws Exception {
        Helper first = stateRun(firstId);
        Path firstDeploys = Path.of(value(first.awaitLine("deploys-file="), "deploys-file"));
        assertThat(first.awaitLine("locked")).endsWith("deploys=1");

        Helper second = stateRun(secondId);
        Path secondDeploys = Path.of(value(second.awaitLine("deploys-file="), "deploys-file"));
        second.awaitLine("== app lock: another run of " + DOMAIN + " is in flight — waiting ==");

        assertThat(secondDeploys).isNotEqualTo(firstDeploys).hasFileName(
                "ccci-deploys-" + secondId + "-" + second.pid());
        assertThat(firstDeploys).content().isEqualTo("1\n");
        first.send("end");
        assertThat(first.awaitLine("deploys at end=")).endsWith("=1");
        assertThat(first.awaitExit()).as(first.describe()).isZero();
        assertThat(firstDeploys.getParent()).isDirectoryNotContaining("glob:**-" + first.pid());

        assertThat(second.awaitLine("locked")).endsWith("deploys=1");
        second.send("end");
        assertThat(second.awaitLine("deploys at end=")).endsWith("=1");
        assertThat(second.awaitExit()).as(second.describe()).isZero();
        assertThat(secondDeploys).doesNotExist();
    }

    private static String value(String line, String name) {
        int at = line.indexOf(name + "=");
        return line.substring(at + name.length() + 1).split(" ")[0];
    }
}
