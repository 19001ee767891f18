package net.commoninternet.ccci.engine.extension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import net.commoninternet.ccci.spi.Driver;
import net.commoninternet.ccci.spi.TierPlugin;
import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;

/**
 * What the class path provides through {@link ServiceLoader}: the lifecycle, the tiers, the
 * drivers, the extensions (in their {@link ExtensionRegistry}) and the recipes' customizations.
 */
@API(status = API.Status.INTERNAL)
public final class Plugins {

    private final List<RunLifecycle> lifecycles;
    private final Map<Tier, TierPlugin> tiers;
    private final Map<String, Driver> drivers;
    private final ExtensionRegistry extensions;
    private final Map<String, RecipeCustomization> customizations;

    private Plugins(List<RunLifecycle> lifecycles, Map<Tier, TierPlugin> tiers, Map<String, Driver> drivers,
            ExtensionRegistry extensions, Map<String, RecipeCustomization> customizations) {
        this.lifecycles = lifecycles;
        this.tiers = tiers;
        this.drivers = drivers;
        this.extensions = extensions;
        this.customizations = customizations;
    }

    public static Plugins load(ClassLoader loader) {
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
        Map<String, Driver> drivers = new TreeMap<>();
        for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
            Driver previous = drivers.putIfAbsent(driver.id(), driver);
            if (previous != null) {
                throw new JUnitException("two " + driver.id() + " drivers on the class path: " + previous.getClass().getName()
                        + " and " + driver.getClass().getName() + "; keep one.");
            }
        }
        Map<String, RecipeCustomization> customizations = new HashMap<>();
        for (RecipeCustomization customization : ServiceLoader.load(RecipeCustomization.class, loader)) {
            RecipeCustomization previous = customizations.putIfAbsent(customization.recipe(), customization);
            if (previous != null) {
                throw new JUnitException("two customizations of recipe " + customization.recipe() + ": "
                        + previous.getClass().getName() + " and " + customization.getClass().getName() + "; keep one.");
            }
        }
        return new Plugins(List.copyOf(lifecycles), tiers, Collections.unmodifiableMap(drivers), ExtensionRegistry.load(loader),
                Map.copyOf(customizations));
    }

    public RunLifecycle lifecycle() {
        if (lifecycles.size() != 1) {
            throw new JUnitException(lifecycles.isEmpty()
                    ? "no ccci run lifecycle on the class path: add net.commoninternet.ccci:ccci-extensions as a test dependency."
                    : "more than one ccci run lifecycle on the class path: " + lifecycles + "; keep one.");
        }
        return lifecycles.get(0);
    }

    /** The lifecycle, if exactly one is on the class path (more or none is said when a run executes). */
    public Optional<RunLifecycle> onlyLifecycle() {
        return lifecycles.size() == 1 ? Optional.of(lifecycles.get(0)) : Optional.empty();
    }

    public Optional<TierPlugin> tier(Tier tier) {
        return Optional.ofNullable(tiers.get(tier));
    }

    /** The drivers found, by id, sorted. */
    public Map<String, Driver> drivers() {
        return drivers;
    }

    public Optional<RecipeCustomization> customization(String recipe) {
        return Optional.ofNullable(customizations.get(recipe));
    }

    public ExtensionRegistry extensions() {
        return extensions;
    }
}
