/**
 * The JUnit Platform engine, {@code [engine:ccci]/[recipe]/[tier]/[check]}: its public face is
 * {@link net.commoninternet.ccci.engine.CcciTestEngine} (found through ServiceLoader) and the keys a
 * build configures ({@link net.commoninternet.ccci.engine.config.Constants}). The engine's rooms, one
 * concern each, as JUnit Jupiter splits its own:
 *
 * <ul>
 *   <li>{@code config}: every key and the one place ccci reads its configuration and environment;
 *   <li>{@code discovery}: what {@code -Drecipe} selects, every user mistake a {@code DiscoveryIssue};
 *   <li>{@code descriptor}: the nodes of the tree and how each executes;
 *   <li>{@code parallel}: several runs of one command at once, never more than the operator's bound;
 *   <li>{@code execution}: the contexts the nodes, the lifecycle and the tiers see, report attachments;
 *   <li>{@code extension}: the plug-ins found through ServiceLoader and the one registry that calls them.
 * </ul>
 *
 * <p>Depends on {@code api}, {@code spi} and {@code lifecycle}; nothing of ccci depends on it (a
 * mechanism's own test may use {@code execution.StandaloneRun}).
 */
@API(status = API.Status.EXPERIMENTAL)
package net.commoninternet.ccci.engine;

import org.apiguardian.api.API;
