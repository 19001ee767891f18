package net.commoninternet.ccci.extensions.secrets;

import org.apiguardian.api.API;

/**
 * Recipe bytes are data: the one place that turns text a recipe, its app, its hooks or its
 * containers printed (and anything that quotes it: a child's error, a failure message) into text
 * every sink carries as it is. Every sink uses it: the console and run.log ({@link RedactedConsole},
 * line by line), the failure messages the engine reports (Surefire's console, its XML, the Open Test
 * Reporting XML: {@link RedactedConsole#forReport}), results.json, report.html, summary.md and the
 * service logs.
 *
 * <p>Invariant 1, no control reaches a reader: every C0 control but tab and newline (newline only where
 * a sink has lines), DEL, every C1 control, and every Unicode format or separator character (the bidi
 * overrides and isolates that reorder what a reader sees, zero-width characters, tag characters that
 * hide text, U+2028/U+2029, an unpaired surrogate), variation selectors of the supplement and the
 * Hangul fillers (both print as nothing) are replaced by a visible escape ({@code \x1b},
 * {@code \u202e}, {@code \U000e0041}). A terminal, a browser or a forge then shows the escape; none
 * erases a line, sets a title, hides or reorders text. A {@code \r} right before a newline is a line
 * end and goes; any other is shown.
 *
 * <p>Invariant 2, untrusted text never begins a line: where a sink keeps the text's lines, every line
 * after its first starts with {@link #GUTTER}; the first follows whatever of ccci's the sink writes
 * before it (a log line's time and level, {@code tier > check:}, Surefire's own prefix). So a forged
 * {@code == RUN SUMMARY ==}, a log line's shape or {@code [INFO] BUILD SUCCESS} in a recipe's output is
 * visibly inside ccci's line, never a line of its own.
 */
@API(status = API.Status.INTERNAL)
public final class UntrustedText {

    /**
     * What each continuation line of untrusted text begins with. No line of ccci's own starts so: its
     * log lines start with the time, its RUN SUMMARY with its marked header or text of its own.
     */
    public static final String GUTTER = "  | ";

    private UntrustedText() {
    }

    /** Whether {@code codePoint} is replaced by its escape (tab and newline aside, whose fate is the caller's). */
    static boolean unsafe(int codePoint) {
        if (codePoint < 0x20 || codePoint == 0x7F) {
            return true;
        }
        if (codePoint < 0xA0) {
            return codePoint >= 0x80; // C1
        }
        if (codePoint >= 0xE0100 && codePoint <= 0xE01EF) {
            return true; // variation selectors supplement: invisible, used to smuggle bytes
        }
        if (codePoint == 0x115F || codePoint == 0x1160 || codePoint == 0x3164 || codePoint == 0xFFA0) {
            return true; // Hangul fillers: letters that print as nothing
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }

    /** Whether a sink with lines keeps {@code c} as it is. */
    private static boolean keptInLines(int c) {
        return c == '\t' || c == '\n';
    }

    /** {@code text} with every control replaced by its escape; tab and newline kept, {@code \r\n} made {@code \n}. */
    public static String visible(String text) {
        return text == null ? null : replace(text, true);
    }

    /**
     * {@code text} on one line: its line breaks and tabs as spaces, every other control replaced by its
     * escape (for a sink without lines: an attribute, a code span, a one-line reason).
     */
    public static String oneLine(String text) {
        return text == null ? null : replace(text, false);
    }

    /**
     * {@code text} as lines of a sink that keeps them: {@link #visible}, and every line after the first
     * that is not empty begins with {@link #GUTTER} (a line that already does is left as it is, so the
     * call is idempotent: a message the engine reports twice is not indented twice).
     */
    public static String lines(String text) {
        if (text == null) {
            return null;
        }
        String shown = visible(text);
        if (shown.indexOf('\n') < 0) {
            return shown;
        }
        StringBuilder out = new StringBuilder(shown.length() + 16);
        int start = 0;
        while (true) {
            int end = shown.indexOf('\n', start);
            String line = shown.substring(start, end < 0 ? shown.length() : end);
            if (start > 0 && !line.isEmpty() && !line.startsWith(GUTTER)) { // an empty line has nothing to begin
                out.append(GUTTER);
            }
            out.append(line);
            if (end < 0) {
                return out.toString();
            }
            out.append('\n');
            start = end + 1;
        }
    }

    /** The cheap path first: most text has nothing to replace and is returned as it is. */
    private static String replace(String text, boolean keepLines) {
        int first = firstToReplace(text, keepLines);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); ) {
            int c = text.codePointAt(i);
            int width = Character.charCount(c);
            if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                // a line end (\r\n): the \n that follows says it
                if (!keepLines) {
                    out.append(' ');
                    i += 2;
                    continue;
                }
            } else if (keptInLines(c)) {
                out.append(keepLines ? (char) c : ' ');
            } else if (unsafe(c)) {
                escape(out, c);
            } else {
                out.appendCodePoint(c);
            }
            i += width;
        }
        return out.toString();
    }

    private static int firstToReplace(String text, boolean keepLines) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                continue; // printable ASCII: almost every character of a log
            }
            if (keptInLines(c) ? !keepLines : c == '\r' || unsafe(Character.isSurrogate(c) ? text.codePointAt(i) : c)) {
                return i;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            }
        }
        return -1;
    }

    /** {@code \x1b} for a code point below 256, {@code \u202e} for one of the BMP, {@code \U000e0041} beyond. */
    private static void escape(StringBuilder out, int c) {
        if (c < 0x100) {
            out.append("\\x").append(hex(c, 2));
        } else if (c < 0x10000) {
            out.append("\\u").append(hex(c, 4));
        } else {
            out.append("\\U").append(hex(c, 8));
        }
    }

    private static String hex(int value, int digits) {
        String hex = Integer.toHexString(value);
        return "0".repeat(Math.max(0, digits - hex.length())) + hex;
    }
}
