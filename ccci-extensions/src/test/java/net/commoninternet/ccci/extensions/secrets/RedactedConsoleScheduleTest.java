package net.commoninternet.ccci.extensions.secrets;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * A secret's registration with the console filter against a line being printed, under Lincheck's
 * model checker (the real {@link RedactedConsole}, on threads it schedules and interleaves, inside
 * the filter's writes and the registration too). A run registers a generated secret as soon as it
 * exists, while another thread (a child's output being logged) prints a line holding it in two
 * writes; the registration returns before the line's second write (the child waits for it there:
 * the premise), and may come anywhere before. Invariant: the line goes out masked. Seeded bug: a
 * filter that passes writes through as they come (a line bound of one byte) instead of holding
 * each line to its end.
 */
class RedactedConsoleScheduleTest {

    /** Schedules explored where no bug is (a seeded bug is found within far fewer; each costs the model checker tens of ms). */
    private static final int PASSING = 30;
    private static final int INVOCATIONS = 50;
    private static final String SECRET = "s3cr3t";

    /** One thread of the race; its share is in fields of its own (Lincheck does not see through a lambda's captures). */
    private static final class Part extends Thread {
        private final RedactedConsole filter;
        private final OutputStream out;
        private final Thread registration;

        /** The run: registers the secret. */
        Part(RedactedConsole filter) {
            this.filter = filter;
            this.out = null;
            this.registration = null;
        }

        /** The child's output: the line's first byte, then (once the registration returned) the rest. */
        Part(OutputStream out, Thread registration) {
            this.filter = null;
            this.out = out;
            this.registration = registration;
        }

        @Override
        public void run() {
            try {
                if (filter != null) {
                    filter.addSecrets(List.of(SECRET));
                    return;
                }
                out.write(SECRET.substring(0, 1).getBytes(StandardCharsets.UTF_8));
                registration.join();
                out.write((SECRET.substring(1) + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static void registrationAgainstALine(int maxLine) {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream original = new PrintStream(console, true, StandardCharsets.UTF_8);
        RedactedConsole filter = new RedactedConsole(original, original, maxLine);
        Thread run = new Part(filter);
        Thread child = new Part(filter.filteredOut(), run);
        child.start();
        run.start();
        try {
            child.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        if (!printed.equals(SecretMasking.MASK + "\n")) {
            throw new AssertionError("a secret registered before its line ended went out unmasked: " + printed);
        }
    }

    @Test
    void aSecretRegisteredBeforeItsLineEndsIsMasked() {
        Lincheck.runConcurrentTest(PASSING, () -> registrationAgainstALine(64 * 1024));
    }

    @Test
    void aFilterThatPassesWritesThroughAtOnceIsFound() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> registrationAgainstALine(1)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("went out unmasked");
    }
}
