package net.commoninternet.ccci.extensions.docker;

import com.github.dockerjava.api.async.ResultCallback;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.waits.LongWait;
import org.apiguardian.api.API;

/**
 * A docker-java stream (events, logs, an exec's output) that stays closed once ccci closed it,
 * whenever the engine's answer starts. Every stream ccci opens is one of these.
 *
 * <p>Resource: the HTTP stream docker-java reads on a thread of its own. Invariant: a stream ccci
 * closed is never read again, so none is still open when the run closes its engine connection
 * (docker-java logs a stream cut by that as {@code ERROR ResultCallbackTemplate - Error during
 * callback java.nio.channels.AsynchronousCloseException}, at the end of a passing run). The trap
 * (docker-java 3.7.0, read off its bytecode): {@code exec(callback)} returns before the request is
 * answered, and {@code ResultCallbackTemplate.onStart} sets its {@code closed} flag back to false
 * when the answer starts. A {@link #close()} that comes first (the event stream of a convergence
 * wait that was over at its first look) is undone, and an event stream, which never ends by
 * itself, is then read until the run closes the connection under it. Here a close before the
 * start is remembered and {@link #onStart} closes the stream it is handed at once. Scope: one
 * stream, two threads (ccci's and docker-java's reader); {@code onStart} and {@code close} are
 * synchronized on the stream, so one of them always sees the other: either the start comes
 * first and the close sees the stream, or the close comes first and the start sees the request.
 * Neither blocks under the lock: docker-java's stream close interrupts its reader and closes the
 * response, it does not wait for the reader.
 */
@API(status = API.Status.INTERNAL)
public class EngineStream<T> extends ResultCallback.Adapter<T> {

    private boolean closeRequested;
    /**
     * Counted down when the engine ends the stream (its end or an error): what {@link #awaitEnd}
     * waits on. docker-java's own {@code awaitCompletion(timeout)} closes the stream when its
     * timeout passes (3.7.0's bytecode: {@code close()} in a {@code finally}), so a wait in slices
     * cannot be made of it: after the first slice the stream is gone and reads as complete.
     */
    private final CountDownLatch ended = new CountDownLatch(1);

    @Override
    public void onComplete() {
        super.onComplete();
        ended.countDown();
    }

    @Override
    public void onError(Throwable throwable) {
        super.onError(throwable);
        ended.countDown();
    }

    /**
     * Waits for the engine to end the stream, for at most {@code wait}'s bound, saying every
     * {@link LongWait#EVERY} that it still waits; whether it ended. A stream that did not end
     * stays open (the caller closes it); one that ended with an error throws it, as
     * {@code awaitCompletion} does.
     */
    public boolean awaitEnd(LongWait wait) throws InterruptedException {
        while (!ended.await(wait.slice().toNanos(), TimeUnit.NANOSECONDS)) {
            if (wait.over()) {
                return false;
            }
            wait.tick(null);
        }
        throwFirstError();
        return true;
    }

    @Override
    public synchronized void onStart(Closeable stream) {
        super.onStart(stream);
        if (closeRequested) {
            closeQuietly();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        closeRequested = true;
        super.close();
    }

    /** Closes the stream; a stream that is finished or broken already is closed either way. */
    public void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // finished or abandoned either way
        }
    }
}
