package net.commoninternet.ccci.engine.execution;

import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.spi.RunTimeline;
import org.apiguardian.api.API;
import org.opentest4j.TestAbortedException;

/** One tier as it runs: the first failure seen (its operation or any check), for AfterTier callbacks, and its timing. */
@API(status = API.Status.INTERNAL)
public final class TierRecord {

    private Throwable failure;
    private RunTimeline.Span span;
    /** Each flaky check of the tier, as one line (its name, the attempt it passed on, why it failed before). */
    private final List<String> flaky = new ArrayList<>();

    /** A check of this tier failed, then passed on a later attempt. */
    public synchronized void flaky(String line) {
        flaky.add(line);
    }

    /** The tier's flaky checks, in the order they ran. */
    public synchronized List<String> flaky() {
        return List.copyOf(flaky);
    }

    public synchronized void failed(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    public synchronized Throwable failure() {
        return failure;
    }

    public synchronized void timed(RunTimeline.Span tierSpan) {
        span = tierSpan;
    }

    /** Ends the tier's phase: failed if anything of it failed (a skip, a lint finding say, is no failure). */
    public void endTiming() {
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
