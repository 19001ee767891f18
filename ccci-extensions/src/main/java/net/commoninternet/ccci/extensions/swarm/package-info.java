/**
 * The stacks as the swarm converges and removes them: convergence by the spec's rules
 * ({@code SwarmConvergence}, woken by {@code SwarmEvents}), teardown that waits until nothing is
 * left ({@code StackTeardown}, asking the {@code DomainFence} first), the labels on what a stack
 * owns ({@code StackLabels}), a service's logs ({@code ServiceLog}), and what a deployed stack says
 * of its recipe ({@code DeployedIdentity}, {@code ConfigVersions}).
 *
 * <p>Depends on {@code docker}, {@code policy}, {@code recipe}, {@code secrets} and {@code waits};
 * the probes, the browser, the locks, the drivers, the disk watch and the lifecycle depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.swarm;

import org.apiguardian.api.API;
