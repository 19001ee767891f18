package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.docker.EngineStream;
import net.commoninternet.ccci.extensions.docker.SwarmNodes;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.extensions.secrets.UntrustedText;
import org.apiguardian.api.API;

/**
 * One service's log over a window of time {@code (after, until]}, read task by task from the
 * containers of its tasks (the replaced ones of an upgrade included, as long as swarm keeps
 * them), merged in time order and named like {@code docker service logs} names them
 * ({@code app.1.<task id>}).
 *
 * <p>Per-task container logs, not swarm's service logs: on this engine (20.10) the service-log
 * stream can stall for good when its reader falls behind (a rate-limited curl and a slowed
 * docker-java both waited forever for its end), while a container's log is read straight from
 * its file. So each node's tasks are read from that node's engine ({@link SwarmNodes}); a node
 * ccci cannot reach is left out of the log, and said so.
 *
 * <p>Bounded, so a chatty app can exhaust neither the disk nor the heap: the daemon sends at most
 * the last {@value #MAX_LINES} lines of each task; while they arrive, a line keeps its first
 * {@value #LINE_BYTES_KEPT} bytes and a task its last {@value #TASK_BYTES_KEPT} bytes of lines (the
 * oldest are dropped first); the window keeps its last {@value #MAX_LINES} lines, and a rendered
 * line is cut after {@value #MAX_LINE_CHARS} characters. A line is masked before it is cut, and it
 * keeps far more than is rendered, so a cut never leaves part of a secret value behind. What a run
 * writes of them in all is bounded by {@code TierServiceLogs}.
 */
@API(status = API.Status.INTERNAL)
public final class ServiceLog {

    static final int MAX_LINES = 5_000;
    static final int MAX_LINE_CHARS = 2_000;
    static final int LINE_BYTES_KEPT = 16 * 1024;
    static final int TASK_BYTES_KEPT = 8 * 1024 * 1024;
    static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private static final String SERVICE_ID = "com.docker.swarm.service.id";
    private static final String TASK_NAME = "com.docker.swarm.task.name";

    /** One log line: when the daemon received it, from which task, and what it said. */
    public record Line(Instant time, String task, String text) {
    }

    private ServiceLog() {
    }

    /** The service's lines in {@code (after, until]}, oldest first, at most {@value #MAX_LINES}. */
    public static Window read(DockerClient client, String serviceId, String stack, Instant after, Instant until)
            throws InterruptedException {
        List<Line> received = new ArrayList<>();
        boolean dropped = false;
        for (SwarmNodes.Node node : SwarmNodes.all(client)) {
            if (node.engine().isEmpty()) {
                SwarmNodes.skipped(node, "the log of service " + serviceId);
                continue;
            }
            DockerClient engine = node.engine().get();
            for (Container container : engine.listContainersCmd().withShowAll(true)
                    .withLabelFilter(Map.of(SERVICE_ID, serviceId)).exec()) {
                Collector task;
                try {
                    task = readTask(engine, container.getId(), taskName(container.getLabels(), stack), after);
                } catch (NotFoundException gone) {
                    // swarm removed the task's container between the list and the read (a task that
                    // failed to start and was replaced): its log went with it, the others are read
                    continue;
                }
                received.addAll(task.lines());
                dropped |= task.dropped;
            }
        }
        Window window = Window.of(received, after, until);
        return dropped ? new Window(window.lines(), true) : window;
    }

    /** {@code <stack>_app.1.<25-character task id>} as {@code app.1.<first 12>}, like the CLI. */
    static String taskName(Map<String, String> labels, String stack) {
        String name = labels.getOrDefault(TASK_NAME, "");
        if (name.startsWith(stack + "_")) {
            name = name.substring(stack.length() + 1);
        }
        int id = name.lastIndexOf('.');
        return id >= 0 && name.length() - id - 1 > 12 ? name.substring(0, id + 13) : name;
    }

    private static Collector readTask(DockerClient client, String containerId, String task, Instant after)
            throws InterruptedException {
        Collector collector = new Collector(task);
        // `since` takes whole seconds; the window's exact edges are applied in Window.of.
        EngineStream<Frame> callback = client.logContainerCmd(containerId).withStdOut(true).withStdErr(true)
                .withTimestamps(true).withFollowStream(false).withTail(MAX_LINES)
                .withSince((int) after.getEpochSecond()).exec(collector);
        try {
            if (!callback.awaitCompletion(READ_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the daemon did not finish sending the log of task " + task + " in "
                        + READ_TIMEOUT.toSeconds() + " s");
            }
        } finally {
            callback.closeQuietly();
        }
        return collector;
    }

