package net.commoninternet.ccci.extensions.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.HistoryAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two commands on one host append to a recipe's history at the same moment and lose nothing. The
 * interleaving is forced: process A holds the history's flock, has read the history, and is
 * stopped right there (between its read and its write); process B then starts its append. B must
 * wait on the kernel lock (the kernel's own table, /proc/locks, lists it as a blocked waiter) and
 * must not append; once A is let go, both appends are in the history, B's after A's.
 */
@RealProcesses
class RunHistoryAppendTest {

    @TempDir
    Path runs;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    @Test
    void twoAppendsAtTheSameMomentLoseNothing() throws Exception {
        Helper a = helpers.start(Helper.java(HistoryAppender.class, runs.toString(), "custom-html", "run-a", "4", "pause"));
        a.awaitLine("read 0");
        Path lockfile = runs.resolve("history/custom-html.lock");
        assertThat(LockProbe.held(lockfile)).as("A holds the history's lock while it is stopped").isTrue();

        Helper b = helpers.start(Helper.java(HistoryAppender.class, runs.toString(), "custom-html", "run-b", "1"));
        b.awaitLine("appending " + b.pid());
        awaitBlockedOnFlock(b);
        assertThat(b.output()).doesNotContain("appended");

        a.send("write");
        assertThat(a.awaitExit()).as(a.describe()).isZero();
        assertThat(b.awaitExit()).as(b.describe()).isZero();
        assertThat(a.output()).contains("appended after none");
        assertThat(b.output()).contains("appended after run-a");
        assertThat(new RunHistory(runs).runs("custom-html")).extracting(r -> r.get("run_id").asText())
                .containsExactly("run-a", "run-b");
    }

    /**
     * Waits (bounded) until the kernel lists {@code helper} as waiting for a flock: a line
     * {@code N: -> FLOCK ... <pid> ...} of /proc/locks. Fails at once if it appended meanwhile.
     */
    private static void awaitBlockedOnFlock(Helper helper) throws IOException, InterruptedException {
        Instant until = Instant.now().plus(Helper.PATIENCE);
        while (Instant.now().isBefore(until)) {
            List<String> locks = Files.readAllLines(Path.of("/proc/locks"));
            if (locks.stream().anyMatch(l -> l.contains("-> FLOCK") && l.matches(".*\\s" + helper.pid() + "\\s.*"))) {
                return;
            }
            assertThat(helper.output()).as("B appended while A held the lock between its read and its write")
                    .doesNotContain("appended");
            Thread.sleep(20);
        }
        throw new AssertionError("helper " + helper.pid() + " never waited for the history's flock: " + helper.describe());
    }
}
