package net.commoninternet.ccci.extensions.children;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * What a child process printed, drained from its pipe as it comes (so the child never blocks on
 * a full pipe) and kept within a bound: the first {@code headBytes} and the last
 * {@code tailBytes}, with a note of how much was left out between them. A chatty child costs the
 * run at most {@code headBytes + tailBytes} of heap, however much it prints.
 *
 * <p>The reader stops at end of stream, which comes when the last process holding the pipe's
 * write end is gone. {@link #await} bounds how long the run waits for that: a process that
 * escaped the child's process group (a daemon that called setsid) may hold it open for good; the
 * run then goes on with what was read, says so, and leaves the reader (a daemon thread) to end
 * whenever the pipe does.
 */
@API(status = API.Status.INTERNAL)
public final class CappedOutput {

    /** What the arrays start at: most outputs (a git id, a probe's answer) are far smaller than their bound. */
    private static final int FIRST_CAPACITY = 8192;

    private final int headBytes;
    private final int tailBytes;
    /** Grown as output comes, up to {@link #headBytes}: a bound is what a chatty child may cost, not what every child does. */
    private byte[] head = new byte[0];
    /** Written in order until it holds {@link #tailBytes}, a ring from then on; grown like {@link #head} until then. */
    private byte[] tail = new byte[0];
    private int headLength;
    private long tailWritten;
    private long total;
    private boolean ended;

    private CappedOutput(int headBytes, int tailBytes) {
        this.headBytes = headBytes;
        this.tailBytes = tailBytes;
    }

    /** A sink to {@link #append} to, for output that arrives in frames (a container's log or exec stream). */
    public static CappedOutput sink(int headBytes, int tailBytes) {
        CappedOutput output = new CappedOutput(headBytes, tailBytes);
        output.ended = true;
        return output;
    }

    /** Starts draining {@code in} on a daemon thread of its own. */
    public static CappedOutput drain(InputStream in, int headBytes, int tailBytes, String threadName) {
        CappedOutput output = new CappedOutput(headBytes, tailBytes);
        Thread reader = new Thread(() -> output.readAll(in), threadName);
        reader.setDaemon(true);
        reader.start();
        return output;
    }

    private void readAll(InputStream in) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                append(buffer, n);
            }
        } catch (IOException closed) {
            // the stream was closed under us: what was read is kept
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    public synchronized void append(byte[] bytes, int length) {
        int toHead = Math.min(length, headBytes - headLength);
        head = room(head, headLength + toHead, headBytes);
        System.arraycopy(bytes, 0, head, headLength, toHead);
        headLength += toHead;
        int offset = toHead;
        if (offset < length && tailWritten < tailBytes) {
            // still in order (no wrap yet): the array grows to what it must hold, never past the bound
            tail = room(tail, (int) Math.min(tailBytes, tailWritten + length - offset), tailBytes);
        }
        while (offset < length && tail.length > 0) {
            int at = (int) (tailWritten % tail.length);
            int n = Math.min(length - offset, tail.length - at);
            System.arraycopy(bytes, offset, tail, at, n);
            tailWritten += n;
            offset += n;
        }
        total += length;
    }

    /** {@code array}, or a copy of it grown to hold at least {@code needed} bytes (doubling, at most {@code bound}). */
    private static byte[] room(byte[] array, int needed, int bound) {
        if (needed <= array.length) {
            return array;
        }
        int capacity = Math.min(bound, Math.max(needed, Math.max(FIRST_CAPACITY, 2 * array.length)));
        return Arrays.copyOf(array, capacity);
    }

    /**
     * The text once the stream has ended, or after {@code grace} with what was read by then and
     * a line saying the rest was not waited for.
     */
    public String await(Duration grace) throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (this) {
            while (!ended) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return text() + "\n[ccci: the output was still open " + grace.toSeconds() + " s after the child"
                            + " exited (a process that left its process group holds it); the rest is not waited for]";
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            return text();
        }
    }

    /** Head, then the left-out count, then tail; as UTF-8 (a character cut at a seam shows as U+FFFD). */
    public synchronized String text() {
        String first = new String(head, 0, headLength, StandardCharsets.UTF_8);
        if (tailWritten == 0) {
            return first;
        }
        int kept = (int) Math.min(tailWritten, tail.length);
        byte[] last = new byte[kept];
        long start = tailWritten - kept;
        for (int i = 0; i < kept; i++) {
            last[i] = tail[(int) ((start + i) % tail.length)];
        }
        long leftOut = total - headLength - kept;
        return first + (leftOut > 0 ? "\n[ccci: " + leftOut + " bytes of output left out here: the first " + headLength
                + " and the last " + kept + " are kept]\n" : "") + new String(last, StandardCharsets.UTF_8);
    }

    /** Whether the stream has ended (its last writer is gone): only then is the text all there is. */
    public synchronized boolean ended() {
        return ended;
    }

    /** Whether anything was left out: the text is not the whole output. */
    public synchronized boolean cut() {
        return total > headLength + Math.min(tailWritten, tail.length);
    }

    /** How many bytes the child printed in all. */
    public synchronized long total() {
        return total;
    }
}
