/**
 * What a run takes of the host while it runs, where no sum can be judged before the deploy: the disk
 * its volumes, its containers' writable layers and their logs hold, measured on this host's file
 * system ({@code DiskUsage}, over the places {@code RunFiles} finds through the engine) and watched
 * against one run's share ({@code DiskWatch}), which pauses the run's containers and stops the run
 * that crosses it.
 *
 * <p>Depends on {@code docker}, {@code swarm} (the stack's label) and {@code waits}; the lifecycle
 * ({@code run}) depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.usage;

import org.apiguardian.api.API;
