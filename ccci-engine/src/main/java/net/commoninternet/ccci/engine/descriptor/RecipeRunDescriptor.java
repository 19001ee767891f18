package net.commoninternet.ccci.engine.descriptor;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.EngineRunSteps;
import net.commoninternet.ccci.engine.execution.RecipeRunContext;
import net.commoninternet.ccci.engine.execution.RecipeUnderTest;
import net.commoninternet.ccci.engine.execution.Redaction;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.ExclusiveResource;
import org.junit.platform.engine.support.hierarchical.Node;
import org.junit.platform.engine.support.hierarchical.ThrowableCollector;

/**
 * One recipe CI run. Its whole life (guards, janitor, deploy, teardown) belongs to the
 * {@link RunLifecycle}; the tiers below it run inside that life,
 * after the deploy and before the teardown.
 *
 * <p>Runs of a plan of several recipes are siblings that JUnit's parallel executor runs at once
 * ({@link ExecutionMode#CONCURRENT}); everything below a run stays on the run's thread. Each run
 * holds an {@link ExclusiveResource} on its app domain, so two runs of one domain never overlap
 * in one JVM; across processes the app-domain flock still does that.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeRunDescriptor extends AbstractTestDescriptor implements Node<CcciExecutionContext> {

    public static final String SEGMENT = "recipe";

    /** Key prefix of the app-domain resource; the rest is what the domain is made of. */
    public static final String APP_DOMAIN_RESOURCE = "net.commoninternet.ccci.app-domain:";

    private final String commandRunId;
    private final RecipeUnderTest recipe;
    /** Set at discovery; renamed once the plan is known to hold several runs ({@link #runInAPlanOfSeveral}). */
    private RunSettings settings;

    public RecipeRunDescriptor(UniqueId uniqueId, RunSettings settings, RecipeUnderTest recipe, TestSource source) {
        super(uniqueId, settings.recipe(), source);
        this.settings = settings;
        this.commandRunId = settings.runId();
        this.recipe = recipe;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    public RunSettings settings() {
        return settings;
    }

    /** The run id the command was given; this run's own is {@code <it>-<recipe>} in a plan of several. */
    String commandRunId() {
        return commandRunId;
    }

    /** This run is one of several in its plan: its run id becomes {@code <command run id>-<recipe>}. */
    void runInAPlanOfSeveral() {
        settings = settings.withRunId(commandRunId + "-" + settings.recipe());
    }

    /**
     * The app domain, by what it is made of: {@code AppNaming} hashes exactly the recipe, the pull
     * request and the ref (the fetched head's commit when no ref is given: the same source gives
     * the same commit), so equal keys are equal domains.
     */
    @Override
    public Set<ExclusiveResource> getExclusiveResources() {
        String ref = Objects.toString(settings.subject().ref(), "HEAD");
        return Set.of(new ExclusiveResource(APP_DOMAIN_RESOURCE + settings.recipe() + "|" + settings.subject().pr() + "|" + ref,
                ExclusiveResource.LockMode.READ_WRITE));
    }

    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.CONCURRENT;
    }

    /**
     * The tiers this run executes: those still in the tree when it runs, after ccci.stages, a unique-id
     * selection and JUnit's tag filters (which prune a tier whose checks they all removed).
     */
    Set<Tier> tiers() {
        Set<Tier> tiers = EnumSet.noneOf(Tier.class);
        getChildren().forEach(c -> tiers.add(((TierDescriptor) c).tier()));
        return tiers;
    }

    /** Whether any tier this run executes needs its deployed app; if none does, the run deploys nothing. */
    boolean deploysApp() {
        return getChildren().stream().anyMatch(c -> ((TierDescriptor) c).needsLiveApp());
    }

    /**
     * The run's whole life is its lifecycle's; the engine's part is the run's steps (every
     * extension called, the tiers run once) and its verdict: what the lifecycle threw first, then
     * anything a step the engine completes afterwards threw (the Teardown extensions it calls
     * itself if the lifecycle did not), suppressed in it. Every message is masked before it is
     * reported.
     */
    @Override
    public void around(CcciExecutionContext context, Invocation<CcciExecutionContext> invocation) {
        RecipeRunContext run = new RecipeRunContext(settings, recipe, tiers(), context.attachments().to(this), deploysApp());
        RunLifecycle lifecycle = context.plugins().lifecycle();
        EngineRunSteps steps = new EngineRunSteps(run, context.plugins().extensions(), lifecycle.getClass().getName(),
                (live, stop) -> invocation.invoke(context.withLive(run, live, stop)));
        ThrowableCollector outcome = EngineRunSteps.collector();
        outcome.execute(() -> lifecycle.run(run, steps));
        steps.finish(outcome);
        context.verdict().ended(settings.runId(), outcome.isNotEmpty(), run.record());
        if (outcome.isNotEmpty()) {
            throw Redaction.rethrow(Redaction.of(outcome.getThrowable(), run::redact));
        }
    }
}
