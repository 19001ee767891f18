/**
 * The embedded driver ({@code ccci.driver=swarm}, the default): {@code SwarmDriver} (the docker CLI
 * for compose, docker-java for the rest), generated secrets ({@code SecretHints}), backups by
 * {@code BackupBot} in a restic container ({@code ResticContainer}), the embedded lint
 * ({@code RecipeLint}).
 *
 * <p>Depends on {@code driver} and the mechanisms below; found through ServiceLoader, so nothing
 * depends on it (and it never on the abra driver).
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.driver.swarm;

import org.apiguardian.api.API;
