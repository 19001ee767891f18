/**
 * What a run does to its app, whoever does it: {@code AppDriver} (new app, deploy, upgrade,
 * backup, restore, lint, remove), the {@code DriverProvider} of each kind (an SPI {@code Driver},
 * found through ServiceLoader by {@code Drivers}), and {@code CountedDeploys} (every deploy counted,
 * every compose judged by the deploy policy first).
 *
 * <p>Depends on {@code spi}, {@code docker}, {@code policy}, {@code recipe} and {@code workspace}; {@code run}, {@code deployment}
 * and the two drivers depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.driver;

import org.apiguardian.api.API;
