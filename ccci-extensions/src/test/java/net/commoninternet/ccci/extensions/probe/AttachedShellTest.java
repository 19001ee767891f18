package net.commoninternet.ccci.extensions.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A shell's line: what a recipe puts in a probe (a path, a domain) is one single-quoted
 * argument, never shell syntax, checked by a real {@code sh} (dash here, busybox's ash in the
 * container: both POSIX in what the line uses).
 */
class AttachedShellTest {

    @Test
    void everyArgumentIsOneQuotedWordAndTheNonceLinesEndEachStream() throws Exception {
        List<String> command = List.of("printf", "%s|", "it's", "$(echo pwned)", "`id`", "a b", "\"q\"", ";exit 3", "");
        String line = AttachedShell.line(command, "ccci-n0nce", false);
        assertThat(line).endsWith("\n").doesNotContain("\n\n");
        Shell sh = Shell.reading(line);
        assertThat(sh.out).isEqualTo("it's|$(echo pwned)|`id`|a b|\"q\"|;exit 3||\nccci-n0nce 0\n");
        assertThat(sh.err).isEqualTo("\nccci-n0nce\n");
    }

    @Test
    void theExitStatusIsTheCommandsAndItsStdinIsNotTheShells() throws Exception {
        String line = AttachedShell.line(List.of("sh", "-c", "cat; exit 7"), "ccci-n0nce", false);
        assertThat(Shell.reading(line + "echo still-read\n").out).isEqualTo("\nccci-n0nce 7\nstill-read\n");
    }

    @Test
    void aMergedLineInterleavesTheCommandsStderrIntoItsStdoutAndLeavesStderrTheNonceAlone() throws Exception {
        String line = AttachedShell.line(List.of("sh", "-c", "echo a; echo b >&2; echo c; exit 3"), "ccci-n0nce", true);
        Shell sh = Shell.reading(line);
        assertThat(sh.out).isEqualTo("a\nb\nc\n\nccci-n0nce 3\n");
        assertThat(sh.err).isEqualTo("\nccci-n0nce\n");
    }

    @Test
    void anArgumentThatIsNotOneLineGoesThroughAnExec() {
        assertThat(AttachedShell.fits(List.of("wget", "http://tasks.app:80/"))).isTrue();
        assertThat(AttachedShell.fits(List.of("wget", "/a\nb"))).isFalse();
        assertThat(AttachedShell.fits(List.of("wget", "/a\rb"))).isFalse();
        assertThat(AttachedShell.fits(List.of("wget", "/a\0b"))).isFalse();
    }

    /**
     * What a real {@code sh} reading {@code lines} as the shell does ({@link AttachedShell#COMMAND})
     * printed on each stream; it must end with status 0.
     */
    private record Shell(String out, String err) {
        static Shell reading(String lines) throws Exception {
            Process sh = new ProcessBuilder(AttachedShell.COMMAND).start();
            sh.getOutputStream().write(lines.getBytes(StandardCharsets.UTF_8));
            sh.getOutputStream().close();
            String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(sh.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(sh.waitFor()).isZero();
            return new Shell(out, err);
        }
    }
}
