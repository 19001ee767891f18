package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.RunRecord;
import org.junit.platform.engine.TestExecutionResult;

/** A JUnit execution result as a run-record row: aborted (a structural skip) counts as skipped. */
final class Outcomes {

    private Outcomes() {
    }

    static RunRecord.Row row(Tier tier, String check, TestExecutionResult result) {
        RunRecord.Status status = switch (result.getStatus()) {
            case SUCCESSFUL -> RunRecord.Status.PASSED;
            case ABORTED -> RunRecord.Status.SKIPPED;
            case FAILED -> RunRecord.Status.FAILED;
        };
        return new RunRecord.Row(tier, check, status, result.getThrowable().map(Throwable::getMessage).orElse(null));
    }
}
