package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The commit of a keep's hand-over ({@code GuardedCommand.alsoOnStop}): of a stop of the command and the
 * registration, exactly one comes first; a registered action runs once, on the first stop; once the
 * command is closed, nothing registered runs (the keep outlives the command).
 */
class AlsoOnStopTest {

    @Test
    void ofAStopAndTheCommitExactlyOneComesFirstAndTheActionRunsOnce() {
        AtomicInteger signalled = new AtomicInteger();
        GuardedCommand command = GuardedCommand.open(Duration.ofHours(1));
        try {
            assertThat(command.alsoOnStop(signalled::incrementAndGet)).as("a commit before any stop").isTrue();
            assertThat(signalled).hasValue(0);
            command.stop(GuardedCommand.Cause.SHUTDOWN);
            assertThat(signalled).as("the stop ends the keep").hasValue(1);
            assertThat(command.alsoOnStop(signalled::incrementAndGet)).as("a commit after the stop").isFalse();
            command.stop(GuardedCommand.Cause.SHUTDOWN);
            assertThat(signalled).as("a later stop is ignored").hasValue(1);
        } finally {
            command.close();
        }
    }

    @Test
    void whatWasRegisteredOutlivesTheClosedCommand() {
        AtomicInteger signalled = new AtomicInteger();
        GuardedCommand command = GuardedCommand.open(Duration.ofHours(1));
        assertThat(command.alsoOnStop(signalled::incrementAndGet)).isTrue();
        command.close();
        assertThat(command.alsoOnStop(signalled::incrementAndGet)).as("a commit once the command is closed").isFalse();
        command.stop(GuardedCommand.Cause.SHUTDOWN);
        assertThat(signalled).hasValue(0);
    }
}
