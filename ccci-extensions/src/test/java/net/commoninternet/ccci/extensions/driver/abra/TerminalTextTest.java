package net.commoninternet.ccci.extensions.driver.abra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalTextTest {

    @Test
    void removesColourCursorAndTitleSequences() {
        String text = "\u001B[1;38;5;204mFATA\u001B[0m boom\u001B[K\u001B]0;title\u0007 done\u001B(B";
        assertThat(TerminalText.stripEscapes(text)).isEqualTo("FATA boom done");
    }

    @Test
    void linesEndWithCrLfOrLf() {
        assertThat(TerminalText.lines("a\r\nb\nc\r\n")).containsExactly("a", "b", "c");
    }

    @Test
    void aPtyDoublingTheCarriageReturnKeepsTheLine() {
        assertThat(TerminalText.lines("abc\r\r\ndef\r\r\n")).containsExactly("abc", "def");
    }

    @Test
    void aBareCarriageReturnKeepsWhatOverwroteTheLine() {
        assertThat(TerminalText.lines("working 10%\rworking 99%\rdone\r\nnext")).containsExactly("done", "next");
    }

    @Test
    void keepsBlankLinesInsideTheText() {
        assertThat(TerminalText.lines("a\n\nb")).containsExactly("a", "", "b");
    }
}
