/**
 * What a run leaves for people and machines: {@code RunResults} (results.json, the rungs and level,
 * the RUN SUMMARY), {@code RunReport} (report.html, badge.svg), {@code Catalogue} (a command of
 * several recipes), {@code CustomizationManifest}, and the {@code TierServiceLogs} extension (the
 * services' logs of each tier, written against the SPI).
 *
 * <p>Depends on {@code api}, {@code spi}, {@code lifecycle}, {@code secrets} and {@code docker} (the
 * engine's facts); only {@code run} depends on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.results;

import org.apiguardian.api.API;
