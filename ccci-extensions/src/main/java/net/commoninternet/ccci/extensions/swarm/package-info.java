/**
 * The swarm as ccci reads and changes it, through docker-java: the run's engine connection
 * ({@code DockerEngine}), convergence ({@code SwarmConvergence}, {@code SwarmEvents}), teardown
 * ({@code StackTeardown}), probes from the proxy network ({@code HttpProbe}, {@code ProbeContainer},
 * {@code AttachedShell}, {@code AppProbes}), exec ({@code ContainerExec}), service logs, labels, the
 * lease's records and the nodes of a swarm of several.
 *
 * <p>Depends on {@code workspace}, {@code lifetime}, {@code secrets}; the lifecycle's packages, the
 * drivers, {@code lock} and {@code results} depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.swarm;

import org.apiguardian.api.API;
