package net.commoninternet.ccci.engine.descriptor;

import java.util.Optional;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.spi.Skipped;
import org.junit.platform.engine.TestExecutionResult;
import org.opentest4j.TestAbortedException;

/**
 * A JUnit execution result as a run-record row. An abort is a skip: of the kind its
 * {@link Skipped} says, and unverified for any other abort (nobody said why). A failure the host
 * caused ({@link HostFault}, as {@link #classified} made it) is no failure of the recipe's: an
 * {@link SkipKind#INFRASTRUCTURE} skip.
 */
final class Outcomes {

    private Outcomes() {
    }

    static RunRecord.Row row(Tier tier, String check, TestExecutionResult result) {
        return row(tier, check, result, Optional.empty());
    }

    /**
     * What a node reports for {@code thrown}, which its work threw: the {@link HostFault} the run's live
     * run finds in it ({@link LiveRun#hostFault}), or {@code thrown} itself (a skip, the recipe's own
     * failure, anything thrown once the run was stopped: the stop is the reason then). A judgement that
     * itself fails leaves the failure as it was, with that failure suppressed in it.
     */
    static Throwable classified(CcciExecutionContext context, Throwable thrown) {
        if (thrown instanceof TestAbortedException || context.stopped().isPresent() || context.live() == null) {
            return thrown;
        }
        try {
            return context.live().hostFault(thrown).<Throwable>map(fault -> fault).orElse(thrown);
        } catch (RuntimeException judging) {
            thrown.addSuppressed(judging);
            return thrown;
        }
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
        boolean hosts = stopped.isEmpty() && result.getThrowable().filter(HostFault.class::isInstance).isPresent();
        return switch (result.getStatus()) {
            case SUCCESSFUL -> RunRecord.Row.passed(tier, check);
            case FAILED -> hosts ? RunRecord.Row.skipped(tier, check, SkipKind.INFRASTRUCTURE, message)
                    : RunRecord.Row.failed(tier, check, message);
            case ABORTED -> RunRecord.Row.skipped(tier, check, result.getThrowable()
                    .filter(Skipped.class::isInstance).map(t -> ((Skipped) t).kind()).orElse(SkipKind.UNVERIFIED), message);
        };
    }
}
