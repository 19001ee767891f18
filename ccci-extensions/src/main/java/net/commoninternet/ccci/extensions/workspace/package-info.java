/**
 * A run's own files and the recipe in them: the run folder, its ABRA_DIR and state files
 * ({@code RunWorkspace}, {@code RunAbraDir}, {@code RunState}), the recipe fetched at the ref
 * under test ({@code RecipeFetch}, {@code Checkout}, {@code UpgradePlan}), naming, the env file,
 * the compose as the deploy will read it, and the deploy policy that judges it
 * ({@code DeployPolicy}).
 *
 * <p>Depends on {@code lifetime} (and {@code lifecycle}: the host's trust and variable names); every
 * package of the mechanisms above depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.workspace;

import org.apiguardian.api.API;
