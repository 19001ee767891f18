/**
 * The JUnit Platform engine: discovery ({@code RecipeSelectorResolver}, every user mistake a
 * {@code DiscoveryIssue}), the settings read once from {@code ConfigurationParameters}
 * ({@link net.commoninternet.ccci.engine.Constants}, {@code SettingsReader}: the one place ccci reads
 * its configuration and its process's environment), the descriptors of the tree
 * {@code [engine:ccci]/[recipe]/[tier]/[check]}, the one registry of run extensions and how each is
 * called ({@code ExtensionRegistry}, {@code EngineRunSteps}), the contexts' implementations, report
 * attachments and redaction. Almost all package-private; public are the engine
 * ({@link net.commoninternet.ccci.engine.CcciTestEngine}) and its keys, what a build configures,
 * and two types marked internal.
 *
 * <p>Depends on {@code api}, {@code spi} and {@code lifecycle}; nothing of ccci depends on it (a
 * mechanism's own test may use {@link net.commoninternet.ccci.engine.StandaloneRun}).
 */
@API(status = API.Status.EXPERIMENTAL)
package net.commoninternet.ccci.engine;

import org.apiguardian.api.API;
