/**
 * Secret values never reach a log, a report or an artifact: the console filter of a command and
 * its runs ({@code RedactedConsole}) and the masking it and every writer use ({@code SecretMasking}).
 *
 * <p>Depends on nothing of ccci; {@code run}, {@code results} and {@code swarm} depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.secrets;

import org.apiguardian.api.API;
