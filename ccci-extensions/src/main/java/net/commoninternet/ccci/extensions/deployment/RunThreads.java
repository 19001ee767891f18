package net.commoninternet.ccci.extensions.deployment;

import org.apiguardian.api.API;

/**
 * Threads that work for one run beside its own (a picture taken while the tier's checks run): their
 * log lines are the run's, with its recipe on the console and in its run.log, until they end.
 */
@API(status = API.Status.INTERNAL)
@FunctionalInterface
public interface RunThreads {

    /** Starts {@code work} on a daemon thread named {@code name}, whose lines are the run's until {@code work} returns. */
    Thread start(String name, Runnable work);
}
