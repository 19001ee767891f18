package net.commoninternet.ccci.extensions.secrets;

import static net.commoninternet.ccci.extensions.secrets.UntrustedText.GUTTER;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Recipe bytes as data: every control a reader's terminal, browser or forge would act on comes out as its escape. */
class UntrustedTextTest {

    /** Every code point of the classes replaced: C0 but tab and newline, DEL, C1, format, separators, surrogates. */
    private static List<Integer> everyControl() {
        List<Integer> all = new ArrayList<>();
        for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
            int type = Character.getType(c);
            if (c != '\t' && c != '\n' && (type == Character.CONTROL || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE)) {
                all.add(c);
            }
        }
        return all;
    }

    /** Whether {@code text} holds a code point of a class that must never reach a sink. */
    private static boolean holdsAControl(String text, boolean linesAllowed) {
        return text.codePoints().anyMatch(c -> (linesAllowed ? c != '\t' && c != '\n' : true)
                && (Character.getType(c) == Character.CONTROL || Character.getType(c) == Character.FORMAT
                        || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR
                        || Character.getType(c) == Character.SURROGATE));
    }

    @Test
    void everyControlFormatAndSeparatorCharacterComesOutAsItsVisibleEscape() {
        List<Integer> controls = everyControl();
        assertThat(controls).as("the classes are not empty").hasSizeGreaterThan(200);
        for (int c : controls) {
            String text = "a" + new String(Character.toChars(c)) + "b";
            String shown = UntrustedText.visible(text);
            assertThat(holdsAControl(shown, true)).as("U+%04X in %s", c, shown).isFalse();
            assertThat(shown).as("U+%04X", c).startsWith("a\\").endsWith("b");
            assertThat(holdsAControl(UntrustedText.oneLine(text), false)).as("U+%04X on one line", c).isFalse();
        }
    }

    @Test
    void theTerminalsAndTheBrowsersTricksReadAsTheirEscapes() {
        assertThat(UntrustedText.visible("\u001b[2K\u001b]0;pwned\u0007hidden\u001b[8mtext\r")).isEqualTo(
                "\\x1b[2K\\x1b]0;pwned\\x07hidden\\x1b[8mtext\\x0d");
        assertThat(UntrustedText.visible("pay \u202eevil\u202c now \u2066x\u2069 zero\u200bwidth \ufeff"))
                .isEqualTo("pay \\u202eevil\\u202c now \\u2066x\\u2069 zero\\u200bwidth \\ufeff");
        assertThat(UntrustedText.visible("tag \udb40\udc41\udb40\udc42 vs \udb40\udd00 c1 \u009b31m lone \ud800 end"))
                .isEqualTo("tag \\U000e0041\\U000e0042 vs \\U000e0100 c1 \\x9b31m lone \\ud800 end");
        assertThat(UntrustedText.visible("fill\u3164er \u2028 \u2029")).isEqualTo("fill\\u3164er \\u2028 \\u2029");
        assertThat(UntrustedText.visible("tabs\tand\r\nlines\n")).isEqualTo("tabs\tand\nlines\n");
        assertThat(UntrustedText.oneLine("tabs\tand\r\nlines\n")).isEqualTo("tabs and lines ");
        String plain = "ordinary text, émojis 👍 and CJK 漢字 stay as they are";
        assertThat(UntrustedText.visible(plain)).isSameAs(plain);
    }

    /** No line after the first begins with the text's own bytes; a second pass changes nothing. */
    @Test
    void everyLineAfterTheFirstBeginsInTheGutterAndTheGutterIsNotDoubled() {
        String forged = "hook failed\n== RUN SUMMARY ==\nlevel 5: every rung passed\r\n12:00:00.000 INFO  RunEnding - passed\n";
        String lines = UntrustedText.lines(forged);

        assertThat(lines).isEqualTo("hook failed\n" + GUTTER + "== RUN SUMMARY ==\n" + GUTTER + "level 5: every rung passed\n"
                + GUTTER + "12:00:00.000 INFO  RunEnding - passed\n");
        assertThat(lines.lines().skip(1)).allMatch(l -> l.startsWith(GUTTER));
        assertThat(UntrustedText.lines(lines)).isEqualTo(lines);
        assertThat(UntrustedText.lines("one line")).isEqualTo("one line");
    }
}
