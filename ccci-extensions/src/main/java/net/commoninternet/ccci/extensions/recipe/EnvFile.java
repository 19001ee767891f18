package net.commoninternet.ccci.extensions.recipe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * An env file ({@code .env.sample}, an app's {@code $ABRA_DIR/servers/<server>/<domain>.env}) read
 * exactly as abra reads it, with godotenv v1.5.1's parser (a port of its {@code parser.go}, MIT):
 * {@code export} prefixes, {@code KEY: value}, single quotes taken literally, double quotes with
 * {@code \n}/{@code \r} and backslash escapes, {@code $VAR}/{@code ${VAR}} expanded from the lines
 * before (upper-case names only; nothing from the process environment), an inline comment only
 * after a space or tab (the last one on the line), values spanning lines inside quotes, the last
 * assignment of a key wins, and any other line fails the whole file. The inline comment of an
 * assignment carries abra's modifiers ({@code SECRET_X_VERSION=v1 # length=32}).
 *
 * <p>Writes edit the text in place, as abra does (it never re-serialises an env file): setting a
 * key replaces the value of its last assignment (the one a reader sees) and keeps everything else,
 * comments, commented-out assignments, {@code export}, the modifiers; a key that is not there is
 * appended. Every write is read back before it is kept.
 */
@API(status = API.Status.INTERNAL)
public final class EnvFile {

    /**
     * One assignment: its key, its value as read, where its value's text is (in {@link #text}),
     * and the {@code key=value} modifiers of its inline comment.
     */
    record Assignment(String key, String value, int valueStart, int valueEnd, Map<String, String> modifiers) {
    }

    private static final Pattern ESCAPE = Pattern.compile("\\\\.", Pattern.UNIX_LINES);
    private static final Pattern UNESCAPE = Pattern.compile("\\\\([^$])");
    private static final Pattern EXPAND = Pattern.compile("(\\\\)?(\\$)(\\()?\\{?([A-Z0-9_]+)?\\}?");
    /** What {@link #set} writes without quotes: godotenv reads these back unchanged. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:@%+,=-]+");

    private final String name;
    private final boolean crlf;
    private String text;
    private List<Assignment> assignments;

    private EnvFile(String name, String text) throws EnvFileException {
        this.name = name;
        this.crlf = text.contains("\r\n");
        this.text = text.replace("\r\n", "\n");
        this.assignments = statements(this.text, name);
    }

    /** The file, decoded as UTF-8 (strictly) and parsed; either failure is one sentence naming the file and the fix. */
    public static EnvFile read(Path file) throws IOException {
        return parse(decode(file), file.toString());
    }

    /** {@code text} as if read from a file called {@code name} (named in errors). */
    public static EnvFile parse(String text, String name) throws EnvFileException {
        return new EnvFile(name, text);
    }

    public static EnvFile empty() {
        try {
            return new EnvFile("(empty)", "");
        } catch (EnvFileException e) {
            throw new IllegalStateException("an empty env file always parses", e);
        }
    }

    /**
     * A file's text as UTF-8, or one sentence naming the file, the line and the fix; a file larger than
     * an env file abra would read ({@link ComposeFiles#MAX_ENV_FILE_BYTES}) is refused unread.
     */
    static String decode(Path file) throws IOException {
        byte[] bytes = BoundedRead.bytes(file, ComposeFiles.MAX_ENV_FILE_BYTES, "shrink it");
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new EnvFileException(file + " is not UTF-8 text (line " + badLine(bytes)
                    + " holds a byte that is not UTF-8): save it as UTF-8, as abra reads it.");
        }
    }

    private static int badLine(byte[] bytes) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                try {
                    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes, start, i - start));
                } catch (CharacterCodingException e) {
                    return line;
                }
                line++;
                start = i + 1;
            }
        }
        return line;
    }

    /** Every key and its value as a reader sees them: the last assignment of a key wins. */
    public Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        assignments.forEach(a -> values.put(a.key(), a.value()));
        return values;
    }

    /** The modifiers of the inline comment of {@code key}'s last assignment ({@code # length=32 charset=x}). */
    public Map<String, String> modifiers(String key) {
        return last(key).map(Assignment::modifiers).orElse(Map.of());
    }

    /** The text as it would be written (line ends as the file had them). */
    public String text() {
        return crlf ? text.replace("\n", "\r\n") : text;
    }

    /**
     * Sets {@code key} to {@code value}: the value of its last assignment is replaced in place
     * (unquoted when that reads back unchanged, else double-quoted and escaped); a key with no
     * assignment is appended.
     */
    public EnvFile set(String key, String value) {
        String encoded = encode(value);
        Optional<Assignment> last = last(key);
        String edited;
        if (last.isPresent()) {
            edited = text.substring(0, last.get().valueStart()) + encoded + text.substring(last.get().valueEnd());
        } else {
            edited = text + (text.isEmpty() || text.endsWith("\n") ? "" : "\n") + key + "=" + encoded + "\n";
        }
        List<Assignment> reread;
        try {
            reread = statements(edited, name);
        } catch (EnvFileException e) {
            throw new IllegalArgumentException("the value of " + key + " cannot be written into " + name
                    + " so that abra reads it back: " + e.getMessage(), e);
        }
        String back = reread.stream().filter(a -> a.key().equals(key)).reduce((a, b) -> b).map(Assignment::value).orElse(null);
        if (!value.equals(back)) {
            throw new IllegalArgumentException("the value of " + key + " cannot be written into " + name
                    + " so that abra reads it back unchanged (godotenv cannot quote a value ending in a backslash"
                    + " inside double quotes): change the value.");
        }
        text = edited;
        assignments = reread;
        return this;
    }

    /** Every occurrence of {@code literal} in the text replaced (what {@code abra app new} does with the sample's domain). */
    public EnvFile replaceText(String literal, String replacement) throws EnvFileException {
        String edited = text.replace(literal, replacement);
        assignments = statements(edited, name);
        text = edited;
        return this;
    }

    /** Written to a temporary name and renamed, so a reader never sees half a file. */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private Optional<Assignment> last(String key) {
        for (int i = assignments.size() - 1; i >= 0; i--) {
            if (assignments.get(i).key().equals(key)) {
                return Optional.of(assignments.get(i));
            }
        }
        return Optional.empty();
    }

    private static String encode(String value) {
        // Empty is written "" : "KEY= # comment" would read as the value "# comment".
        if (PLAIN.matcher(value).matches()) {
            return value;
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> quoted.append("\\\\");
                case '"' -> quoted.append("\\\"");
                case '$' -> quoted.append("\\$");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                default -> quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    // ---- godotenv v1.5.1 parser.go, ported: same order of steps, same quirks (noted where they surprise) ----

    private static List<Assignment> statements(String src, String name) throws EnvFileException {
        return new Parser(src, name).statements();
    }

    /** One read of a text: the assignments so far, and the values they give (what {@code $VAR} expands to). */
    private static final class Parser {
        private final String src;
        private final String name;
        private final List<Assignment> out = new ArrayList<>();
        private final Map<String, String> vars = new HashMap<>();

        Parser(String src, String name) {
            this.src = src;
            this.name = name;
        }

        List<Assignment> statements() throws EnvFileException {
            int pos = statementStart(src, 0);
            while (pos >= 0) {
                int p = skip(src, pos);
                if (src.startsWith("export", p) && p + 6 < src.length() && isSpace(src.charAt(p + 6))) {
                    p = skip(src, p + 6);
                }
                String key = "";
                int valueFrom = p; // no '=' or ':' before the end: godotenv reads the key as "" and the text as its value
                for (int i = p; i < src.length(); i++) {
                    char c = src.charAt(i);
                    if (isSpace(c) || c == '_' || c == '.' || keyCharacter(c)) {
                        continue;
                    }
                    if (c == '=' || c == ':') { // ':' for YAML-style KEY: value
                        key = stripTrailingWhitespace(src.substring(p, i));
                        valueFrom = i + 1;
                        break;
                    }
                    throw new EnvFileException(name + " line " + line(src, i) + ": unexpected character "
                            + describe(c) + " in the variable name " + quote(src.substring(p, endOfLine(src, p)))
                            + " (names are letters, digits, _ and .): fix or comment out the line.");
                }
                pos = value(skip(src, valueFrom), key);
                pos = pos < 0 ? -1 : statementStart(src, pos);
            }
            return Collections.unmodifiableList(out);
        }

        /** Reads the value at {@code v}, records the assignment, and returns where the next statement may start (-1: end). */
        private int value(int v, String key) throws EnvFileException {
            char quote = v < src.length() ? src.charAt(v) : 0;
            if (quote != '"' && quote != '\'') {
                int eol = v;
                while (eol < src.length() && src.charAt(eol) != '\n' && src.charAt(eol) != '\r') {
                    eol++;
                }
                String line = src.substring(v, eol);
                int endOfVar = line.length();
                // backwards: the LAST '#' after a space or tab starts the comment ("A=b # c # d" is "b # c")
                for (int i = line.length() - 1; i > 0; i--) {
                    if (line.charAt(i) == '#' && isSpace(line.charAt(i - 1))) {
                        endOfVar = i;
                        break;
                    }
                }
                String raw = line.substring(0, endOfVar);
                int end = raw.length();
                while (end > 0 && isSpace(raw.charAt(end - 1))) {
                    end--;
                }
                String comment = endOfVar < line.length() ? line.substring(endOfVar + 1) : "";
                add(new Assignment(key, expandVariables(raw.substring(0, end), vars), v, v + end, modifierWords(comment)));
                return eol < src.length() ? eol : -1;
            }
            for (int i = v + 1; i < src.length(); i++) {
                if (src.charAt(i) != quote || src.charAt(i - 1) == '\\') {
                    continue;
                }
                String value = trimQuotes(src.substring(v, i), quote);
                if (quote == '"') {
                    value = expandVariables(expandEscapes(value), vars);
                }
                String rest = src.substring(i + 1, endOfLine(src, i + 1)).strip();
                add(new Assignment(key, value, v, i + 1, modifierWords(rest.startsWith("#") ? rest.substring(1) : "")));
                return i + 1;
            }
            throw new EnvFileException(name + " line " + line(src, v) + ": the quoted value of " + (key.isEmpty() ? "a line" : key)
                    + " is never closed (" + src.substring(v, endOfLine(src, v)) + "): close the quote.");
        }

        private void add(Assignment assignment) {
            out.add(assignment);
            vars.put(assignment.key(), assignment.value());
        }
    }

    /** The start of the next statement at or after {@code from}, skipping whitespace and comment lines; -1 at the end. */
    private static int statementStart(String src, int from) {
        int pos = from;
        while (true) {
            while (pos < src.length() && isUnicodeSpace(src.charAt(pos))) {
                pos++;
            }
            if (pos >= src.length()) {
                return -1;
            }
            if (src.charAt(pos) != '#') {
                return pos;
            }
            int newline = src.indexOf('\n', pos);
            if (newline < 0) {
                return -1;
            }
            pos = newline;
        }
    }

    /** Letters and digits as godotenv's byte loop sees them: a non-ASCII character is its UTF-8 bytes read as Latin-1. */
    private static boolean keyCharacter(char c) {
        if (c < 0x80) {
            return Character.isLetterOrDigit(c);
        }
        for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
            char latin1 = (char) (b & 0xff);
            if (isSpace(latin1)) { // 0x85 and 0xA0: spaces to godotenv's byte loop, so skipped
                continue;
            }
            int type = Character.getType(latin1);
            boolean number = type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                    || type == Character.OTHER_NUMBER;
            if (!Character.isLetter(latin1) && !number) {
                return false;
            }
        }
        return true;
    }

    private static String trimQuotes(String s, char quote) {
        int start = 0;
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == quote) {
            end--;
        }
        while (start < end && s.charAt(start) == quote) {
            start++;
        }
        return s.substring(start, end);
    }

    private static String expandEscapes(String s) {
        Matcher m = ESCAPE.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = switch (m.group().charAt(1)) {
                case 'n' -> "\n";
                case 'r' -> "\r";
                default -> m.group();
            };
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return UNESCAPE.matcher(out).replaceAll("$1");
    }

    private static String expandVariables(String s, Map<String, String> vars) {
        Matcher m = EXPAND.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if ("\\".equals(m.group(1))) {
                replacement = m.group().substring(1); // \$X is a literal $X
            } else if (m.group(4) != null) {
                replacement = vars.getOrDefault(m.group(4), ""); // only earlier lines: an unknown name is ""
            } else {
                replacement = m.group(); // "$(" and a bare "$" stay as written
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** abra's modifiers: the {@code key=value} words of an inline comment. */
    private static Map<String, String> modifierWords(String comment) {
        Map<String, String> modifiers = new LinkedHashMap<>();
        for (String word : comment.strip().split("\\s+")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                modifiers.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return Map.copyOf(modifiers);
    }

    /** godotenv's isSpace: whitespace that does not end a line. */
    private static boolean isSpace(char c) {
        return c == '\t' || c == 0x0B || c == '\f' || c == '\r' || c == ' ' || c == 0x85 || c == 0xA0;
    }

    /** Go's unicode.IsSpace. */
    private static boolean isUnicodeSpace(char c) {
        return c == '\n' || isSpace(c) || c > 0xFF && Character.isSpaceChar(c);
    }

    private static int skip(String src, int from) {
        int i = from;
        while (i < src.length() && isSpace(src.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String stripTrailingWhitespace(String s) {
        int end = s.length();
        while (end > 0 && isUnicodeSpace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end);
    }

    private static int endOfLine(String src, int from) {
        int newline = src.indexOf('\n', from);
        return newline < 0 ? src.length() : newline;
    }

    private static int line(String src, int index) {
        int line = 1;
        for (int i = 0; i < index && i < src.length(); i++) {
            if (src.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String describe(char c) {
        return c == '\n' ? "end of line (a line with no '=')" : quote(String.valueOf(c));
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}
