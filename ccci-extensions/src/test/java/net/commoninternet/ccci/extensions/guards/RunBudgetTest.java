package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run's own clock ({@code ccci.run-budget}) on the command's watchdog, with real threads parked
 * as a run's thread is in a wait that never ends: past its budget a RUNNING run alone is
 * interrupted and reads the budget and the key as its stop; a run with a longer budget goes on; a
 * run already in its teardown when its budget ends is never interrupted. The watchdog handles
 * budgets in the order they end, so seeing the later one act proves the earlier one was passed.
 */
class RunBudgetTest {

    /** A thread parked until interrupted, as a run in a convergence that never ends; completes with the interrupt. */
    private record Parked(Thread thread, CompletableFuture<String> interrupted) {
        static Parked start(String name, CountDownLatch never) {
            CompletableFuture<String> interrupted = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    never.await();
                    interrupted.complete("never-released latch returned");
                } catch (InterruptedException e) {
                    interrupted.complete("interrupted");
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
            return new Parked(thread, interrupted);
        }
    }

    @Test
    void aRunPastItsBudgetIsStoppedAloneNamingTheKeyWhileTheOthersGoOn() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        GuardedCommand command = GuardedCommand.open(Duration.ofHours(1));
        Parked over = Parked.start("over", never);
        Parked going = Parked.start("going", never);
        Parked tearingDown = Parked.start("tearing-down", never);
        try {
            GuardedCommand.Member early = command.join(tearingDown.thread(), "tearing-down", Duration.ofMillis(200));
            command.beginTeardown(early); // its teardown began before its budget ended
            GuardedCommand.Member budgeted = command.join(over.thread(), "over", Duration.ofSeconds(1));
            GuardedCommand.Member other = command.join(going.thread(), "going", Duration.ofHours(1));

            assertThat(over.interrupted().get(30, TimeUnit.SECONDS)).isEqualTo("interrupted");

            assertThat(command.stopReason(budgeted)).contains("the run was stopped: it exceeded its 1-second budget,"
                    + " which this host sets with -Dccci.run-budget=1");
            assertThat(command.stopRequested()).as("the command itself goes on").isFalse();
            assertThat(going.interrupted()).isNotDone();
            assertThat(command.stopReason(other)).isEmpty();
            assertThat(tearingDown.interrupted()).as("a teardown is never cut by the budget").isNotDone();
            assertThat(command.leave(budgeted)).isEqualTo(new GuardedCommand.Left(null,
                    "it exceeded its 1-second budget, which this host sets with -Dccci.run-budget=1"));
            assertThat(command.leave(early).stoppedAlone()).isNull();
            assertThat(command.leave(other).stoppedAlone()).isNull();
        } finally {
            over.thread().interrupt();
            going.thread().interrupt();
            tearingDown.thread().interrupt();
            command.close();
        }
        assertThat(going.interrupted().get(30, TimeUnit.SECONDS)).as("only the test's own interrupt reached it")
                .isEqualTo("interrupted");
    }
}
