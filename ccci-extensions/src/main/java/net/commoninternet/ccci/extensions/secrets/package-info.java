/**
 * What leaves a run for a person to read: secret values never reach a log, a report or an
 * artifact, and the recipe's bytes reach them as data. The console filter of a command and its runs
 * ({@code RedactedConsole}), the masking it and every writer use ({@code SecretMasking}, with the
 * forms a secret is commonly printed in: {@code SecretForms}), and the one place that makes untrusted
 * text safe for every sink ({@code UntrustedText}: controls visible, never the start of a line).
 *
 * <p>Depends on nothing of ccci; {@code run}, {@code results} and {@code swarm} depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.secrets;

import org.apiguardian.api.API;
