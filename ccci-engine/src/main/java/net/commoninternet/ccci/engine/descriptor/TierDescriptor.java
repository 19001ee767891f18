package net.commoninternet.ccci.engine.descriptor;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.Redaction;
import net.commoninternet.ccci.engine.execution.TierRecord;
import net.commoninternet.ccci.engine.execution.TierRunContext;
import net.commoninternet.ccci.engine.extension.CheckTags;
import net.commoninternet.ccci.engine.extension.PreOperationHooks;
import net.commoninternet.ccci.spi.RunRecord;
import net.commoninternet.ccci.spi.SkipKind;
import net.commoninternet.ccci.spi.Skipped;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.junit.platform.engine.support.hierarchical.ThrowableCollector;
import org.opentest4j.TestAbortedException;

/** One tier of a run: its operation runs once in {@link #execute}, then its checks. */
@API(status = API.Status.INTERNAL)
public final class TierDescriptor extends AbstractTestDescriptor implements Node<CcciExecutionContext> {

    public static final String SEGMENT = "tier";

    private final Tier tier;
    private final Optional<TierPlugin> plugin;
    private final Optional<String> notApplicable;
    /**
     * Why the run was stopped, as it was when this node's work threw: a failure the stop caused says
     * so in the results; one that came before the stop keeps its own message alone.
     */
    private volatile Optional<String> stoppedAtFailure = Optional.empty();
    /**
     * Whether discovery gave this tier checks: it is a container then, even once a tag filter removed
     * them all (JUnit then prunes it, and the run leaves the tier's operation out, as ccci.stages would).
     */
    private boolean withChecks;

    /** @param notApplicable the recipe's reason (EXPECTED_NA) why this tier does not apply to it */
    public TierDescriptor(UniqueId uniqueId, Tier tier, Optional<TierPlugin> plugin, TestSource anchor,
            Optional<String> notApplicable) {
        super(uniqueId, tier.id(), anchor);
        this.tier = tier;
        this.plugin = plugin;
        this.notApplicable = notApplicable;
    }

    /** {@code recipe > tier}, the recipe being the run this tier belongs to. */
    @Override
    public String getLegacyReportingName() {
        return getParent().map(TestDescriptor::getDisplayName).orElse("") + " > " + tier.id();
    }

    Tier tier() {
        return tier;
    }

    /**
     * A tier without checks (no implementation on the class path) is itself a test, so that
     * it is reported as skipped instead of being pruned from the plan unseen. A plain TEST:
     * Surefire reports nothing for a skipped node that is also a container.
     */
    @Override
    public Type getType() {
        return withChecks ? Type.CONTAINER : Type.TEST;
    }

    @Override
    public void addChild(TestDescriptor child) {
        withChecks = true;
        super.addChild(child);
    }

    /** The tier's id: {@code -Dgroups=lint}, {@code -DexcludedGroups=upgrade} select tiers, and so the run's stages. */
    @Override
    public Set<TestTag> getTags() {
        return CheckTags.of(tier);
    }

    /**
     * Whether this tier, as it will run, needs the run's deployed app: it has an implementation that
     * does ({@link TierPlugin#needsLiveApp}) and nothing skips it whole.
     */
    boolean needsLiveApp() {
        return skip().isEmpty() && plugin.map(TierPlugin::needsLiveApp).orElse(false);
    }

