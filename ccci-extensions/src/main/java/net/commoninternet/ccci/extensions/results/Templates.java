package net.commoninternet.ccci.extensions.results;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.MustacheFactory;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The report pages and the badge from their Mustache templates (beside this class), which
 * HTML-escape every value; written atomically, so a reader never sees half a page.
 */
final class Templates {

    private static final MustacheFactory TEMPLATES = new DefaultMustacheFactory("net/commoninternet/ccci/extensions/results");

    /**
     * Badge and pill colours by level, 0 to 5: red, orange, dark yellow, olive, green, dark green.
     * Each is at least 5:1 against the white text on it (WCAG 2.1 AA asks 4.5:1), where the
     * shields.io colours these replace were about 2:1.
     */
    private static final String[] LEVEL_COLORS = {"#b3261e", "#a84300", "#7a6200", "#5c6b00", "#2e7d32", "#1b5e20"};

    private Templates() {
    }

    static String render(String template, Map<String, Object> model) {
        StringWriter out = new StringWriter();
        TEMPLATES.compile(template).execute(out, model);
        return out.toString();
    }

    static void write(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, text, StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static String levelColor(int level) {
        return LEVEL_COLORS[Math.max(0, Math.min(LEVEL_COLORS.length - 1, level))];
    }

    /** {@code 340 ms} under a second, {@code 12.3 s}, {@code 2 min 05 s} from four minutes on. */
    static String duration(long millis) {
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 240_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long seconds = Duration.ofMillis(millis).toSeconds();
        return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
}
