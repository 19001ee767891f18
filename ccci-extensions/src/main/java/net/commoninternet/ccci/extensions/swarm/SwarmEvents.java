package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wake-ups from the engine's event stream (service updates, container starts, health changes,
 * deaths) for a wait loop that inspects on each one. Events are only a hint: they can be missed
 * or come early, so the waiter still re-inspects on a timer and inspection decides.
 */
final class SwarmEvents implements Closeable {

    private final Semaphore pending = new Semaphore(0);
    private final EngineStream<Event> callback;

    private SwarmEvents(DockerClient client) {
        callback = client.eventsCmd()
                .withEventTypeFilter(EventType.SERVICE, EventType.CONTAINER)
                .exec(new EngineStream<>() {
                    @Override
                    public void onNext(Event event) {
                        pending.release();
                    }
                });
    }

    static SwarmEvents subscribe(DockerClient client) {
        return new SwarmEvents(client);
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
