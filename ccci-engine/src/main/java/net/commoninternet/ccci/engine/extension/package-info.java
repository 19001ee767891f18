/**
 * What the class path plugs in, found through ServiceLoader
 * ({@link net.commoninternet.ccci.engine.extension.Plugins}: the lifecycle, the tiers, the drivers, the
 * run extensions, the recipes' customizations), the one registry that calls every run extension
 * through a collector ({@code ExtensionRegistry}), and a customization's hooks and annotated checks
 * ({@code PreOperationHooks}, {@code RecipeChecks}).
 *
 * <p>Depends on {@code api}, {@code spi} and {@code lifecycle} only; the engine's other packages depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.extension;

import org.apiguardian.api.API;
