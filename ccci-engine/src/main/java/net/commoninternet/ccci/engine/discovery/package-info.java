/**
 * Discovery: what a command selects ({@link net.commoninternet.ccci.engine.discovery.RecipeSelection}:
 * one recipe, several or {@code all}; a unique id from an IDE), resolved into the tree by
 * {@link net.commoninternet.ccci.engine.discovery.RecipeSelectorResolver}; a customization's keys
 * validated ({@code CiKeysParser}); every user mistake one {@code DiscoveryIssue} naming the fix. The
 * same judgement runs in Maven's own JVM before Surefire's fork
 * ({@link net.commoninternet.ccci.engine.discovery.SelectionCheck}).
 *
 * <p>Depends on {@code config}, {@code descriptor}, {@code parallel}, {@code execution},
 * {@code extension}; only the engine's root depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.discovery;

import org.apiguardian.api.API;
