/**
 * A run's own files: its folder, its ABRA_DIR and its state files, keyed by run id and pid, never by
 * domain ({@code RunWorkspace}, {@code RunAbraDir}, {@code RunState}), and the app set up in them
 * before its deploy ({@code RecipeSetup}: EXTRA_ENV, an approved recipe's overlay and install steps).
 *
 * <p>Depends on {@code policy}, {@code recipe} and {@code children}; the drivers, the deployment and
 * the lifecycle depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.workspace;

import org.apiguardian.api.API;
