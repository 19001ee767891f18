/**
 * The abra driver ({@code ccci.driver=abra}, what the production host runs): every abra command
 * line and parser ({@code AbraCli}), run through the run's child processes ({@code AbraCommands}),
 * mapped onto the driver's operations ({@code AbraDriver}) and abra's lint ({@code AbraRecipeLint}).
 *
 * <p>Depends on {@code driver} and the mechanisms below; found through ServiceLoader, so nothing
 * depends on it (and it never on the swarm driver).
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.driver.abra;

import org.apiguardian.api.API;
