package net.commoninternet.ccci.extensions.driver;

import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.spi.Driver;
import org.apiguardian.api.API;

/**
 * One kind of {@link AppDriver}: a {@link Driver} of the SPI (the engine finds it through
 * {@link java.util.ServiceLoader} under that interface, for {@code ccci.driver} and the LINT tier's
 * rules), and here, found by {@link Drivers} under this one, the maker of the run's driver. Drivers
 * never reach into each other; what they share is in this package and below.
 */
@API(status = API.Status.INTERNAL)
public interface DriverProvider extends Driver {

    /**
     * Checked before a run creates anything: a driver that cannot work here (its CLI missing)
     * stops the run with one sentence naming the fix.
     */
    default void requireAvailable() {
    }

    /** The driver of one run, working in the run's workspace, for the run whose app's stack is {@code stack}. */
    AppDriver create(DockerEngine docker, RunWorkspace workspace, String stack);
}
