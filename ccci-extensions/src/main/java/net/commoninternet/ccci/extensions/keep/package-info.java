/**
 * The app kept for a while after a failed run ({@code ccci.keep-on-failure}): the run's hand-over of its
 * app lock to a keeper process ({@code KeepOnFailure}), the keeper itself, a process of its own with its
 * own lifetime guards ({@code Keeper}), the files it runs from, copied out of the checkout
 * ({@code KeeperFiles}), and the client of its masked shell and its end ({@code KeepShell}).
 *
 * <p>Depends on {@code lock}, {@code guards}, {@code docker}, {@code swarm}, {@code secrets} and
 * {@code recipe}; only {@code run} depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.keep;

import org.apiguardian.api.API;
