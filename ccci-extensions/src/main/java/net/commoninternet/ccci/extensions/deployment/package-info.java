/**
 * The typed live run the lifecycle makes by its single deploy and hands the engine:
 * {@link net.commoninternet.ccci.extensions.deployment.Deployment}, the SPI's {@code LiveRun} over
 * the run's engine connection, driver, probe and exec (its parts {@code LiveProbes},
 * {@code LiveBackups}, {@code LiveVersions}, {@code LiveServiceLogs}, {@code LiveAppOnSwarm}), and
 * what the run made before it ({@code Prepared}, {@code RunTools}, {@code Dependencies}), and the
 * hooks' context ({@code RunHookContext}), and whose fault a failure of the run is, the host's or the
 * recipe's ({@code HostFaults}, which the live run answers the engine with).
 *
 * <p>Depends on the drivers' common package and the mechanisms below; only {@code run} depends on
 * it (tiers see it as the SPI's interfaces).
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.deployment;

import org.apiguardian.api.API;
