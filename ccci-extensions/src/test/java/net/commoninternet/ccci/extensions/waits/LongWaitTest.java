package net.commoninternet.ccci.extensions.waits;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A long wait's rhythm on a clock the test moves: nothing within the first 10 s, then one line per
 * 10 s with what the waiter sees, none skipped or doubled when a look comes late, and slices that
 * end at the next line or the bound.
 */
class LongWaitTest {

    private final Logger log = (Logger) LoggerFactory.getLogger("LongWaitTest");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    LongWaitTest() {
        lines.start();
        log.addAppender(lines);
    }

    @AfterEach
    void detach() {
        log.detachAppender(lines);
    }

    private void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    @Test
    void saysNothingBeforeTenSecondsThenEveryTenSecondsWhatItSees() {
        LongWait wait = LongWait.begin(log, "stack x to converge", Duration.ofSeconds(120), now::get);

        advance(Duration.ofMillis(9_999));
        assertThat(wait.tick(() -> "app: 0/1 running")).isFalse();
        advance(Duration.ofMillis(1));
        assertThat(wait.tick(() -> "app: 0/1 running")).isTrue();
        advance(Duration.ofSeconds(5));
        assertThat(wait.tick(() -> "app: 0/1 running")).isFalse();
        advance(Duration.ofSeconds(5));
        assertThat(wait.tick(null)).isTrue();

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                ".. still waiting for stack x to converge: 10 s of at most 120 s (app: 0/1 running)",
                ".. still waiting for stack x to converge: 20 s of at most 120 s");
    }

    @Test
    void aLateLookSaysOnceAndKeepsTheRhythm() {
        LongWait wait = LongWait.begin(log, "pre-hook of app", Duration.ofSeconds(600), now::get);

        advance(Duration.ofSeconds(35));
        assertThat(wait.tick(null)).isTrue();
        assertThat(wait.tick(null)).as("once for the three periods it missed").isFalse();
        advance(Duration.ofSeconds(5));
        assertThat(wait.tick(null)).as("the next line is due at 40 s, not 45 s").isTrue();
        assertThat(lines.list).hasSize(2);
    }

    @Test
    void aSliceEndsAtTheNextLineOrAtTheBoundAndTheWaitKnowsWhenItIsOver() {
        LongWait wait = LongWait.begin(log, "restic backup of x", Duration.ofSeconds(25), now::get);

        assertThat(wait.slice()).isEqualTo(Duration.ofSeconds(10));
        advance(Duration.ofSeconds(4));
        assertThat(wait.slice()).isEqualTo(Duration.ofSeconds(6));
        advance(Duration.ofSeconds(16));
        wait.tick(null);
        assertThat(wait.slice()).as("5 s are left of the bound, the next line is 10 s away").isEqualTo(Duration.ofSeconds(5));
        assertThat(wait.over()).isFalse();
        advance(Duration.ofSeconds(5));
        assertThat(wait.over()).isTrue();
        assertThat(wait.slice()).isEqualTo(Duration.ofMillis(1));
        advance(Duration.ofSeconds(5));
        assertThat(wait.tick(null)).as("a wait whose bound is over is not still waiting").isFalse();
    }
}
