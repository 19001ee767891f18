/**
 * The contract between the engine and ccci's own run lifecycle (ccci-extensions'
 * {@code RecipeCiRun}), internal to ccci: the {@link net.commoninternet.ccci.lifecycle.RunLifecycle}
 * found through ServiceLoader, the run as the lifecycle gets it
 * ({@link net.commoninternet.ccci.lifecycle.LifecycleContext}), the steps it tells the engine are due
 * ({@link net.commoninternet.ccci.lifecycle.RunSteps}), the plan of a command
 * ({@link net.commoninternet.ccci.lifecycle.RunPlan}), and what discovery read for a run
 * ({@link net.commoninternet.ccci.lifecycle.RunSettings}, the host's
 * {@link net.commoninternet.ccci.lifecycle.DeployAllowance}, the host's environment variable names
 * in {@link net.commoninternet.ccci.lifecycle.HostVariables}).
 *
 * <p>Depends on {@code api} and {@code spi}. The engine and the lifecycle's packages depend on it;
 * tiers and extensions never do (they see {@code spi} only).
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.lifecycle;

import org.apiguardian.api.API;
