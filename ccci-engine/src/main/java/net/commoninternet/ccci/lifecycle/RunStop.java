package net.commoninternet.ccci.lifecycle;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Why a run was stopped, once it was: a signal, its hard deadline, a JVM shutdown, or a stop of its
 * own (its app-domain lease no longer confirmed). The lifecycle knows; the engine asks before each
 * tier and each check, and starts none once the run was stopped: a cancelled run goes to its
 * teardown instead of redeploying, backing up or restoring an app nobody waits for. What was
 * running when the stop came is the lifecycle's to interrupt. May be asked from the run's thread
 * while the stop comes from another.
 */
@FunctionalInterface
@API(status = API.Status.INTERNAL)
public interface RunStop {

    /** A run that is never stopped this way (its lifecycle stops nothing). */
    RunStop NEVER = Optional::empty;

    /** Empty while the run goes on; then the sentence that says what stopped it. */
    Optional<String> reason();
}
