package net.commoninternet.ccci.extensions.results;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 */
final class TierLogs {

    static final int TAIL_LINES = 40;
    static final int TAIL_BYTES = 8 * 1024;

    /** One service log of a tier: where it is (relative to the run folder) and, if asked for, its end. */
    record Log(String path, String tail) {
    }

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

    /** The model of one log for the report's template. */
    static Map<String, Object> model(Log log) {
        Map<String, Object> model = new HashMap<>();
        model.put("path", log.path());
        model.put("name", log.path().substring(log.path().indexOf('/', "logs/".length()) + 1));
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
