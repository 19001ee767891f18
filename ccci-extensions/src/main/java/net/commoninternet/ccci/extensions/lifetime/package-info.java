/**
 * What bounds a run's life and its children's: the command's and the run's guards (SIGTERM
 * funnel, hard deadline, shutdown hook: {@code GuardedCommand}, {@code LifetimeGuards}), the
 * parent-death signal, and every child process ({@code ChildProcesses}: its own session, its
 * chosen environment from {@code ChildEnvironment}, capped output, killed with its group).
 *
 * <p>Depends on {@code lifecycle} for the host's variable names only; every other package of
 * ccci-extensions may depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.lifetime;

import org.apiguardian.api.API;
