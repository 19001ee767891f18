package net.commoninternet.ccci.engine.descriptor;

import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.Redaction;
import net.commoninternet.ccci.engine.extension.CheckTags;
import net.commoninternet.ccci.spi.Check;
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
        context.run().record().add(Outcomes.row(tier, check.name(), result, stoppedAtFailure));
    }

    @Override
    public CcciExecutionContext execute(CcciExecutionContext context, DynamicTestExecutor executor) throws Exception {
        try {
            check.verify(context.tierView());
        } catch (Throwable t) {
            stoppedAtFailure = context.stopped();
            Throwable reported = Redaction.of(Outcomes.classified(context, t), context.run()::redact);
            context.tier().failed(reported);
            throw Redaction.rethrow(reported);
        }
        return context;
    }
}
