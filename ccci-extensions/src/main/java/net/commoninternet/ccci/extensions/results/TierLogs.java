package net.commoninternet.ccci.extensions.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.secrets.SecretMasking;
import net.commoninternet.ccci.extensions.secrets.UntrustedText;

/**
 * The evidence behind a check, as report.html shows it: its tier's service logs in the run folder
 * ({@code logs/<tier>/<service>.log}, a cold dependency's under {@code logs/<tier>/<dependency>/}),
 * each as a link relative to the run folder, and for a failed check the end of each of them.
 *
 * <p>A tail is the last {@value #TAIL_LINES} lines of at most the file's last {@value #TAIL_BYTES}
 * bytes, so a huge log costs the report one bounded read. The files were masked when they were
 * written ({@code TierServiceLogs}); the tail is masked again with the run's secret values, so a
 * value that reached a file some other way still never reaches the page, and its controls are made
 * visible ({@code UntrustedText}): no bidi override or hidden text in the page.
 *
 * <p>A failed check whose tier's service logs say nothing (an app that logs no request, a tier
 * whose services never started) gets the run's own lines of that tier instead ({@link #runLogOf}):
 * what the deploy or the upgrade printed, and what the convergence saw, the swarm's task errors
 * among it.
 */
final class TierLogs {

    static final int TAIL_LINES = 40;
    static final int TAIL_BYTES = 8 * 1024;

    /**
     * One log of a tier: where it is (relative to the run folder), if asked for its end, and for the
     * run's own log the part of it shown ({@code the upgrade}), else null.
     */
    record Log(String path, String tail, String part) {
        Log(String path, String tail) {
            this(path, tail, null);
        }
    }

    /** The run's own log, beside its results. */
    static final String RUN_LOG = "run.log";

    private final Path runDir;
    private final Collection<String> secrets;

    TierLogs(Path runDir, Collection<String> secrets) {
        this.runDir = runDir;
        this.secrets = secrets;
    }

    /** The tier's logs, sorted by path; with their tails when {@code tails}. None if the tier wrote none. */
    List<Log> of(String tier, boolean tails) throws IOException {
        Path dir = runDir.resolve("logs").resolve(tier);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> logs = files.filter(Files::isRegularFile).sorted().toList();
            ArrayList<Log> out = new ArrayList<>();
            for (Path file : logs) {
                String path = runDir.relativize(file).toString().replace('\\', '/');
                out.add(new Log(path, tails ? tail(file) : null));
            }
            return out;
        }
    }

    /** Whether every one of {@code logs} has a tail and each is empty: they say nothing. */
    static boolean silent(List<Log> logs) {
        return logs.stream().allMatch(l -> l.tail() != null && l.tail().isBlank());
    }

    /**
     * The run's own lines of {@code tier} in run.log, as its progress lines bound them ({@code >> <recipe>
     * <tier> started} to {@code << <recipe> <tier> ...}; the install's from its deploy's start, so the
     * deploy's own output and the convergence's findings are in it; to the end of the file when the
     * tier never ended): their last {@value #TAIL_LINES} lines of at most {@value #TAIL_BYTES} bytes,
     * masked and made visible as a tail is. Empty when run.log has no such lines.
     */
    Optional<Log> runLogOf(String recipe, String tier) throws IOException {
        Path file = runDir.resolve(RUN_LOG);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String start = ">> " + recipe + " " + (tier.equals("install") ? "deploy" : tier) + " started at ";
        String end = "<< " + recipe + " " + tier + " ";
        Deque<String> lines = new ArrayDeque<>();
        boolean inside = false;
        // a line of bytes that are not UTF-8 is read with replacements, never refused
        try (BufferedReader in = new BufferedReader(Channels.newReader(FileChannel.open(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE), -1))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                inside = inside || line.contains(start);
                if (!inside) {
                    continue;
                }
                lines.addLast(line.length() > TAIL_BYTES ? line.substring(0, TAIL_BYTES) + " [...]" : line);
                if (lines.size() > TAIL_LINES) {
                    lines.removeFirst();
                }
                if (line.contains(end)) {
                    break;
                }
            }
        }
        while (lines.size() > 1 && String.join("\n", lines).getBytes(StandardCharsets.UTF_8).length > TAIL_BYTES) {
            lines.removeFirst();
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        String tail = UntrustedText.visible((String) SecretMasking.mask(null, String.join("\n", lines), secrets));
        return Optional.of(new Log(RUN_LOG, tail, "the " + tier));
    }

    /** The model of one log for the report's template. */
    static Map<String, Object> model(Log log) {
        Map<String, Object> model = new HashMap<>();
        model.put("path", log.path());
        model.put("part", log.part() == null ? "" : log.part());
        model.put("hasPart", log.part() != null);
        int folder = log.path().indexOf('/', "logs/".length());
        model.put("name", folder < 0 ? log.path() : log.path().substring(folder + 1));
        model.put("tail", log.tail() == null ? "" : log.tail());
        model.put("empty", log.tail() != null && log.tail().isEmpty());
        model.put("lines", TAIL_LINES);
        return model;
    }

    private String tail(Path file) throws IOException {
        byte[] bytes;
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long from = Math.max(0, in.length() - TAIL_BYTES);
            bytes = new byte[(int) (in.length() - from)];
            in.seek(from);
            in.readFully(bytes);
        }
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        // a read that started mid-file starts mid-line: that first, partial line is dropped
        int first = Math.max(bytes.length == Files.size(file) ? 0 : 1, lines.size() - TAIL_LINES);
        String tail = String.join("\n", lines.subList(Math.min(first, lines.size()), lines.size()));
        return UntrustedText.visible((String) SecretMasking.mask(null, tail, secrets)); // lines kept: each begins with its time and task
    }
}
