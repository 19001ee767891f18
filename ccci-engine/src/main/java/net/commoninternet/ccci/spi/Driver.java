package net.commoninternet.ccci.spi;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Who acts on a run's app ({@code ccci.driver}), found through {@link java.util.ServiceLoader}: the
 * engine accepts exactly the ids it finds, and a tier's checks may depend on the run's driver
 * ({@link TierPlugin#checks(Driver)}: LINT's rules are its driver's). ccci-extensions provides
 * {@code swarm} (embedded, the default) and {@code abra} (the production host's CLI).
 */
@API(status = API.Status.EXPERIMENTAL)
public interface Driver {

    /** The driver a run gets when {@code ccci.driver} is not set: the embedded one. */
    String DEFAULT = "swarm";

    /** The name {@code ccci.driver} takes: lower-case letters. */
    String id();

    /** The rules this driver's lint reports on, one LINT check each; fixed at discovery. */
    List<String> lintRules();
}
