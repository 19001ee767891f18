package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * An app's env file, {@code $ABRA_DIR/servers/<server>/<domain>.env}: {@code KEY=value} lines
 * as abra writes them (comments and blank lines kept, values optionally quoted).
 */
@API(status = API.Status.INTERNAL)
public final class AppEnv {

    private final List<String> lines;

    private AppEnv(List<String> lines) {
        this.lines = new ArrayList<>(lines);
    }

    public static AppEnv read(Path file) throws IOException {
        return new AppEnv(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    public static AppEnv empty() {
        return new AppEnv(List.of());
    }

    /** Sets {@code key}, replacing its first assignment or appending one. */
    public AppEnv set(String key, String value) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(key + "=")) {
                lines.set(i, key + "=" + value);
                return this;
            }
        }
        lines.add(key + "=" + value);
        return this;
    }

    /** The assignments in order; a later assignment of a key wins, as in a shell. */
    public Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || !line.contains("=")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring("export ".length()).strip();
            }
            int eq = line.indexOf('=');
            values.put(line.substring(0, eq).strip(), unquote(stripComment(line.substring(eq + 1).strip())));
        }
        return values;
    }

    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String stripComment(String value) {
        if (value.startsWith("\"") || value.startsWith("'")) {
            return value;
        }
        int hash = value.indexOf(" #");
        return hash >= 0 ? value.substring(0, hash).strip() : value;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"") || value.startsWith("'") && value.endsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
