package net.commoninternet.ccci.extensions.driver.abra;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a person would read on the terminal, from the bytes a program wrote to it. A program
 * run under a pseudo-terminal colours its output (ANSI escape sequences), ends lines with
 * {@code \r\n}, and redraws progress bars with a bare {@code \r}: parsers see none of that.
 */
final class TerminalText {

    /**
     * OSC (window titles, hyperlinks), CSI (colours, cursor moves, erase-line), character-set
     * selection, then any other two-byte escape. Order matters: OSC and CSI first, so their
     * introducers are not eaten as two-byte escapes.
     */
    private static final Pattern ESCAPES = Pattern.compile(
            "\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)"
                    + "|\u001B\\[[0-?]*[ -/]*[@-~]"
                    + "|\u001B[()][0-9A-Za-z]"
                    + "|\u001B[@-Z\\\\-_]");

    private static final Pattern TRAILING_CR = Pattern.compile("\r+$");

    private TerminalText() {
    }

    static String stripEscapes(String text) {
        return ESCAPES.matcher(text).replaceAll("");
    }

    /**
     * The visible lines, escape sequences removed. A {@code \r} inside a line means the
     * terminal went back to its start and overwrote it: only the text after the last one is
     * what stayed on screen. Trailing ones are line ends, however many a chain of terminals
     * added ({@code \r\r\n} is what a pty makes of a program's {@code \r\n}).
     */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String raw : stripEscapes(text).split("\n", -1)) {
            String line = TRAILING_CR.matcher(raw).replaceAll("");
            int overwrite = line.lastIndexOf('\r');
            lines.add(overwrite >= 0 ? line.substring(overwrite + 1) : line);
        }
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
