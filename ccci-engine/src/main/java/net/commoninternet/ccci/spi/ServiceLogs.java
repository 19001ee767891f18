package net.commoninternet.ccci.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** What the app's services (and its cold dependencies') logged, every secret value the run knows masked. */
@API(status = API.Status.EXPERIMENTAL)
public interface ServiceLogs {

    /**
     * One service.
     *
     * @param dependency the cold dependency it belongs to; empty for the app's own
     * @param name its compose name
     * @param id the swarm's id of it, what {@link #read} reads
     */
    record Service(Optional<String> dependency, String name, String id) {
    }

    /** The app's services, then each cold dependency's, by name. */
    List<Service> services();

    /**
     * What {@code service}'s tasks logged in {@code (after, until]}, one line each with its time
     * and task, bounded, secrets masked.
     */
    String read(Service service, Instant after, Instant until) throws Exception;
}
