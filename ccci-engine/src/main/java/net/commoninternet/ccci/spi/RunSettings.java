package net.commoninternet.ccci.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;

/**
 * Everything a run is told from outside, read once at discovery (see the engine's
 * {@code Constants} for each key). Immutable and validated: a run never re-reads the
 * environment half-way.
 *
 * @param recipe the recipe name, already checked to be a plain name
 * @param pr the pull request number, 0 for none
 * @param ref the git ref under test, or null for the recipe's checked-out HEAD
 * @param runId the run id (Drone build number, or {@code manual-<pid>})
 * @param stages the tiers selected by {@code ccci.stages}
 * @param recipesDir the directory that holds the recipe sources
 * @param driver the app driver name ({@code swarm} or {@code abra})
 * @param appLockDir where app-domain lockfiles live
 * @param runsDir where per-run folders live
 * @param abraDir the canonical abra directory (servers, catalogue)
 * @param deadline the hard deadline of the whole run
 * @param skipFetch copy the clone staged in the canonical abra directory instead of fetching
 * @param approvedRecipes recipes whose own repository's CI code ({@code install_steps.sh},
 *        {@code compose.ccci.yml}) may run; for any other recipe such files are ignored
 */
public record RunSettings(
        String recipe,
        int pr,
        String ref,
        String runId,
        Set<Tier> stages,
        Path recipesDir,
        String driver,
        Path appLockDir,
        Path runsDir,
        Path abraDir,
        Duration deadline,
        boolean skipFetch,
        Set<String> approvedRecipes) {

    public RunSettings {
        Objects.requireNonNull(recipe, "recipe");
        Objects.requireNonNull(runId, "runId");
        stages = stages.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(stages));
        approvedRecipes = Set.copyOf(approvedRecipes);
    }

    /** Whether code shipped inside this recipe's own repository may run (it is on the approved list). */
    public boolean recipeCodeApproved() {
        return approvedRecipes.contains(recipe);
    }

    /** The same settings for another recipe (a unique-id selection names its own recipe). */
    public RunSettings withRecipe(String otherRecipe) {
        return new RunSettings(otherRecipe, pr, ref, runId, stages, recipesDir, driver, appLockDir, runsDir,
                abraDir, deadline, skipFetch, approvedRecipes);
    }
}
