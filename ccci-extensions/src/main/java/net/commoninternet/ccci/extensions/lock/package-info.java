/**
 * Who owns an app domain, on this host and across the swarm's runner hosts: the app-domain flock
 * ({@code AppDomainLock}, {@code LockFile}), the swarm's lease ({@code AppDomainLease}, its records in
 * the swarm's own store: {@code SwarmRecords}), both at once
 * ({@code DomainClaim}), one live run per run id ({@code RunIdLock}), and the janitor that reaps
 * what dead runs left ({@code Janitor}, {@code JanitorCandidates}).
 *
 * <p>Depends on {@code docker}, {@code swarm} and {@code recipe}; only {@code run} depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.lock;

import org.apiguardian.api.API;
