package net.commoninternet.ccci.engine;

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
        String message = result.getThrowable().map(Throwable::getMessage).orElse(null);
        return switch (result.getStatus()) {
            case SUCCESSFUL -> RunRecord.Row.passed(tier, check);
            case FAILED -> RunRecord.Row.failed(tier, check, message);
            case ABORTED -> RunRecord.Row.skipped(tier, check, result.getThrowable()
                    .filter(Skipped.class::isInstance).map(t -> ((Skipped) t).kind()).orElse(SkipKind.UNVERIFIED), message);
        };
    }
}
