package net.commoninternet.ccci.engine.execution;

import java.util.function.UnaryOperator;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.Skipped;
import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * A failure or skip made fit for a report by the run's redactor, before the engine reports it:
 * the report (Surefire's console and XML, the Open Test Reporting XML, an IDE) is written from the
 * exception's message and its causes'. The redactor masks the run's secret values and, in ccci's
 * run, makes what a recipe printed data (controls visible, a message's lines after its first in a
 * gutter: Surefire prints a message's lines as they are). A throwable whose chain the redactor
 * leaves as it is is returned as it is; otherwise a copy of the chain with the redacted messages
 * and the original stack traces, keeping what the report tells apart: an abort stays an abort
 * (skipped), an assertion stays an assertion (failure), the host's fault stays the host's
 * ({@link HostFault}: an error), anything else is an error.
 */
@API(status = API.Status.INTERNAL)
public final class Redaction {

    private Redaction() {
    }

    public static Throwable of(Throwable thrown, UnaryOperator<String> redact) {
        return leaks(thrown, redact, 0) ? copy(thrown, redact, 0) : thrown;
    }

    /** Throws {@code t} whatever its type (the node methods declare Exception only). */
    @SuppressWarnings("unchecked")
    public static <T extends Throwable> RuntimeException rethrow(Throwable t) throws T {
        throw (T) t;
    }

    private static boolean leaks(Throwable t, UnaryOperator<String> redact, int depth) {
        if (t == null || depth > 20) {
            return false;
        }
        String message = t.getMessage();
        if (message != null && !message.equals(redact.apply(message))) {
            return true;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            if (leaks(suppressed, redact, depth + 1)) {
                return true;
            }
        }
        return leaks(t.getCause(), redact, depth + 1);
    }

    private static Throwable copy(Throwable t, UnaryOperator<String> redact, int depth) {
        String message = t.getMessage() == null ? null : redact.apply(t.getMessage());
        Throwable cause = t.getCause() == null || depth > 20 ? null : copy(t.getCause(), redact, depth + 1);
        Throwable copy;
        if (t instanceof HostFault fault) {
            copy = new HostFault(fault, message, cause);
        } else if (t instanceof Skipped skipped) {
            copy = new Skipped(skipped.kind(), message, cause);
        } else if (t instanceof TestAbortedException) {
            copy = new TestAbortedException(message, cause);
        } else if (t instanceof AssertionError) {
            copy = new AssertionError(message, cause);
        } else {
            copy = new RedactedException(t.getClass().getName() + ": " + message, cause);
        }
        copy.setStackTrace(t.getStackTrace());
        for (Throwable suppressed : t.getSuppressed()) {
            copy.addSuppressed(copy(suppressed, redact, depth + 1));
        }
        return copy;
    }

    /** Stands for an exception whose message the redactor changed; its message names the original type. */
    static final class RedactedException extends RuntimeException {
        RedactedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
