package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.async.ResultCallback;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import net.commoninternet.ccci.extensions.docker.EngineStream;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * Two races inside one JVM under Lincheck's model checker (it runs the real code on threads it
 * schedules and explores their interleavings), each also run against its seeded bug.
 *
 * <p>Several recipes of one command share the JVM's {@link DomainFence}: a run that ends releases
 * its lease on a domain (its guard goes) while another run's janitor, which found that domain's
 * leftovers, takes the lease to reap them (its guard comes). Invariant: the reap stays fenced by the
 * janitor's own lease whichever comes first. Seeded bug: a release that removes whatever guard the
 * stack has.
 *
 * <p>An engine stream's close against its answer's start ({@link EngineStream}, docker-java's reader
 * thread calling {@code onStart} then {@code onNext} with the first frame). Invariant: a stream ccci
 * closed is closed, whichever comes first. Seeded bug: the plain docker-java callback, whose
 * {@code onStart} undoes an earlier close.
 */
class SharedJvmScheduleTest {

    private static final int INVOCATIONS = 50;
    private static final String STACK = "shr-5d5d5d_ci_commoninternet_net";

    /** Both on threads of their own (made here, not in a stream: the model checker must see each thread made). */
    private static void inParallel(Runnable one, Runnable other) {
        Thread first = new Thread(one);
        Thread second = new Thread(other);
        first.start();
        second.start();
        try {
            first.join();
            second.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A run's release of the stack against the janitor's take of it; the janitor's lease says "not confirmed". */
    private static void releaseAgainstTake(DomainFence fence) {
        BooleanSupplier run = () -> true;
        BooleanSupplier janitor = () -> false;
        fence.add(STACK, run);
        inParallel(() -> fence.remove(STACK, run), () -> fence.add(STACK, janitor));
        if (fence.allowsNow(STACK)) {
            throw new AssertionError("the janitor's reap is no longer fenced by its own lease (its guard was removed)");
        }
    }

    @Test
    void aRunsReleaseNeverUnfencesTheJanitorsReapOfItsDomain() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> releaseAgainstTake(new DomainFence()));
    }

    @Test
    void aReleaseThatRemovesAnyGuardIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> releaseAgainstTake(new DomainFence() {
            @Override
            void remove(String stack, BooleanSupplier confirmed) {
                guards.remove(stack);
            }
        }))).isInstanceOf(AssertionError.class).hasMessageContaining("no longer fenced by its own lease");
    }

    /** What docker-java hands {@code onStart}: the response it reads; counts its closes. */
    private static final class Response implements Closeable {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static void closeAgainstFirstFrame(ResultCallback.Adapter<String> stream) {
        Response response = new Response();
        inParallel(() -> {
            try {
                stream.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, () -> {
            stream.onStart(response);
            stream.onNext("the first frame");
        });
        if (response.closes.get() == 0) {
            throw new AssertionError("a stream ccci closed is left open: its close came before the engine's answer started");
        }
    }

    @Test
    void aClosedStreamIsClosedWhicheverComesFirst() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> closeAgainstFirstFrame(new EngineStream<>()));
    }

    @Test
    void thePlainCallbackWhoseStartUndoesTheCloseIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> closeAgainstFirstFrame(new ResultCallback.Adapter<>())))
                .isInstanceOf(AssertionError.class).hasMessageContaining("a stream ccci closed is left open");
        assertThat(new EngineStream<String>()).isInstanceOf(ResultCallback.Adapter.class);
    }
}
