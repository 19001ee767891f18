package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the command's shutdown hook waits for: the live runs' teardowns, then the command's close;
 * the close is awaited only for a bound of its own once no run is live (what is left then is the
 * plan's end). A command whose close never comes (the engine's thread is the one exiting, or an
 * error skipped the plan's end) held a failed run's JVM for the whole teardown grace, 9 minutes.
 * The hook's wait runs here on a thread of the test's, with a teardown grace of an hour: it can end
 * only by the close's own bound, or by the close.
 */
class ShutdownWaitTest {

    @Test
    void aCommandNeverClosedHoldsTheShutdownForTheCloseBoundOnlyOnceNoRunIsLive() throws Exception {
        GuardedCommand command = GuardedCommand.open(Duration.ofHours(1));
        CompletableFuture<Void> interrupted = new CompletableFuture<>();
        Thread runThread = new Thread(() -> {
            try {
                new java.util.concurrent.CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.complete(null);
            }
        }, "run");
        runThread.setDaemon(true);
        runThread.start();
        try {
            GuardedCommand.Member run = command.join(runThread, "run", Duration.ofHours(1));
            CompletableFuture<Void> hook = CompletableFuture.runAsync(
                    () -> command.awaitTeardownsAndClose(Duration.ofHours(1), Duration.ofMillis(300)));

            // the hook stops the live run, then awaits its teardown: it cannot end while the run is live
            interrupted.get(30, TimeUnit.SECONDS);
            assertThat(command.stopReason(run)).contains("the run was stopped by a JVM shutdown (System.exit, SIGINT or"
                    + " SIGHUP, or Maven gone)");
            assertThat(hook).isNotDone();
            command.beginTeardown(run);
            command.leave(run);

            hook.get(30, TimeUnit.SECONDS); // the close never comes: the close's own bound ends the wait
        } finally {
            runThread.interrupt();
            command.close();
        }
    }

    @Test
    void aCloseThatComesEndsTheWaitAtOnce() throws Exception {
        GuardedCommand command = GuardedCommand.open(Duration.ofHours(1));
        CompletableFuture<Void> hook;
        try {
            hook = CompletableFuture.runAsync(() -> command.awaitTeardownsAndClose(Duration.ofHours(1), Duration.ofHours(1)));
        } finally {
            command.close();
        }
        hook.get(30, TimeUnit.SECONDS);
    }
}
