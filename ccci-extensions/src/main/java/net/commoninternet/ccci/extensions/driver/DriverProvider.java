package net.commoninternet.ccci.extensions.driver;

import java.util.List;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.spi.DriverKind;
import org.apiguardian.api.API;

/**
 * One kind of {@link AppDriver}, found through {@link java.util.ServiceLoader} ({@link Drivers}):
 * the lifecycle makes the run's driver from it, and the LINT tier asks it for its rules at
 * discovery. Drivers never reach into each other; what they share is in this package and below.
 */
@API(status = API.Status.INTERNAL)
public interface DriverProvider {

    DriverKind kind();

    /** The LINT tier's checks under this driver, one per lint rule: fixed at discovery. */
    List<String> lintChecks();

    /**
     * Checked before a run creates anything: a driver that cannot work here (its CLI missing)
     * stops the run with one sentence naming the fix.
     */
    default void requireAvailable() {
    }

    /** The driver of one run, working in the run's workspace. */
    AppDriver create(DockerEngine docker, RunWorkspace workspace);
}
