package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.docker.EngineStream;

/**
 * Wake-ups from the engine's event stream (service updates, container starts, health changes,
 * deaths) for a wait loop that inspects on each one. Events are only a hint: they can be missed
 * or come early, so the waiter still re-inspects on a timer and inspection decides.
 */
final class SwarmEvents implements Closeable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SwarmEvents.class);

    private final Semaphore pending = new Semaphore(0);
    private final EngineStream<Event> callback;

    private SwarmEvents(DockerClient client, EventType... types) {
        callback = client.eventsCmd()
                .withEventTypeFilter(types)
                .exec(new EngineStream<>() {
                    @Override
                    public void onNext(Event event) {
                        pending.release();
                    }

                    /**
                     * A hint lost (the engine away, a teardown retrying against no engine): the waiter's
                     * timer takes over. Not docker-java's ERROR line: nothing failed that inspection misses.
                     */
                    @Override
                    public void onError(Throwable cause) {
                        LOG.debug("engine event stream ended: {}", cause.toString());
                        closeQuietly();
                    }
                });
    }

    /** Service and container events: what a convergence wait wakes on. */
    static SwarmEvents subscribe(DockerClient client) {
        return new SwarmEvents(client, EventType.SERVICE, EventType.CONTAINER);
    }

    /** Events of {@code types} only. */
    static SwarmEvents subscribe(DockerClient client, EventType... types) {
        return new SwarmEvents(client, types);
    }

    /** Waits up to {@code max} for an event; true if one (or more, all drained) arrived. */
    boolean await(Duration max) throws InterruptedException {
        boolean woken = pending.tryAcquire(max.toMillis(), TimeUnit.MILLISECONDS);
        pending.drainPermits();
        return woken;
    }

    @Override
    public void close() {
        callback.closeQuietly();
    }
}
