/**
 * The host's boundaries around every recipe container, checked at each run's start before anything
 * of the run exists ({@code EngineBoundary}): gVisor's runtime as the engine's default, and the
 * egress rules that keep recipe containers off the host and its networks (docs/security.md).
 *
 * <p>Depends on {@code docker} and {@code children}; only the lifecycle depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.boundary;

import org.apiguardian.api.API;
