/**
 * ccci's own tiers (INSTALL, UPGRADE, BACKUP, RESTORE, CUSTOM, LINT) and their generic checks,
 * found by the engine through ServiceLoader. Written against the SPI alone: they get a
 * {@code TierContext} and act on the app through its {@code LiveRun}; what one leaves for the
 * next is a key of the run's store ({@code TierOutputs}).
 *
 * <p>Depends on {@code api} and {@code spi} only (no cast, no import of the extensions' packages);
 * nothing depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.tiers;

import org.apiguardian.api.API;
