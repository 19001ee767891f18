package net.commoninternet.ccci.extensions.probe;

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
import net.commoninternet.ccci.extensions.children.CappedOutput;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.AttachedStdin;
import net.commoninternet.ccci.extensions.docker.EngineStream;
import net.commoninternet.ccci.extensions.waits.LongWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shell of ccci's own in a container, attached once: a command is one line written to its stdin
 * and read back off its output, where an exec of its own costs a process the engine's runtime
 * starts each time. Two kinds: the probe container's own shell, its PID 1 ({@link #attach}: a
 * probe's line comes back in 15-30 ms under gVisor, an exec in 35-65 ms under runc); and a shell
 * exec'd once into an app's running container ({@link #exec}), for ccci's and the recipe's
 * commands in it (a marker, a hook, an assertion's exec: a line 13-18 ms under gVisor, an exec of
 * its own 80-90 ms, measured against Debian's nginx).
 *
 * <p>The protocol: ccci writes {@code 'arg' 'arg' ... </dev/null; printf '\n%s %s\n' NONCE "$?";
 * printf '\n%s\n' NONCE >&2} as one line (with {@code 2>&1} after the redirect of stdin when the
 * caller wants the output merged, as an exec without a terminal would interleave it); the shell
 * ({@link #COMMAND}) evaluates each line in turn. Every argument is single-quoted (a quote inside as {@code '\''}), so nothing of a
 * recipe's path or domain is expanded; an argument with a line break or a NUL cannot be one line
 * and goes through an exec instead ({@link #fits}). The command's stdin is {@code /dev/null}, so it
 * never reads the lines after it. Its output ends at the nonce's line on each stream (a nonce of
 * 128 random bits per command, so no output of an app can end it early); the exit status is the
 * number after it.
 *
 * <p>A command of an exec'd shell is its child, in the container's own environment, working
 * folder and user, as an exec's is; it cannot change the shell (a recipe's script goes in as
 * {@code sh -c}, one argument). What an exec would not show: a process the command leaves in the
 * background that writes to the output later writes into a later command's output (an exec's
 * stream would stay open until it ends, and the wait for it would last its bound).
 *
 * <p>Resource: the shell and its attach stream. Invariant: one command at a time (the methods are
 * synchronized), and a shell whose command outlived its bound, or whose stream ended, is never
 * written to again ({@link #broken}): the caller falls back to an exec. Scope: one container; the
 * probe container's is closed by {@link HttpProbe#close} before the stack's teardown, an app
 * container's ends with the container (or {@link ContainerExec#close}).
 */
final class AttachedShell implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AttachedShell.class);
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

    /** How a shell's stream is opened: the container's own attach, or an exec's. */
    @FunctionalInterface
    private interface Opening {
        EngineStream<Frame> open(AttachedStdin stdin, AttachedStdin.Listener listener);
    }

    private AttachedShell(String container, Opening opening) {
        this.container = container;
        this.stream = opening.open(stdin, new AttachedStdin.Listener(this::received,
                failure -> ended(Break.STREAM_FAILED, "its stream failed: " + failure),
                () -> ended(Break.STREAM_ENDED, "its stream ended" + (pendingNow() ? " while a command was under way" : ""))));
    }

    /** The shell that is the container's PID 1 ({@link #COMMAND}, the probe container's), attached. */
    static AttachedShell attach(DockerClient client, String container) {
        return new AttachedShell(container, (stdin, listener) -> stdin.attach(client, container, listener));
    }

    /** A shell ({@link #COMMAND}) exec'd into the running {@code container} on {@code engine}, attached. */
    static AttachedShell exec(DockerClient engine, String container) {
        return new AttachedShell(container, (stdin, listener) -> stdin.exec(engine, container, COMMAND, listener));
    }

    /** Whether {@code command} can go as one line: no argument holds a line break or a NUL. */
    static boolean fits(List<String> command) {
        return command.stream().noneMatch(a -> a.indexOf('\n') >= 0 || a.indexOf('\r') >= 0 || a.indexOf('\0') >= 0);
    }

    /** {@code command} as one line of the shell, each argument single-quoted; {@code merged}: its stderr into its stdout. */
    static String line(List<String> command, String nonce, boolean merged) {
        StringBuilder line = new StringBuilder();
        for (String arg : command) {
            line.append(ContainerExec.quoted(arg)).append(' ');
        }
        return line.append(merged ? "</dev/null 2>&1; " : "</dev/null; ").append("printf '\\n%s %s\\n' ").append(nonce)
                .append(" \"$?\"; printf '\\n%s\\n' ").append(nonce).append(" >&2\n").toString();
    }

    /**
     * Runs {@code command} in the shell for at most {@code bound}: empty when the shell cannot take
     * it (broken before it was sent: run it as an exec); a result whose exit is null when it did not
     * end in time (the shell is broken from then on).
     */
    synchronized Optional<ProbeContainer.Ran> run(List<String> command, Duration bound) throws InterruptedException {
        return run(command, LongWait.begin(LOG, "a command in container " + container.substring(0, Math.min(12,
                container.length())), bound), false);
    }

    /**
     * Runs {@code command} in the shell for at most {@code wait}'s bound, saying every {@link
     * LongWait#EVERY} that it still waits; {@code merged}: its stderr into its stdout, as an exec's
     * interleaves them. Empty when the shell cannot take it (broken before it was sent: run it as an
     * exec); a result whose exit is null when it did not end in time (the shell is broken from then on).
     */
    synchronized Optional<ProbeContainer.Ran> run(List<String> command, LongWait wait, boolean merged)
            throws InterruptedException {
        if (broken != null) {
            return Optional.empty();
        }
        byte[] nonceBytes = new byte[16];
        RANDOM.nextBytes(nonceBytes);
        String nonce = "ccci-" + HexFormat.of().formatHex(nonceBytes);
        Pending current = new Pending(nonce);
        pending = current;
        stdin.write(line(command, nonce, merged).getBytes(StandardCharsets.UTF_8));
        try {
            while (!current.done() && broken == null) {
                if (wait.over()) {
                    breakWith(Break.COMMAND_OUTLIVED_ITS_BOUND, "its command did not end within its bound");
                    return Optional.of(new ProbeContainer.Ran(null, current.out.text(), current.err.text()));
                }
                TimeUnit.NANOSECONDS.timedWait(this, wait.slice().toNanos());
                wait.tick(null);
            }
            if (!current.done()) {
                // The stream ended under the command. Nothing of it came back: the command (a GET, a
                // connect, a marker) goes through an exec instead. Part of it came back: it is not run twice.
                return current.out.total() + current.err.total() == 0 ? Optional.empty()
                        : Optional.of(new ProbeContainer.Ran(null, current.out.text(), current.err.text()));
            }
            used = true;
            return Optional.of(new ProbeContainer.Ran(current.exit, current.stripped(current.out),
                    current.stripped(current.err)));
        } catch (InterruptedException e) {
            breakWith(Break.INTERRUPTED, "a command was interrupted");
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
        // a stream that ends between commands is a container that went (an upgrade replaces it): nothing to say
        if (cause != Break.STREAM_ENDED || pending != null) {
            LOG.info("the shell of container {} is not used any more ({}, {} ms after its attach){}",
                    container.substring(0, Math.min(12, container.length())), reason,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attached),
                    used ? ": its commands go through an exec" : "");
        }
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
