/**
 * The engine's configuration: every key, documented once
 * ({@link net.commoninternet.ccci.engine.config.Constants}, what a build configures), and the one
 * place ccci reads its configuration and its process's environment
 * ({@link net.commoninternet.ccci.engine.config.SettingsReader}, from JUnit's
 * {@code ConfigurationParameters} with the host's environment variables as fallbacks, into the
 * lifecycle's immutable {@code RunSettings}, and how a failed check is tried again, {@code CheckAttempts});
 * the host's deploy-allowance file; "did you mean".
 *
 * <p>Depends on {@code api}, {@code spi} and {@code lifecycle}; the engine's other packages depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.engine.config;

import org.apiguardian.api.API;
