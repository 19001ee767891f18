package net.commoninternet.ccci.extensions.waits;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.slf4j.Logger;

/**
 * A bounded wait a person may be watching (convergence, a backup hook, restic's backup or restore):
 * every {@link #EVERY} it goes on, it says so, with what it waits for, how long it has, and what it
 * sees now: {@code .. still waiting for stack x to converge: 20 s of at most 120 s (app: 0/1 running)}.
 * A wait that ends sooner says nothing.
 *
 * <p>The line is written by the waiting thread itself, between two slices of its wait
 * ({@link #slice}) or between two looks of a polling wait, never by a timer thread: so it carries the run's MDC and lands in the run's
 * run.log like every other line of the run, and a wait that is over can never print late. One
 * wait, one thread; not shared.
 */
@API(status = API.Status.INTERNAL)
public final class LongWait {

    /** How often a long wait says it is still waiting. */
    public static final Duration EVERY = Duration.ofSeconds(10);

    private final Logger log;
    private final String what;
    private final Duration bound;
    private final LongSupplier nanoTime;
    private final long started;
    private long nextSay;

    private LongWait(Logger log, String what, Duration bound, LongSupplier nanoTime) {
        this.log = log;
        this.what = what;
        this.bound = bound;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.nextSay = started + EVERY.toNanos();
    }

    /**
     * A wait for {@code what} ({@code stack x to converge}) of at most {@code bound}, begun now,
     * whose lines go to {@code log} (the waiting mechanism's own logger).
     */
    public static LongWait begin(Logger log, String what, Duration bound) {
        return new LongWait(log, what, bound, System::nanoTime);
    }

    /** The same on a clock of the caller's (a test's): {@code nanoTime} as {@link System#nanoTime} reads. */
    static LongWait begin(Logger log, String what, Duration bound, LongSupplier nanoTime) {
        return new LongWait(log, what, bound, nanoTime);
    }

    /**
     * Says that the wait goes on, if another {@link #EVERY} has passed since it began or last said
     * so and its bound has not; {@code seen} (what the waiter sees now, or null) is asked only then.
     *
     * @return whether it said so
     */
    public boolean tick(Supplier<String> seen) {
        long now = nanoTime.getAsLong();
        if (now - nextSay < 0 || over()) {
            return false; // a wait whose bound is over is not still waiting: its caller says how it ended
        }
        long waited = Duration.ofNanos(now - started).toSeconds();
        String state = seen == null ? null : seen.get();
        log.info(".. still waiting for {}: {} s of at most {} s{}", what, waited, bound.toSeconds(),
                state == null || state.isBlank() ? "" : " (" + state + ")");
        // the next line EVERY after this one was due, not after now: a late tick does not drift the rhythm
        while (now - nextSay >= 0) {
            nextSay += EVERY.toNanos();
        }
        return true;
    }

    /** Whether the wait's bound has passed. */
    public boolean over() {
        return nanoTime.getAsLong() - started - bound.toNanos() >= 0;
    }

    /**
     * How long the next slice of a blocking wait may last: until the next line is due or the bound
     * ends, whichever comes first; at least a millisecond. A blocking wait runs slice after slice,
     * {@link #tick} between them, until its event or {@link #over}.
     */
    public Duration slice() {
        long now = nanoTime.getAsLong();
        long until = Math.min(nextSay - now, started + bound.toNanos() - now);
        return Duration.ofNanos(Math.max(Duration.ofMillis(1).toNanos(), until));
    }
}
