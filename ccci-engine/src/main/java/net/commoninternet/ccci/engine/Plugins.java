package net.commoninternet.ccci.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.RunLifecycle;
import net.commoninternet.ccci.spi.TierPlugin;
import org.junit.platform.commons.JUnitException;

/** What the class path provides through {@link ServiceLoader}: the lifecycle, tiers, extensions. */
final class Plugins {

    private final List<RunLifecycle> lifecycles;
    private final Map<Tier, TierPlugin> tiers;
    private final List<RunExtension> extensions;
    private final Map<String, RecipeCustomization> customizations;

    private Plugins(List<RunLifecycle> lifecycles, Map<Tier, TierPlugin> tiers, List<RunExtension> extensions,
            Map<String, RecipeCustomization> customizations) {
        this.lifecycles = lifecycles;
        this.tiers = tiers;
        this.extensions = extensions;
        this.customizations = customizations;
    }

    static Plugins load(ClassLoader loader) {
        List<RunLifecycle> lifecycles = new ArrayList<>();
        ServiceLoader.load(RunLifecycle.class, loader).forEach(lifecycles::add);
        Map<Tier, TierPlugin> tiers = new EnumMap<>(Tier.class);
        for (TierPlugin plugin : ServiceLoader.load(TierPlugin.class, loader)) {
            TierPlugin previous = tiers.putIfAbsent(plugin.tier(), plugin);
            if (previous != null) {
                throw new JUnitException("two implementations of tier " + plugin.tier().id() + " on the class path: "
                        + previous.getClass().getName() + " and " + plugin.getClass().getName() + "; keep one.");
            }
        }
        List<RunExtension> extensions = new ArrayList<>();
        ServiceLoader.load(RunExtension.class, loader).forEach(extensions::add);
        extensions.sort(Comparator.comparingInt(RunExtension::order).thenComparing(e -> e.getClass().getName()));
        Map<String, RecipeCustomization> customizations = new java.util.HashMap<>();
        for (RecipeCustomization customization : ServiceLoader.load(RecipeCustomization.class, loader)) {
            RecipeCustomization previous = customizations.putIfAbsent(customization.recipe(), customization);
            if (previous != null) {
                throw new JUnitException("two customizations of recipe " + customization.recipe() + ": "
                        + previous.getClass().getName() + " and " + customization.getClass().getName() + "; keep one.");
            }
        }
        return new Plugins(List.copyOf(lifecycles), tiers, List.copyOf(extensions), Map.copyOf(customizations));
    }

    RunLifecycle lifecycle() {
        if (lifecycles.size() != 1) {
            throw new JUnitException(lifecycles.isEmpty()
                    ? "no ccci run lifecycle on the class path: add net.commoninternet.ccci:ccci-extensions as a test dependency."
                    : "more than one ccci run lifecycle on the class path: " + lifecycles + "; keep one.");
        }
        return lifecycles.get(0);
    }

    Optional<TierPlugin> tier(Tier tier) {
        return Optional.ofNullable(tiers.get(tier));
    }

    Optional<RecipeCustomization> customization(String recipe) {
        return Optional.ofNullable(customizations.get(recipe));
    }

    List<RunExtension> extensions() {
        return extensions;
    }
}
