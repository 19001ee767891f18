/**
 * ccci's run lifecycle, the spec's order top to bottom: {@link net.commoninternet.ccci.extensions.run.RecipeCiRun}
 * (the engine's {@code RunLifecycle}: the plan, each run's guard, the warm-up),
 * {@code RecipeCommand} (what a command's runs share: console, guards, progress, catalogue) and
 * {@code RunPhases} (connect, sweep, prepare, lock, deploy, tiers, teardown in {@code finally}),
 * {@code ColdDeps} (the recipe's dependencies). It tells the engine when each of the run's steps
 * is due and hands it the live run.
 *
 * <p>Depends on every package below it; nothing depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.run;

import org.apiguardian.api.API;
