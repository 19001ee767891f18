package net.commoninternet.ccci.extensions.children;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bound kept whatever the output's size and however it arrives (one frame, many small ones,
 * frames that cross the head's end and the tail's wrap): the first bytes, the last bytes, and how
 * many were left out between them, byte for byte against the whole output.
 */
class CappedOutputTest {

    @Test
    void aShortOutputIsKeptWhole() {
        CappedOutput out = CappedOutput.sink(1 << 20, 1 << 20);
        append(out, "abc\n", 1);
        assertThat(out.text()).isEqualTo("abc\n");
        assertThat(out.cut()).isFalse();
        assertThat(out.total()).isEqualTo(4);
    }

    @Test
    void anOutputWithinHeadAndTailIsKeptWholeInAnyFraming() {
        byte[] whole = bytes(5000, 1);
        for (int frame : new int[] {1, 7, 999, 5000}) {
            CappedOutput out = CappedOutput.sink(3000, 4000);
            append(out, whole, frame);
            assertThat(out.text()).as("frames of %s", frame).isEqualTo(new String(whole, StandardCharsets.UTF_8));
            assertThat(out.cut()).isFalse();
        }
    }

    @Test
    void aLongOutputKeepsItsFirstAndLastBytesAndSaysHowManyWereLeftOut() {
        byte[] whole = bytes(100_000, 2);
        for (int frame : new int[] {1, 13, 8192, 100_000}) {
            CappedOutput out = CappedOutput.sink(3000, 20_000);
            append(out, whole, frame);
            String first = new String(whole, 0, 3000, StandardCharsets.UTF_8);
            String last = new String(whole, whole.length - 20_000, 20_000, StandardCharsets.UTF_8);
            assertThat(out.text()).as("frames of %s", frame).isEqualTo(first + "\n[ccci: 77000 bytes of output left out"
                    + " here: the first 3000 and the last 20000 are kept]\n" + last);
            assertThat(out.cut()).isTrue();
            assertThat(out.total()).isEqualTo(100_000);
        }
    }

    @Test
    void withoutATailOnlyTheHeadIsKept() {
        CappedOutput out = CappedOutput.sink(10, 0);
        append(out, "0123456789abcdef", 3);
        assertThat(out.text()).isEqualTo("0123456789");
        assertThat(out.cut()).isTrue();
    }

    @Test
    void aDrainedStreamIsReadToItsEnd() throws InterruptedException {
        byte[] whole = bytes(70_000, 3);
        CappedOutput out = CappedOutput.drain(new ByteArrayInputStream(whole), 1 << 20, 1 << 20, "capped-output-test");
        assertThat(out.await(Duration.ofSeconds(10))).isEqualTo(new String(whole, StandardCharsets.UTF_8));
        assertThat(out.ended()).isTrue();
    }

    /** Printable ASCII, so every cut is at a character's edge. */
    private static byte[] bytes(int n, long seed) {
        Random random = new Random(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + random.nextInt(26));
        }
        return b;
    }

    private static void append(CappedOutput out, String text, int frame) {
        append(out, text.getBytes(StandardCharsets.UTF_8), frame);
    }

    private static void append(CappedOutput out, byte[] whole, int frame) {
        for (int at = 0; at < whole.length; at += frame) {
            int n = Math.min(frame, whole.length - at);
            byte[] piece = new byte[n];
            System.arraycopy(whole, at, piece, 0, n);
            out.append(piece, n);
        }
    }
}
