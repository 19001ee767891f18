/**
 * The nodes of the tree and how each executes: the plan
 * ({@link net.commoninternet.ccci.engine.descriptor.CcciEngineDescriptor}, whose children are runs),
 * one recipe run ({@code RecipeRunDescriptor}: its whole life is the lifecycle's), a tier (its
 * operation once) and a check (one test); a JUnit result as a row of the run's record ({@code Outcomes}).
 *
 * <p>Depends on {@code execution} and {@code extension}; {@code discovery}, {@code parallel} and the
 * engine's root depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.descriptor;

import org.apiguardian.api.API;
