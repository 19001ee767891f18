package net.commoninternet.ccci.lifecycle;

import java.util.Map;
import net.commoninternet.ccci.api.CiKeys;
import org.apiguardian.api.API;

/**
 * The CI keys of each of the recipe's dependencies ({@code DEPS}), from their own
 * customizations (defaults for a dependency without one): a dependency's
 * {@code WARM_CANONICAL} says whether a run may use its long-lived warm app instead of deploying
 * it cold.
 */
@API(status = API.Status.INTERNAL)
public record DependencyKeys(Map<String, CiKeys> byRecipe) {

    public DependencyKeys {
        byRecipe = Map.copyOf(byRecipe);
    }

    public static DependencyKeys none() {
        return new DependencyKeys(Map.of());
    }

    public CiKeys of(String dependency) {
        return byRecipe.getOrDefault(dependency, CiKeys.defaults());
    }
}