    /** On its run's thread, as everything of a run. */
    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.SAME_THREAD;
    }

    /** The tier's own view of the run: the live app, and attachments that land on this node. */
    @Override
    public CcciExecutionContext prepare(CcciExecutionContext context) {
        return context.withTier(new TierRunContext(context.run(), tier, context.live(), context.attachments().to(this)),
                new TierRecord());
    }

    /** The tier is a phase of its run's timeline: hooks, operation, checks and AfterTier extensions. */
    @Override
    public CcciExecutionContext before(CcciExecutionContext context) {
        context.tier().timed(context.run().timeline().start(tier.id()));
        return context;
    }

    @Override
    public SkipResult shouldBeSkipped(CcciExecutionContext context) {
        return skip(context).map(s -> SkipResult.skip(s.getMessage())).orElseGet(SkipResult::doNotSkip);
    }

    /** Why this tier does not run at all, if it does not: the recipe's or the plugins' reason, else a stop of the run. */
    private Optional<Skipped> skip(CcciExecutionContext context) {
        return skip().or(() -> stopped(context));
    }

    /** Not run once the run was stopped: nothing of this tier was checked. */
    static Optional<Skipped> stopped(CcciExecutionContext context) {
        return context.stopped().map(why -> Skipped.unverified("not run: " + why));
    }

    /** Why this tier never runs for this recipe, if it does not. */
    private Optional<Skipped> skip() {
        if (notApplicable.isPresent()) {
            return Optional.of(new Skipped(SkipKind.INTENTIONAL, "intentional skip (EXPECTED_NA): " + notApplicable.get(), null));
        }
        if (plugin.isEmpty()) {
            return Optional.of(Skipped.unverified("tier " + tier.id() + " has no implementation on the class path (unver)"));
        }
        return getChildren().isEmpty()
                ? Optional.of(Skipped.unverified("tier " + tier.id() + " has no checks for this recipe (unver)"))
                : Optional.empty();
    }

    @Override
    public CcciExecutionContext execute(CcciExecutionContext context, DynamicTestExecutor executor) throws Exception {
        try {
            if (tier != Tier.INSTALL) { // INSTALL's hooks run before the run's single deploy, when the lifecycle says
                PreOperationHooks.run(context.run().customization(), context.live().hookContext(tier));
            }
            plugin.orElseThrow().operate(context.tierView());
            context.plugins().extensions().beforeChecks(context.tierView());
        } catch (Throwable t) {
            stoppedAtFailure = context.stopped();
            Throwable reported = Redaction.of(Outcomes.classified(context, t), context.run()::redact);
            context.tier().failed(reported);
            throw Redaction.rethrow(reported);
        }
        return context;
    }

    /** A tier-level row only when the tier itself did not pass (its checks report the rest). */
    @Override
    public void nodeFinished(CcciExecutionContext context, TestDescriptor descriptor, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL || getChildren().isEmpty()) {
            context.run().record().add(Outcomes.row(tier, null, result, stoppedAtFailure));
        }
    }

    @Override
    public void nodeSkipped(CcciExecutionContext context, TestDescriptor descriptor, SkipResult skip) {
        context.run().record().add(RunRecord.Row.skipped(tier, null, skip(context).map(Skipped::kind).orElse(SkipKind.UNVERIFIED),
                skip.getReason().orElse(null)));
    }

    /**
     * A flaky check (failed, then passed on a later attempt) fails its tier unless the host allows
     * flakes ({@code ccci.allow-flaky}): the check itself is reported as it ran (passed, with its
     * failed attempts), and the tier, whose rung it belongs to, fails naming it, so a flake is never
     * green by default. Recorded as the tier's first failure, which the AfterTier extensions are given.
     */
    private Optional<AssertionError> flakyNotAllowed(CcciExecutionContext context) {
        List<String> flaky = context.tier().flaky();
        Throwable before = context.tier().failure();
        if (flaky.isEmpty() || context.checkAttempts().allowFlaky() || (before != null && !(before instanceof TestAbortedException))) {
            return Optional.empty(); // allowed, or the tier failed already (a skip is no failure)
        }
        AssertionError failure = new AssertionError("flaky: " + String.join("; ", flaky) + ". This host does not let a"
                + " flaky check pass its tier: fix the flake, or set -D" + Constants.ALLOW_FLAKY + "=true on the host.");
        stoppedAtFailure = context.stopped();
        context.tier().failed(failure);
        return Optional.of(failure);
    }

    /**
     * Every AfterTier extension, each given the tier's first failure; what they throw fails the tier
     * after its own failure (JUnit keeps a node's first failure and suppresses the later ones).
     */
    @Override
    public void after(CcciExecutionContext context) {
        try {
            Optional<AssertionError> flaky = flakyNotAllowed(context);
            ThrowableCollector after = context.plugins().extensions().afterTier(context.tierView(), context.tier().failure());
            if (flaky.isPresent()) {
                if (after.isNotEmpty()) {
                    flaky.get().addSuppressed(after.getThrowable());
                }
                throw Redaction.rethrow(Redaction.of(flaky.get(), context.run()::redact));
            }
            if (after.isNotEmpty()) {
                context.tier().failed(after.getThrowable());
                throw Redaction.rethrow(Redaction.of(after.getThrowable(), context.run()::redact));
            }
        } finally {
            context.tier().endTiming();
        }
    }
}
