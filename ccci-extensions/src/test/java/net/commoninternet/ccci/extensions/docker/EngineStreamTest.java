package net.commoninternet.ccci.extensions.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A stream ccci closed stays closed, whichever comes first: its close or the engine's answer
 * (docker-java's {@code onStart} on its reader thread). The interleaving that left an event stream
 * open until the run closed its engine connection (an ERROR line at the end of a passing run) is
 * forced here by calling the two in that order.
 */
class EngineStreamTest {

    /** What docker-java hands {@code onStart}: the HTTP response it reads; counts its closes. */
    private static final class Response implements Closeable {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void aCloseBeforeTheAnswerStartsClosesTheStreamWhenItStarts() throws Exception {
        EngineStream<Object> stream = new EngineStream<>();
        Response response = new Response();
        stream.close(); // ccci is done before the engine answered (a wait over at its first look)
        assertThat(response.closes).hasValue(0);
        stream.onStart(response); // the answer starts on docker-java's reader thread
        assertThat(response.closes).as("the stream ccci closed before it started").hasValue(1);
    }

    @Test
    void aCloseAfterTheAnswerStartedClosesTheStreamOnce() throws Exception {
        EngineStream<Object> stream = new EngineStream<>();
        Response response = new Response();
        stream.onStart(response);
        assertThat(response.closes).as("an open stream is left alone").hasValue(0);
        stream.close();
        stream.closeQuietly();
        stream.onComplete(); // the reader's own end after the close
        assertThat(response.closes).hasValue(1);
    }
}
