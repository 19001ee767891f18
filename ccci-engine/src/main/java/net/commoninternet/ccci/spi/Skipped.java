package net.commoninternet.ccci.spi;

import java.util.Objects;
import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/**
 * A skip with its kind: thrown by a tier's operation or a check, reported by JUnit as aborted
 * (skipped), and recorded in the run's {@link RunRecord} with its {@link SkipKind}, which is what
 * the results judge by. An abort of any other type is recorded as {@link SkipKind#UNVERIFIED}.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class Skipped extends TestAbortedException {

    private static final long serialVersionUID = 1L;

    private final SkipKind kind;

    /** @param message the whole message, as {@link SkipKind#describe} wrote it */
    public Skipped(SkipKind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public static Skipped structural(String reason) {
        return of(SkipKind.STRUCTURAL, reason);
    }

    public static Skipped intentional(String reason) {
        return of(SkipKind.INTENTIONAL, reason);
    }

    public static Skipped lintFinding(String finding) {
        return of(SkipKind.LINT_FINDING, finding);
    }

    public static Skipped unverified(String reason) {
        return of(SkipKind.UNVERIFIED, reason);
    }

    private static Skipped of(SkipKind kind, String reason) {
        return new Skipped(kind, kind.describe(reason), null);
    }

    public SkipKind kind() {
        return kind;
    }
}
