/**
 * What executes a run's nodes: the context each node sees
 * ({@link net.commoninternet.ccci.engine.execution.CcciExecutionContext}), the run as the engine holds it
 * and its views for the lifecycle, the extensions and the tiers ({@code RecipeRunContext},
 * {@code TierRunContext}, {@code RunView}, {@code RunStore}), the engine's side of each step the
 * lifecycle calls ({@code EngineRunSteps}), failures masked before they are reported
 * ({@code Redaction}), report attachments, the command's Open Test Reporting XML kept across Surefire's
 * rerun ({@code KeptReport}), the command's verdict for Maven's build result ({@code CommandVerdict}),
 * and a run outside any report for a mechanism's own test
 * ({@link net.commoninternet.ccci.engine.execution.StandaloneRun}).
 *
 * <p>Depends on {@code extension}; {@code descriptor}, {@code discovery} and the engine's root depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.execution;

import org.apiguardian.api.API;
