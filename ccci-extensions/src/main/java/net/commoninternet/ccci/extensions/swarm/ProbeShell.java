package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lifetime.CappedOutput;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The probe container's own shell, attached once: a probe is one line written to its stdin and
 * read back off its output, a fraction of a millisecond where an exec costs 35-45 ms on this
 * kind of machine (runc starts a process in the container for each; measured in-process, 20
 * each: an attached line 0.2-0.7 ms, an exec of {@code true} 30-65 ms).
 *
 * <p>The protocol: ccci writes {@code 'arg' 'arg' ... </dev/null; printf '\n%s %s\n' NONCE "$?";
 * printf '\n%s\n' NONCE >&2} as one line; the shell ({@link #COMMAND}) evaluates each line in
 * turn. Every argument is single-quoted (a quote inside as {@code '\''}), so nothing of a
 * recipe's path or domain is expanded; an argument with a line break or a NUL cannot be one line
 * and goes through an exec instead ({@link #fits}). The command's stdin is {@code /dev/null}, so it
 * never reads the lines after it. Its output ends at the nonce's line on each stream (a nonce of
 * 128 random bits per command, so no output of an app can end it early); the exit status is the
 * number after it.
 *
 * <p>Resource: the shell and its attach stream. Invariant: one command at a time (the methods are
 * synchronized), and a shell whose command outlived its bound, or whose stream ended, is never
 * written to again ({@link #broken}): the caller falls back to an exec. Scope: one probe
 * container; closed by {@link HttpProbe#close} before the stack's teardown.
 */
final class ProbeShell implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeShell.class);
    /** What the probe container runs: PID 1, reading one command a line from its stdin. */
    static final List<String> COMMAND = List.of("sh", "-c", "while IFS= read -r line; do eval \"$line\"; done");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int MARKER_TAIL = 256;

    private final String container;
    private final AttachedStdin stdin = new AttachedStdin();
    private final EngineStream<Frame> stream;
    /** Why a shell is not written to any more: only a stream that ended may be attached again. */
    private enum Break { STREAM_ENDED, STREAM_FAILED, COMMAND_OUTLIVED_ITS_BOUND, INTERRUPTED, CLOSED }

    /** Guarded by this: the command under way (null between commands), and why the shell is not usable (null while it is). */
    private Pending pending;
    private Break broken;
    /** Whether any command came back whole; guarded by this. */
    private boolean used;
    private final long attached = System.nanoTime();

    private ProbeShell(DockerClient client, String container) {
        this.container = container;
        this.stream = stdin.attach(client, container, this::received,
                failure -> ended(Break.STREAM_FAILED, "its stream failed: " + failure),
                () -> ended(Break.STREAM_ENDED, "its stream ended" + (pendingNow() ? " while a probe was under way" : "")));
    }

    static ProbeShell attach(DockerClient client, String container) {
        return new ProbeShell(client, container);
    }

    /** Whether {@code command} can go as one line: no argument holds a line break or a NUL. */
    static boolean fits(List<String> command) {
        return command.stream().noneMatch(a -> a.indexOf('\n') >= 0 || a.indexOf('\r') >= 0 || a.indexOf('\0') >= 0);
    }

    /** {@code command} as one line of the shell, each argument single-quoted. */
    static String line(List<String> command, String nonce) {
        StringBuilder line = new StringBuilder();
        for (String arg : command) {
            line.append(ContainerExec.quoted(arg)).append(' ');
        }
        return line.append("</dev/null; printf '\\n%s %s\\n' ").append(nonce).append(" \"$?\"; printf '\\n%s\\n' ")
                .append(nonce).append(" >&2\n").toString();
    }

    /**
     * Runs {@code command} in the shell for at most {@code bound}: empty when the shell cannot take
     * it (broken before it was sent: run it as an exec); a result whose exit is null when it did not
     * end in time (the shell is broken from then on).
     */
    synchronized Optional<ProbeContainer.Ran> run(List<String> command, Duration bound) throws InterruptedException {
        if (broken != null) {
            return Optional.empty();
        }
        byte[] nonceBytes = new byte[16];
        RANDOM.nextBytes(nonceBytes);
        String nonce = "ccci-" + HexFormat.of().formatHex(nonceBytes);
        Pending current = new Pending(nonce);
        pending = current;
        stdin.write(line(command, nonce).getBytes(StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            while (!current.done() && broken == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    breakWith(Break.COMMAND_OUTLIVED_ITS_BOUND, "its command did not end within " + bound.toSeconds() + " s");
                    return Optional.of(new ProbeContainer.Ran(null, current.out.text(), current.err.text()));
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            if (!current.done()) {
                // The stream ended under the command. Nothing of it came back: the probe (a GET, a
                // connect) goes through an exec instead. Part of it came back: it is not run twice.
                return current.out.total() + current.err.total() == 0 ? Optional.empty()
                        : Optional.of(new ProbeContainer.Ran(null, current.out.text(), current.err.text()));
            }
            used = true;
            return Optional.of(new ProbeContainer.Ran(current.exit, current.stripped(current.out),
                    current.stripped(current.err)));
        } catch (InterruptedException e) {
            breakWith(Break.INTERRUPTED, "a probe was interrupted");
            throw e;
        } finally {
            pending = null;
        }
    }

    private synchronized void received(Frame frame) {
        if (pending != null) {
            pending.append(frame.getStreamType() == StreamType.STDERR, frame.getPayload());
            if (pending.done()) {
                notifyAll();
            }
        }
    }

    private synchronized boolean pendingNow() {
        return pending != null;
    }

    private synchronized void ended(Break cause, String reason) {
        if (broken == null) {
            breakWith(cause, reason);
        }
    }

    /** From here on every command goes through an exec. Called holding the lock; {@code reason} is for the log. */
    private void breakWith(Break cause, String reason) {
        broken = cause;
        notifyAll();
        LOG.info("the probe shell of container {} is not used any more ({}, {} ms after its attach){}",
                container.substring(0, Math.min(12, container.length())), reason,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attached),
                used ? ": probes go through an exec" : "");
        stdin.close();
        stream.closeQuietly();
    }

    @Override
    public synchronized void close() {
        if (broken == null) {
            broken = Break.CLOSED;
            stdin.close();
            stream.closeQuietly();
            notifyAll();
        }
    }

    /** Whether its stream ended before any command came back (then a new attach may serve). */
    synchronized boolean endedUnused() {
        return broken == Break.STREAM_ENDED && !used;
    }

    /** One command's output, each stream until its nonce's line. */
    private static final class Pending {
        private final String nonce;
        private final Pattern outEnd;
        private final CappedOutput out = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        private final CappedOutput err = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        private final StringBuilder outTail = new StringBuilder();
        private final StringBuilder errTail = new StringBuilder();
        private Long exit;
        private boolean errDone;

        Pending(String nonce) {
            this.nonce = nonce;
            this.outEnd = Pattern.compile("\n" + nonce + " (\\d+)\n$");
        }

        void append(boolean stderr, byte[] payload) {
            (stderr ? err : out).append(payload, payload.length);
            StringBuilder tail = stderr ? errTail : outTail;
            tail.append(new String(payload, StandardCharsets.ISO_8859_1));
            if (tail.length() > MARKER_TAIL) {
                tail.delete(0, tail.length() - MARKER_TAIL);
            }
            if (stderr) {
                errDone = tail.toString().endsWith("\n" + nonce + "\n");
            } else {
                Matcher end = outEnd.matcher(tail);
                exit = end.find() ? Long.valueOf(end.group(1)) : null;
            }
        }

        boolean done() {
            return exit != null && errDone;
        }

        /** The stream's text without the line break and nonce line the protocol added at its end. */
        String stripped(CappedOutput output) {
            String text = output.text();
            int end = text.lastIndexOf("\n" + nonce);
            return end >= 0 ? text.substring(0, end) : text;
        }
    }
}
