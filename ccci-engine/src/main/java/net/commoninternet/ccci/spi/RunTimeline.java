package net.commoninternet.ccci.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * Where a run's minutes go: each phase (janitor, fetch, lock wait, deploy, convergence, each tier,
 * teardown) with its start and duration, measured on the monotonic clock from the run's start.
 * The lifecycle times its own phases, the engine each tier it runs; listeners (the console's
 * progress lines) hear each phase start and end.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class RunTimeline {

    /** How a phase ended. */
    public enum Outcome { DONE, FAILED }

    /**
     * One finished phase.
     *
     * @param start since the run's start
     */
    public record Phase(String name, Duration start, Duration duration, Outcome outcome) {
        public Phase {
            Objects.requireNonNull(name, "name");
        }
    }

    /** Hears each phase of the run start and end (on the thread that runs it). */
    public interface Listener {
        void started(String phase, Duration at);

        void ended(Phase phase);
    }

    /** What a timed phase does. */
    @FunctionalInterface
    public interface Step<T> {
        T run() throws Exception;
    }

    /** A phase under way; {@link #end} it exactly once. */
    public final class Span {
        private final String name;
        private final long startNanos;
        private boolean ended;

        private Span(String name, long startNanos) {
            this.name = name;
            this.startNanos = startNanos;
        }

        public void end(Outcome outcome) {
            Phase phase;
            synchronized (this) {
                if (ended) {
                    return;
                }
                ended = true;
                long now = System.nanoTime();
                phase = new Phase(name, Duration.ofNanos(startNanos - originNanos), Duration.ofNanos(now - startNanos), outcome);
            }
            phases.add(phase);
            listeners.forEach(l -> l.ended(phase));
        }
    }

    private final Instant startedAt = Instant.now();
    private final long originNanos = System.nanoTime();
    private final List<Phase> phases = new CopyOnWriteArrayList<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    public void listen(Listener listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    /** When the run started (wall clock, for the report; durations use the monotonic clock). */
    public Instant startedAt() {
        return startedAt;
    }

    /** Since the run's start. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - originNanos);
    }

    public Span start(String phase) {
        Span span = new Span(Objects.requireNonNull(phase), System.nanoTime());
        Duration at = Duration.ofNanos(span.startNanos - originNanos);
        listeners.forEach(l -> l.started(phase, at));
        return span;
    }

    /** Runs {@code step} as the phase {@code phase}: failed if it throws (what it threw goes on). */
    public <T> T time(String phase, Step<T> step) throws Exception {
        Span span = start(phase);
        Outcome outcome = Outcome.FAILED;
        try {
            T result = step.run();
            outcome = Outcome.DONE;
            return result;
        } finally {
            span.end(outcome);
        }
    }

    /** The phases that ended so far, in the order they ended. */
    public List<Phase> phases() {
        return new ArrayList<>(phases);
    }
}
