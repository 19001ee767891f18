package net.commoninternet.ccci.extensions.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * The stdin of an attached container or exec (a shell of ccci's, the browser's pipe): what ccci writes,
 * read by docker-java's copier thread. Not a pipe: a pipe breaks when its writer thread ends, and
 * each write here comes from whichever thread probes. {@link #close} ends the stream: the copier
 * reads its end, and the container's stdin closes with the attach.
 */
@API(status = API.Status.INTERNAL)
public final class AttachedStdin extends InputStream {

    private static final byte[] END = new byte[0];
    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int at;
    private volatile boolean closed;

    /** Who hears an attached stream: each frame of its stdout and stderr, its failure, its end. */
    public record Listener(Consumer<Frame> frames, Consumer<Throwable> failed, Runnable ended) {
        EngineStream<Frame> stream() {
            return new EngineStream<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    frames.accept(frame);
                }

                @Override
                public void onError(Throwable throwable) {
                    failed.accept(throwable);
                }

                @Override
                public void onComplete() {
                    ended.run();
                }
            };
        }
    }

    /** Attaches {@code container} with this as its stdin, following its stdout and stderr, for {@code listener}. */
    public EngineStream<Frame> attach(DockerClient client, String container, Listener listener) {
        return client.attachContainerCmd(container).withStdIn(this).withStdOut(true).withStdErr(true)
                .withFollowStream(true).exec(listener.stream());
    }

    /**
     * Execs {@code command} in the running {@code container} on {@code engine} with this as its
     * stdin, following its stdout and stderr (no terminal) for {@code listener}: its end is the
     * command's, or the container's.
     */
    public EngineStream<Frame> exec(DockerClient engine, String container, List<String> command, Listener listener) {
        String exec = engine.execCreateCmd(container).withCmd(command.toArray(String[]::new)).withAttachStdin(true)
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        return engine.execStartCmd(exec).withStdIn(this).exec(listener.stream());
    }

    public void write(byte[] bytes) {
        if (!closed) {
            chunks.add(bytes);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (at >= current.length) {
            if (current == END) {
                return -1;
            }
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
            at = 0;
        }
        int n = Math.min(length, current.length - at);
        System.arraycopy(current, at, buffer, offset, n);
        at += n;
        return n;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            chunks.add(END);
        }
    }
}
