package net.commoninternet.ccci.spi;

import java.util.Map;

/**
 * One recipe's CI customization, registered through {@link java.util.ServiceLoader} (in
 * recipe-suites, or any module on the test class path). Besides the declarative {@link #keys()},
 * its methods annotated {@link AfterOperation} add assertions to a tier's generic checks and its
 * methods annotated {@link Functional} are the recipe's functional tests (the CUSTOM tier). Both
 * take a {@link LiveApp} and are reported, and rerunnable from an IDE, one by one.
 *
 * <p>Instances are created with their public no-argument constructor, once per check.
 */
public interface RecipeCustomization {

    /** The recipe this customizes. */
    String recipe();

    /** The declarative keys ({@link CiKeys#KNOWN}); an unknown or mistyped key fails discovery with a suggestion. */
    default Map<String, Object> keys() {
        return Map.of();
    }
}