    /** The lines of one window, and whether lines before them may have been left out. */
    public record Window(List<Line> lines, boolean cut) {

        /** The lines in the window; cut if the daemon's tail or the per-task bound may have left some out. */
        static Window of(List<Line> received, Instant after, Instant until) {
            List<Line> inWindow = received.stream()
                    .filter(l -> l.time().isAfter(after) && !l.time().isAfter(until))
                    .sorted(Comparator.comparing(Line::time)).toList();
            // A task's own tail cut something inside the window only if it sent MAX_LINES lines all
            // inside it, so "at least MAX_LINES in the window" catches every cut, ours or the daemon's.
            boolean cut = inWindow.size() >= MAX_LINES;
            return new Window(cut ? inWindow.subList(inWindow.size() - MAX_LINES, inWindow.size()) : inWindow, cut);
        }

        /** The file's text: one line per log line, secrets masked ({@link SecretMasking}), controls visible, long lines cut. */
        public String render(Collection<String> secrets) {
            StringBuilder out = new StringBuilder();
            if (cut) {
                out.append("[ccci: only the last ").append(MAX_LINES).append(" lines (at most ").append(TASK_BYTES_KEPT >> 20)
                        .append(" MiB of them per task) of this tier are kept]\n");
            }
            for (Line line : lines) {
                // masked, and the app's bytes as data: its controls visible, its line begun by the time and task
                String text = UntrustedText.visible((String) SecretMasking.mask(null, line.text(), secrets));
                if (text.length() > MAX_LINE_CHARS) {
                    text = text.substring(0, MAX_LINE_CHARS) + " [ccci: line cut at " + MAX_LINE_CHARS + " characters]";
                }
                out.append(line.time()).append(' ').append(line.task()).append(" | ").append(text).append('\n');
            }
            return out.toString();
        }
    }

    /** Parses one line of a log read with timestamps, {@code <RFC 3339 time> <message>}; null without a time. */
    static Line parse(String raw, String task) {
        int timeEnd = raw.indexOf(' ');
        try {
            return new Line(Instant.parse(timeEnd < 0 ? raw : raw.substring(0, timeEnd)), task,
                    timeEnd < 0 ? "" : raw.substring(timeEnd + 1));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Frames need not end at line ends: each stream's bytes are buffered and split at newlines
     * (a newline byte never occurs inside a UTF-8 character). A line keeps its first
     * {@value #LINE_BYTES_KEPT} bytes, far more than a rendered line shows, so the mask still sees
     * every secret value in the part that is written, and only the task's last {@value #TASK_BYTES_KEPT}
     * bytes of lines are kept. A line that does not parse (a continuation)
     * takes the time and task of the line before it.
     */
    private static final class Collector extends EngineStream<Frame> {
        private final String task;
        private final Map<StreamType, Pending> pending = new EnumMap<>(StreamType.class);
        private final ArrayDeque<Line> lines = new ArrayDeque<>();
        private long bytesKept;
        private boolean dropped;
        private Line previous;

        Collector(String task) {
            this.task = task;
        }

        @Override
        public synchronized void onNext(Frame frame) {
            Pending line = pending.computeIfAbsent(frame.getStreamType(), s -> new Pending());
            for (byte b : frame.getPayload()) {
                if (b == '\n') {
                    add(line.take());
                } else {
                    line.append(b);
                }
            }
        }

        private void add(String raw) {
            Line line = parse(raw, task);
            if (line == null && previous != null) {
                line = new Line(previous.time(), previous.task(), raw);
            }
            if (line != null) {
                lines.addLast(line);
                bytesKept += line.text().length();
                while (bytesKept > TASK_BYTES_KEPT && lines.size() > 1) {
                    bytesKept -= lines.removeFirst().text().length();
                    dropped = true;
                }
                previous = line;
            }
        }

        synchronized List<Line> lines() {
            pending.values().stream().filter(p -> !p.isEmpty()).forEach(p -> add(p.take()));
            return List.copyOf(lines);
        }

        /** The bytes of one unfinished line, at most LINE_BYTES_KEPT of them. */
        private static final class Pending {
            private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            private boolean started;

            void append(byte b) {
                started = true;
                if (bytes.size() < LINE_BYTES_KEPT) {
                    bytes.write(b);
                }
            }

            boolean isEmpty() {
                return !started;
            }

            String take() {
                String line = bytes.toString(StandardCharsets.UTF_8);
                bytes.reset();
                started = false;
                return line;
            }
        }
    }
}
