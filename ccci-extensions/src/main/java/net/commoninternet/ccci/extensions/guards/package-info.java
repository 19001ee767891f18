/**
 * What bounds a run's life (spec section 2): the guards of one command in this JVM, shared by its
 * runs ({@code GuardedCommand}: the SIGTERM funnel, the shutdown hook, the hard deadline), one run's
 * guards on the thread that runs it ({@code LifetimeGuards}), and the parent-death signal
 * ({@code ParentDeathSignal}).
 *
 * <p>Depends on {@code children} (a stop kills the run's children); only the lifecycle depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.guards;

import org.apiguardian.api.API;
