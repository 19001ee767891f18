package net.commoninternet.ccci.engine;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.DependencyKeys;
import net.commoninternet.ccci.spi.RunContext;
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
    private final Path recipeSource;
    private final CiKeys keys;
    private final Optional<RecipeCustomization> customization;
    private final DependencyKeys dependencyKeys;

    RecipeRunDescriptor(UniqueId uniqueId, RunSettings settings, Path recipeSource, TestSource source, CiKeys keys,
            Optional<RecipeCustomization> customization, DependencyKeys dependencyKeys) {
        super(uniqueId, settings.recipe(), source);
        this.settings = settings;
        this.recipeSource = recipeSource;
        this.keys = keys;
        this.customization = customization;
        this.dependencyKeys = dependencyKeys;
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
        RunContext run = new RunContext(settings, recipeSource, tiers(), context.plugins().extensions(),
                context.attachments().to(this));
        run.put(CiKeys.class, keys);
        customization.ifPresent(c -> run.put(RecipeCustomization.class, c));
        run.put(DependencyKeys.class, dependencyKeys);
        try {
            context.plugins().lifecycle().run(run, () -> invocation.invoke(context.withRun(run)));
        } catch (Throwable t) {
            throw Redaction.rethrow(Redaction.of(t, run::redact));
        }
    }
}
