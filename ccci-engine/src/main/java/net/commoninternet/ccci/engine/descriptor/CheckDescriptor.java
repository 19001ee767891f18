package net.commoninternet.ccci.engine.descriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.CheckAttempts;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.Redaction;
import net.commoninternet.ccci.engine.extension.CheckTags;
import net.commoninternet.ccci.spi.Check;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.SkipKind;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.TestAbortedException;

/** One check of a tier, reported as one test named {@code recipe > tier > check}. */
@API(status = API.Status.INTERNAL)
public final class CheckDescriptor extends AbstractTestDescriptor implements Node<CcciExecutionContext> {

    public static final String SEGMENT = "check";

    private final Check check;
    private final Tier tier;
    private final String legacyName;
    /** Its tier's tag and its own ({@link Check#tags()}): JUnit's tag filters judge a check by these alone. */
    private final Set<TestTag> tags;
    /**
     * Why the run was stopped, as it was when this node's work threw: a failure the stop caused says
     * so in the results; one that came before the stop keeps its own message alone.
     */
    private volatile Optional<String> stoppedAtFailure = Optional.empty();
    /** Its tries, when it was tried more than once (for its row of the run's record). */
    private volatile List<RunRecord.Attempt> attempts = List.of();

    /**
     * A check with no source of its own takes the run's anchor class: Surefire files a test
     * under the class of its source and names it by its legacy reporting name.
     */
    public CheckDescriptor(UniqueId uniqueId, Check check, String recipe, String tier, TestSource anchor) {
        super(uniqueId, check.name(), check.source().orElse(anchor));
        this.check = check;
        this.tier = Tier.fromId(tier).orElseThrow();
        this.legacyName = recipe + " > " + tier + " > " + check.name();
        this.tags = CheckTags.of(this.tier, check);
    }

    @Override
    public Set<TestTag> getTags() {
        return tags;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public String getLegacyReportingName() {
        return legacyName;
    }

    /** On its run's thread, as everything of a run. */
    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.SAME_THREAD;
    }

    /** Not started once the run was stopped (a check may take as long as its probe's timeout). */
    @Override
    public SkipResult shouldBeSkipped(CcciExecutionContext context) {
        return TierDescriptor.stopped(context).map(s -> SkipResult.skip(s.getMessage())).orElseGet(SkipResult::doNotSkip);
    }

    @Override
    public void nodeSkipped(CcciExecutionContext context, TestDescriptor descriptor, SkipResult skip) {
        context.run().record().add(RunRecord.Row.skipped(tier, check.name(), SkipKind.UNVERIFIED, skip.getReason().orElse(null)));
    }

    @Override
    public void nodeFinished(CcciExecutionContext context, TestDescriptor descriptor, TestExecutionResult result) {
        context.run().record().add(Outcomes.row(tier, check.name(), result, stoppedAtFailure).withAttempts(attempts));
    }

    /**
     * The check, tried again after a failure against the same live app as the host allows
     * ({@link CheckAttempts}), a pause apart: only the check's own look at the app is repeated, never
     * its tier's operation. Each failed attempt but the last is reported as this node's execution
     * ending in that failure, and the next as its execution starting again: Surefire merges the runs
     * of one test (one unique id) as its own reruns, so its XML shows a check that passed on a later
     * attempt with a {@code flakyFailure} per failed one, and one that failed every time with its
     * first failure and a {@code rerunFailure} per later one. A skip, a stop of the run, or an error
     * JUnit never recovers from ends the tries at once.
     */
    @Override
    public CcciExecutionContext execute(CcciExecutionContext context, DynamicTestExecutor executor) throws Exception {
        int bound = check.triedAgain() ? context.checkAttempts().attempts() : 1;
        List<RunRecord.Attempt> tries = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            Throwable reported;
            try {
                check.verify(context.tierView());
                if (!tries.isEmpty()) {
                    tries.add(new RunRecord.Attempt(attempt, bound, RunRecord.Status.PASSED, null));
                    attempts = List.copyOf(tries);
                    context.tier().flaky(check.name() + " passed on attempt " + attempt + " of " + bound + " (attempt 1: "
                            + tries.get(0).message() + ")");
                }
                return context;
            } catch (Throwable t) {
                stoppedAtFailure = context.stopped();
                reported = Redaction.of(Outcomes.classified(context, t), context.run()::redact);
                if (!(t instanceof TestAbortedException)) { // a skip is no failed try: the tries before it are kept
                    tries.add(new RunRecord.Attempt(attempt, bound, RunRecord.Status.FAILED, reported.getMessage()));
                }
                // the host's fault is no look at the app: it is said as the host's at once, never tried again as the recipe's
                if (attempt >= bound || !worthAnotherTry(t) || context.stopped().isPresent() || HostFault.in(reported).isPresent()) {
                    attempts = List.copyOf(tries);
                    context.tier().failed(reported);
                    throw Redaction.rethrow(reported);
                }
            }
            context.listener().executionFinished(this, TestExecutionResult.failed(reported));
            context.listener().executionStarted(this);
            try {
                Thread.sleep(context.checkAttempts().pauseBefore(attempt + 1).toMillis());
            } catch (InterruptedException stopped) {
                // the run is being stopped (its guards interrupt its thread): no further attempt
                stoppedAtFailure = context.stopped();
                attempts = List.copyOf(tries);
                context.tier().failed(reported);
                throw Redaction.rethrow(reported);
            }
        }
    }

    /** A failure a later look at the app may not repeat: an assertion or an exception, never a skip, a stop or a JVM error. */
    private static boolean worthAnotherTry(Throwable t) {
        return !(t instanceof TestAbortedException) && !(t instanceof InterruptedException)
                && (t instanceof AssertionError || t instanceof Exception);
    }
}
