package net.commoninternet.ccci.spi;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Who acts on a run's app ({@code ccci.driver}): the embedded swarm driver, or the production
 * host's abra CLI. Convergence, identity and the final teardown read the swarm either way.
 */
@API(status = API.Status.EXPERIMENTAL)
public enum DriverKind {
    /** The embedded driver: the docker CLI for compose, docker-java for the rest (the default). */
    SWARM,
    /** The production host's {@code abra} CLI. */
    ABRA;

    /** The name {@code ccci.driver} takes. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<DriverKind> fromId(String id) {
        return Arrays.stream(values()).filter(d -> d.id().equals(id.trim().toLowerCase(Locale.ROOT))).findFirst();
    }
}
