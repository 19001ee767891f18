/**
 * The recipe as ccci reads it, never runs it: fetched into the run's own tree at the ref under test
 * ({@code RecipeFetch}, {@code RecipeTree}, the bundled {@code versions/} trees by
 * {@code VersionImport}), its releases ({@code RecipeVersion}) and how the run upgrades
 * ({@code UpgradePlan}, {@code Checkout}), its compose files and labels ({@code ComposeFiles},
 * {@code RecipeLabels}), {@code .env.sample} and {@code abra.sh} as abra reads them ({@code EnvFile},
 * {@code AbraSh}), and the run's app made of it ({@code App}, named by {@code AppNaming}).
 *
 * <p>Depends on {@code children} (and {@code lifecycle} for the host's variable names); the policy,
 * the workspace and everything above depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.recipe;

import org.apiguardian.api.API;
