package net.commoninternet.ccci.extensions.guards;

import org.apiguardian.api.API;

/** Thrown out of a run that a signal, the deadline or a JVM shutdown stopped, or did not let start. */
@API(status = API.Status.INTERNAL)
public final class RunStopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunStopped(String message) {
        super(message);
    }

    RunStopped(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * What a stopped run reports: the stop, with what it made the run's work throw (an interrupt, a
     * killed child) as its cause; anything else as it is.
     */
    public static Throwable first(Throwable thrown) {
        if (thrown instanceof RunStopped) {
            return thrown;
        }
        for (Throwable suppressed : thrown.getSuppressed()) {
            if (suppressed instanceof RunStopped stop) {
                return new RunStopped(stop.getMessage(), thrown);
            }
        }
        return thrown;
    }
}
