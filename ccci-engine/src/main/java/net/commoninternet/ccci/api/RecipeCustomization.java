package net.commoninternet.ccci.api;

import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One recipe's CI customization, registered through {@link java.util.ServiceLoader} (in
 * recipe-suites, or any module on the test class path). Besides the declarative {@link #keys()},
 * its methods annotated {@link AfterOperation} add assertions to a tier's generic checks and its
 * methods annotated {@link Functional} are the recipe's functional tests (the CUSTOM tier). Both
 * take a {@link LiveApp} and are reported, and rerunnable from an IDE, one by one. Its methods
 * annotated {@link BeforeOperation} are the pre-operation hooks; {@link #composeOverlay()} is its
 * {@code compose.ccci.yml}. A customization lives in this repository (reviewed code), so unlike
 * code shipped inside a recipe repository it runs for every recipe.
 *
 * <p>Instances are created with their public no-argument constructor, once per check.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface RecipeCustomization {

    /** The recipe this customizes. */
    String recipe();

    /** The declarative keys ({@link CiKeys#KNOWN}); an unknown or mistyped key fails discovery with a suggestion. */
    default Map<String, Object> keys() {
        return Map.of();
    }

    /**
     * The {@code compose.ccci.yml} overlay ccci adds to every deploy of the recipe (after the
     * files {@code COMPOSE_FILE} names), as YAML text: CI-only settings such as smaller resource
     * limits or a test mail relay. Relative paths in it resolve against the recipe's directory.
     * A {@code compose.ccci.yml} shipped inside the recipe repository itself is recipe code: it is
     * only used for recipes on the approved list ({@code ccci.approved-recipes}).
     */
    default Optional<String> composeOverlay() {
        return Optional.empty();
    }
}
