/**
 * What backup-bot-two reads of a deployed stack: the {@code backupbot.*} labels, which services and
 * paths are backed up, the hooks around a backup and a restore, and where a marker can be written
 * ({@code BackupLabels}).
 *
 * <p>Depends on {@code probe} and {@code swarm}; the swarm driver and the deployment depend on it.
 */
@API(status = API.Status.INTERNAL)
package net.commoninternet.ccci.extensions.backup;

import org.apiguardian.api.API;
