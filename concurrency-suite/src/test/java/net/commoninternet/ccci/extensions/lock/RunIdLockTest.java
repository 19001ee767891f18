package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.RunIdHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** One run id, one live run: real flocks held by real helper processes. */
@RealProcesses
class RunIdLockTest {

    @TempDir
    Path runs;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    @Test
    void aSecondRunGivenALiveRunsIdRefusesAtOnceAndLeavesItsFolderAlone() throws Exception {
        Path folder = runs.resolve("1234");
        Helper live = helpers.start(Helper.java(RunIdHolder.class, folder.toString(), "1234"));
        live.awaitLine("held");
        Files.writeString(folder.resolve("run.log"), "the live run's log\n", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RunIdLock.acquire(folder, "1234")).isInstanceOf(IllegalStateException.class)
                .hasMessage("run id 1234 belongs to a live run (its folder " + folder + " is locked by another process):"
                        + " give this run an id of its own with -Dccci.run-id=<id> (a Drone build number is unique), or"
                        + " wait for that run to end.");

        assertThat(folder.resolve("run.log")).hasContent("the live run's log");
        assertThat(LockProbe.held(folder.resolve(RunIdLock.FILE))).as("still the live run's").isTrue();
    }

    @Test
    void theFolderOfARunThatEndedOrWasKilledMayBeReused() throws Exception {
        Path folder = runs.resolve("manual-7");
        Helper ended = helpers.start(Helper.java(RunIdHolder.class, folder.toString(), "manual-7"));
        ended.awaitLine("held");
        assertThat(ended.finish()).isZero();
        Helper killed = helpers.start(Helper.java(RunIdHolder.class, folder.toString(), "manual-7"));
        killed.awaitLine("held");
        killed.kill();

        RunIdLock.acquire(folder, "manual-7");

        assertThat(LockProbe.held(folder.resolve(RunIdLock.FILE))).isTrue();
    }
}
