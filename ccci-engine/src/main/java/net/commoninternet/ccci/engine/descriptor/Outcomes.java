package net.commoninternet.ccci.engine.descriptor;

import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.spi.Skipped;
import org.junit.platform.engine.TestExecutionResult;

/**
 * A JUnit execution result as a run-record row. An abort is a skip: of the kind its
 * {@link Skipped} says, and unverified for any other abort (nobody said why).
 */
final class Outcomes {

    private Outcomes() {
    }

    static RunRecord.Row row(Tier tier, String check, TestExecutionResult result) {
        return row(tier, check, result, Optional.empty());
    }

    /**
     * As {@link #row(Tier, String, TestExecutionResult)}, for a node whose work threw once its run was
     * {@code stopped}: the failure then says so first (what the stop's interrupt made the work throw
     * is no reason a maintainer can act on), with its own message after it.
     */
    static RunRecord.Row row(Tier tier, String check, TestExecutionResult result, Optional<String> stopped) {
        String thrown = result.getThrowable().map(Throwable::getMessage).orElse(null);
        String message = result.getStatus() == TestExecutionResult.Status.FAILED && stopped.isPresent()
                ? stopped.get() + (thrown == null ? "" : " (" + thrown + ")") : thrown;
        return switch (result.getStatus()) {
            case SUCCESSFUL -> RunRecord.Row.passed(tier, check);
            case FAILED -> RunRecord.Row.failed(tier, check, message);
            case ABORTED -> RunRecord.Row.skipped(tier, check, result.getThrowable()
                    .filter(Skipped.class::isInstance).map(t -> ((Skipped) t).kind()).orElse(SkipKind.UNVERIFIED), message);
        };
    }
}
