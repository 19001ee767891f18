package net.commoninternet.ccci.engine.discovery;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import net.commoninternet.ccci.engine.config.ConfigurationKeys;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.parallel.ParallelExecution;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * What {@code -Drecipe} (or {@code ccci.recipe}) selects, judged the one way discovery judges it:
 * {@code all} as every recipe folder, each named recipe's settings and folder. Each problem is one
 * sentence that names the fix. Used by discovery ({@link RecipeSelectorResolver}, which reports
 * them as discovery issues) and, before Surefire starts the run's JVM, by {@link SelectionCheck}.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeSelection {

    private RecipeSelection() {
    }

    /** The sentence for a recipe key given but blank ({@code -Drecipe=} from a CI job whose RECIPE is empty). */
    public static String blank(String key) {
        return "-D" + key + "= was given but names no recipe: pass -Drecipe=<name>, e.g. -Drecipe=custom-html (a CI job"
                + " whose RECIPE variable is empty would otherwise test nothing and pass), or leave it out to run ccci's own"
                + " tests.";
    }

    /** {@code all} as every recipe of the recipes directory; any other list as it is; empty after a problem, said to {@code problems}. */
    static Optional<List<String>> expand(SettingsReader reader, List<String> recipes, Consumer<String> problems) {
        if (!recipes.contains(Constants.ALL_RECIPES)) {
            return Optional.of(recipes);
        }
        if (recipes.size() > 1) {
            problems.accept("'" + Constants.ALL_RECIPES + "' already selects every recipe: pass -Drecipe="
                    + Constants.ALL_RECIPES + " alone, or list the recipes you want (a,b,c).");
            return Optional.empty();
        }
        Path dir = reader.recipesDirectory();
        if (!Files.isDirectory(dir)) {
            reader.read(Constants.ALL_RECIPES);
            reader.problems().forEach(problems);
            return Optional.empty();
        }
        List<String> all = new RecipeCatalog(dir).names();
        if (all.isEmpty()) {
            problems.accept("-Drecipe=" + Constants.ALL_RECIPES + " found no recipe folders in " + dir + ": point -D"
                    + Constants.RECIPES + " at the directory holding them.");
            return Optional.empty();
        }
        return Optional.of(all);
    }

    /** The run settings of {@code recipe} if they read and its folder is in the catalog; else empty, each problem said. */
    static Optional<RunSettings> settings(SettingsReader reader, String recipe, Consumer<String> problems) {
        Optional<RunSettings> read = reader.read(recipe);
        if (read.isEmpty()) {
            reader.problems().forEach(problems);
            return Optional.empty();
        }
        RecipeCatalog catalog = new RecipeCatalog(read.get().paths().recipesDir());
        if (!catalog.contains(recipe)) {
            problems.accept(catalog.notFound(recipe));
            return Optional.empty();
        }
        return read;
    }

    /**
     * Every problem discovery reports for the selection before it reads a recipe's own files (its
     * ci keys and dependencies, which only discovery judges), each once, in order; empty when the
     * selection may run, or names no recipe.
     */
    static List<String> problems(SettingsReader reader, ConfigurationParameters config) {
        Optional<String> blank = reader.blankRecipeKey();
        if (blank.isPresent()) {
            return List.of(blank(blank.get()));
        }
        List<String> recipes = reader.recipes();
        Set<String> problems = new LinkedHashSet<>();
        if (!recipes.isEmpty()) {
            // as discovery: a key ccci does not know, before any recipe is judged
            problems.addAll(ConfigurationKeys.known().problems(config));
            List<String> attempts = new ArrayList<>();
            reader.checkAttempts(attempts); // as discovery: how a failed check is tried again
            problems.addAll(attempts);
        }
        Optional<List<String>> names = recipes.isEmpty() ? Optional.of(List.of()) : expand(reader, recipes, problems::add);
        int runs = 0;
        for (String recipe : names.orElse(List.of())) {
            runs += settings(reader, recipe, problems::add).isPresent() ? 1 : 0;
        }
        // as discovery: the parallel settings are judged when more than one run was found
        if (runs > 1) {
            ParallelExecution.problem(config).ifPresent(problems::add);
        }
        return new ArrayList<>(problems);
    }
}
