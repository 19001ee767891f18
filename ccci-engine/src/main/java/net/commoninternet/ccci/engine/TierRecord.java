package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.spi.RunTimeline;
import org.opentest4j.TestAbortedException;

/** One tier as it runs: the first failure seen (its operation or any check), for AfterTier callbacks, and its timing. */
final class TierRecord {

    private Throwable failure;
    private RunTimeline.Span span;

    synchronized void failed(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    synchronized Throwable failure() {
        return failure;
    }

    synchronized void timed(RunTimeline.Span tierSpan) {
        span = tierSpan;
    }

    /** Ends the tier's phase: failed if anything of it failed (a skip, a lint finding say, is no failure). */
    void endTiming() {
        RunTimeline.Span ending;
        Throwable failed;
        synchronized (this) {
            ending = span;
            failed = failure;
            span = null;
        }
        if (ending != null) {
            ending.end(failed == null || failed instanceof TestAbortedException ? RunTimeline.Outcome.DONE
                    : RunTimeline.Outcome.FAILED);
        }
    }
}
