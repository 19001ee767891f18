package net.commoninternet.ccci.extensions.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import net.commoninternet.ccci.extensions.docker.AttachedStdin;
import net.commoninternet.ccci.extensions.docker.EngineStream;

/**
 * Chromium's DevTools protocol over its pipe, through the browser container's attached stdin and
 * stdout: the container runs chromium with {@code --remote-debugging-pipe}, its fd 3 the
 * container's stdin and its fd 4 the container's stdout; each message is one JSON object ending
 * in a NUL byte. No port is opened anywhere: the host reaches no network of the container's and
 * the container none of the host's. Chromium exits when the pipe closes, which it does when this
 * attach ends (the container's stdin is closed once its one attached client leaves), so a run
 * that dies leaves a stopped container for its stack's teardown to remove, not a browser.
 *
 * <p>A page session may be gated ({@link #gate}): with {@code Fetch.enable} on it, chromium pauses
 * every request of its page (the navigation, each redirect, each sub-resource) until it is told to
 * go on or to fail; the pipe answers each pause at once, on its reader thread, as the session's gate
 * says, so a request is never left waiting on a caller (the navigation's own call waits for it).
 *
 * <p>Resource: the attach stream and the messages under way. Invariant: a reply is matched to its
 * call by id; a message larger than {@code limit} bytes, or a stream that ended, breaks the pipe
 * and every call from then on fails with why; a paused request of a gated session goes on only if
 * its gate allows it, and one of a session without a gate is failed. Scope: one browser container;
 * docker-java's reader thread delivers frames and answers pauses, callers wait on this.
 */
final class DevToolsPipe implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Events kept for {@link #awaitEvent}; older ones are dropped (a page load sends a few dozen). */
    private static final int EVENTS_KEPT = 512;
    /** The last bytes of chromium's own log (its stderr) kept for a failure's one line. */
    private static final int LOG_TAIL = 8192;

    private final String container;
    private final long limit;
    private final AttachedStdin stdin = new AttachedStdin();
    private final EngineStream<Frame> stream;

    /** Guarded by this: the next call's id, the replies come back, events not yet taken, the message being read, why the pipe is broken. */
    private long nextId = 1;
    private final Map<Long, JsonNode> replies = new HashMap<>();
    private final ArrayDeque<JsonNode> events = new ArrayDeque<>();
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private final StringBuilder log = new StringBuilder();
    private String broken;
    /** Guarded by this: each gated session's gate, and the ids of the pipe's own answers, whose replies nobody awaits. */
    private final Map<String, Predicate<JsonNode>> gates = new HashMap<>();
    private final Set<Long> unawaited = new HashSet<>();

    private DevToolsPipe(DockerClient client, String container, long limit) {
        this.container = container;
        this.limit = limit;
        this.stream = stdin.attach(client, container, new AttachedStdin.Listener(this::received,
                failure -> breakWith("the browser's stream failed: " + failure.getMessage()),
                () -> breakWith("the browser exited")));
    }

    /** Attached to the created browser container {@code container}, before it starts: no message of it is missed. */
    static DevToolsPipe attach(DockerClient client, String container, long limit) {
        return new DevToolsPipe(client, container, limit);
    }

    /**
     * {@code method} with {@code params}, to the page session {@code session} (null: the browser
     * itself); its result, or an {@link IOException} with the protocol's error or why the pipe broke.
     */
    JsonNode call(String method, Map<String, ?> params, String session, Duration bound)
            throws IOException, InterruptedException {
        ObjectNode message = JSON.createObjectNode();
        long id;
        synchronized (this) {
            if (broken != null) {
                throw new IOException(broken);
            }
            id = nextId++;
        }
        message.put("id", id).put("method", method).set("params", JSON.valueToTree(params));
        if (session != null) {
            message.put("sessionId", session);
        }
        stdin.write(framed(message));
        long deadline = System.nanoTime() + bound.toNanos();
        synchronized (this) {
            while (!replies.containsKey(id)) {
                if (broken != null) {
                    throw new IOException(broken);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new NoAnswer("the browser did not answer " + method + " within " + bound.toSeconds() + " s");
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            JsonNode reply = replies.remove(id);
            if (reply.has("error")) {
                throw new IOException(method + " failed: " + reply.path("error").path("message").asText());
            }
            return reply.path("result");
        }
    }

    /** One message as the pipe carries it: its JSON, then a NUL byte. */
    private static byte[] framed(ObjectNode message) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(message);
        byte[] framed = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, framed, 0, bytes.length);
        return framed;
    }

    /** A call that was not answered within its bound, the pipe still open. */
    static final class NoAnswer extends IOException {
        NoAnswer(String message) {
            super(message);
        }
    }

