package net.commoninternet.ccci.spi;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The app's backups, by the run's driver, of what its services labelled {@code backupbot.backup=true}
 * hold.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface Backups {

    /**
     * A directory or file a backup holds.
     *
     * @param service the service's compose name, as {@link net.commoninternet.ccci.api.LiveApp#exec} takes it
     * @param path the path in that service's running container
     */
    record Place(String service, String path) {
    }

    /** Whether any service of the app asks to be backed up. */
    boolean labelled();

    /** What a backup holds, service by service (by name), in the services' running containers now. */
    List<Place> places() throws InterruptedException;

    /** One backup of the app; its snapshot id. */
    String backup() throws Exception;

    /** Restores {@code snapshotId} into the live app. */
    void restore(String snapshotId) throws Exception;
}
