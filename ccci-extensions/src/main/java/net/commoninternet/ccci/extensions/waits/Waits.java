package net.commoninternet.ccci.extensions.waits;

import com.google.common.util.concurrent.Uninterruptibles;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/**
 * Waits for work on another thread that keep the interrupt: a teardown, a reap or a start under
 * way must end before its caller goes on, whatever interrupts the caller meanwhile (a run's stop
 * interrupts its thread), and the interrupt is set again once the wait is over. Written once here,
 * over Guava's {@link Uninterruptibles}, for every such wait of ccci.
 */
@API(status = API.Status.INTERNAL)
public final class Waits {

    private Waits() {
    }

    /** Waits until {@code work} has ended, however it ends; an interrupt is kept for afterwards. */
    public static void awaitEnd(Future<?> work) {
        try {
            Uninterruptibles.getUninterruptibly(work);
        } catch (ExecutionException | CancellationException ended) {
            // it ended: how is its owner's to say
        }
    }

    /**
     * Waits until {@code work} has ended, however it ends, for at most {@code bound}; an interrupt
     * is kept for afterwards.
     *
     * @return whether it ended within the bound
     */
    public static boolean awaitEnd(Future<?> work, Duration bound) {
        try {
            Uninterruptibles.getUninterruptibly(work, bound);
            return true;
        } catch (ExecutionException | CancellationException ended) {
            return true;
        } catch (TimeoutException e) {
            return false;
        }
    }

    /**
     * What {@code work} gave once it ended, or what it threw (an exception as it is, anything else
     * wrapped); an interrupt during the wait is kept for afterwards.
     */
    public static <T> T resultOf(Future<T> work) throws Exception {
        try {
            return Uninterruptibles.getUninterruptibly(work);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * What {@code work} gave, or what it threw, once it ended. Unlike the others this wait may be
     * interrupted: then {@code work} is awaited to its end first (its owner stops it), and the
     * interrupt is thrown.
     */
    public static <T> T interruptibly(Future<T> work) throws Exception {
        try {
            return work.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            awaitEnd(work);
            throw e;
        }
    }
}
