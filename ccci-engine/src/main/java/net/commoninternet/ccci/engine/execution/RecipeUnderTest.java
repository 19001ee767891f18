package net.commoninternet.ccci.engine.execution;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.lifecycle.DependencyKeys;
import org.apiguardian.api.API;

/**
 * The recipe a run tests, as discovery found it: its source folder, its validated CI keys, its
 * customization (none for a recipe without one) and the keys of its dependencies.
 *
 * @param source the recipe's folder in {@code ccci.recipes}; runs clone it, never change it
 */
@API(status = API.Status.INTERNAL)
public record RecipeUnderTest(Path source, CiKeys keys, Optional<RecipeCustomization> customization,
        DependencyKeys dependencyKeys) {

    public RecipeUnderTest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(customization, "customization");
        Objects.requireNonNull(dependencyKeys, "dependencyKeys");
    }

    /** A recipe without customization: default keys, no dependencies. */
    static RecipeUnderTest plain(Path source) {
        return new RecipeUnderTest(source, CiKeys.defaults(), Optional.empty(), DependencyKeys.none());
    }
}
