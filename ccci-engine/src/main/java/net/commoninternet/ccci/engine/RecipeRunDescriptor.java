package net.commoninternet.ccci.engine;

import java.util.EnumSet;
import java.util.Set;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.RecipeUnderTest;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunLifecycle;
import net.commoninternet.ccci.spi.RunSettings;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * One recipe CI run. Its whole life (guards, janitor, deploy, teardown) belongs to the
 * {@link net.commoninternet.ccci.spi.RunLifecycle}; the tiers below it run inside that life,
 * after the deploy and before the teardown.
 */
final class RecipeRunDescriptor extends AbstractTestDescriptor implements Node<CcciExecutionContext> {

    static final String SEGMENT = "recipe";

    private final RunSettings settings;
    private final RecipeUnderTest recipe;

    RecipeRunDescriptor(UniqueId uniqueId, RunSettings settings, RecipeUnderTest recipe, TestSource source) {
        super(uniqueId, settings.recipe(), source);
        this.settings = settings;
        this.recipe = recipe;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    RunSettings settings() {
        return settings;
    }

    Set<Tier> tiers() {
        Set<Tier> tiers = EnumSet.noneOf(Tier.class);
        getChildren().forEach(c -> tiers.add(((TierDescriptor) c).tier()));
        return tiers;
    }

    @Override
    public void around(CcciExecutionContext context, Invocation<CcciExecutionContext> invocation) throws Exception {
        RunContext run = new RunContext(settings, recipe, tiers(), context.plugins().extensions(),
                context.attachments().to(this));
        try {
            context.plugins().lifecycle().run(run, new EngineTiers(run, context, invocation));
        } catch (Throwable t) {
            throw Redaction.rethrow(Redaction.of(t, run::redact));
        }
    }

    /** What the engine does for the lifecycle: the pre-install hooks, then the tiers, once. */
    private static final class EngineTiers implements RunLifecycle.Tiers {
        private final RunContext run;
        private final CcciExecutionContext context;
        private final Invocation<CcciExecutionContext> invocation;
        private boolean ran;

        EngineTiers(RunContext run, CcciExecutionContext context, Invocation<CcciExecutionContext> invocation) {
            this.run = run;
            this.context = context;
            this.invocation = invocation;
        }

        @Override
        public void beforeInstall(HookContext hookContext) throws Exception {
            PreOperationHooks.run(run.customization(), hookContext);
        }

        @Override
        public void run(LiveRun live) throws Exception {
            if (ran) {
                throw new IllegalStateException("the lifecycle ran the tiers of " + run.recipe() + " twice: a run has one"
                        + " deploy and runs its tiers once.");
            }
            ran = true;
            invocation.invoke(context.withRun(run.withLive(live)));
        }
    }
}