    /**
     * From now on each request paused in {@code session} (its {@code Fetch.requestPaused} event's
     * parameters) goes on if {@code allows} says so and fails ({@code BlockedByClient}) otherwise;
     * {@code allows} is called on the pipe's reader thread and must not call the pipe.
     */
    synchronized void gate(String session, Predicate<JsonNode> allows) {
        gates.put(session, allows);
    }

    /** The session's gate goes with its page: a request paused in it afterwards is failed. */
    synchronized void ungate(String session) {
        gates.remove(session);
    }

    /** Forgets the events seen so far: an {@link #awaitEvent} after this sees only later ones. */
    synchronized void clearEvents() {
        events.clear();
    }

    /** The first event {@code method} of {@code session} since {@link #clearEvents}, by {@code deadline} (System.nanoTime); false if none came. */
    boolean awaitEvent(String method, String session, long deadline) throws IOException, InterruptedException {
        synchronized (this) {
            while (true) {
                for (Iterator<JsonNode> it = events.iterator(); it.hasNext(); ) {
                    JsonNode event = it.next();
                    if (method.equals(event.path("method").asText()) && session.equals(event.path("sessionId").asText())) {
                        it.remove();
                        return true;
                    }
                }
                if (broken != null) {
                    throw new IOException(broken);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    /**
     * The last line of chromium's own log that says something (dbus and inotify noise left out), or
     * "": its message alone, without chromium's {@code [pid:tid:time:LEVEL:file.cc:line]} prefix
     * (a level word such as ERROR in a passing run's console reads as ccci's own).
     */
    synchronized String lastLogLine() {
        return log.toString().lines().map(l -> l.replaceFirst("^\\[[^\\]]*\\]\\s*", "").strip())
                .filter(l -> !l.isEmpty() && !l.contains("dbus") && !l.contains("inotify"))
                .reduce((a, b) -> b).orElse("");
    }

    /** Whether the pipe is broken (the browser gone, or closed): no call can be answered any more. */
    synchronized boolean broken() {
        return broken != null;
    }

    private synchronized void received(Frame frame) {
        byte[] payload = frame.getPayload();
        if (frame.getStreamType() == StreamType.STDERR) {
            log.append(new String(payload, StandardCharsets.UTF_8));
            if (log.length() > LOG_TAIL) {
                log.delete(0, log.length() - LOG_TAIL);
            }
            return;
        }
        int from = 0;
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] == 0) {
                partial.write(payload, from, i - from);
                message(partial.toByteArray());
                partial.reset();
                from = i + 1;
            }
        }
        partial.write(payload, from, payload.length - from);
        if (partial.size() > limit) {
            partial.reset();
            breakWith("a message of the browser's is larger than " + (limit >> 20) + " MiB");
        }
    }

    /** Called holding the lock. */
    private void message(byte[] text) {
        if (broken != null) {
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (IOException e) {
            breakWith("the browser sent what is not a DevTools message: " + e.getMessage());
            return;
        }
        if (message.has("id")) {
            long id = message.path("id").asLong();
            if (!unawaited.remove(id)) {
                replies.put(id, message);
            }
        } else if ("Fetch.requestPaused".equals(message.path("method").asText())) {
            answer(message);
        } else if (message.has("method")) {
            events.addLast(message);
            if (events.size() > EVENTS_KEPT) {
                events.removeFirst();
            }
        }
        notifyAll();
    }

    /**
     * Called holding the lock: a paused request goes on or fails as its session's gate says (no gate:
     * it fails). Written at once (the stdin is a queue): the navigation's caller may be waiting for it.
     */
    private void answer(JsonNode paused) {
        String session = paused.path("sessionId").asText();
        JsonNode params = paused.path("params");
        Predicate<JsonNode> gate = gates.get(session);
        boolean allowed;
        try {
            allowed = gate != null && gate.test(params);
        } catch (RuntimeException e) {
            allowed = false;
        }
        ObjectNode message = JSON.createObjectNode();
        long id = nextId++;
        unawaited.add(id);
        message.put("id", id).put("method", allowed ? "Fetch.continueRequest" : "Fetch.failRequest");
        ObjectNode answer = message.putObject("params").put("requestId", params.path("requestId").asText());
        if (!allowed) {
            answer.put("errorReason", "BlockedByClient");
        }
        message.put("sessionId", session);
        try {
            stdin.write(framed(message));
        } catch (IOException e) {
            breakWith("a paused request could not be answered: " + e.getMessage());
        }
    }

    private synchronized void breakWith(String why) {
        if (broken == null) {
            broken = why;
            stdin.close();
            stream.closeQuietly();
        }
        notifyAll();
    }

    /** Closes the pipe: chromium reads its end and exits; the container stays, stopped, for its stack's teardown. */
    @Override
    public void close() {
        breakWith("the browser of container " + container.substring(0, Math.min(12, container.length())) + " was closed");
    }
}
