/**
 * Reaching the live app as its users and its operator would: real HTTP from the one probe
 * container on the {@code proxy} network ({@code HttpProbe}, {@code ProbeContainer}), the recipe's
 * own probes ({@code AppProbes}), {@code sh -c} in a service's container ({@code ContainerExec}, a
 * shell attached once: {@code AttachedShell}), and the secret values the app really mounts
 * ({@code MountedSecrets}).
 *
 * <p>Depends on {@code docker}, {@code swarm}, {@code children} and {@code waits}; the browser, the
 * backups, the drivers, the deployment and the lifecycle depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.probe;

import org.apiguardian.api.API;
