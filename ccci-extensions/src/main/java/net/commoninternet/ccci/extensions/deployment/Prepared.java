package net.commoninternet.ccci.extensions.deployment;

import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import org.apiguardian.api.API;

/**
 * What the run has made before it takes the app lock: its workspace, the checkout under test
 * (with its domain and upgrade plan) and the set-up that will run between creating the app and
 * deploying it, for the recipe's validated keys and the tiers the run executes.
 */
@API(status = API.Status.INTERNAL)
public record Prepared(CiKeys keys, Set<Tier> tiers, RunWorkspace workspace, Checkout checkout, RecipeSetup setup) {
}
