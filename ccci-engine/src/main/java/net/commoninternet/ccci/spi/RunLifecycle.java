package net.commoninternet.ccci.spi;

/**
 * The whole life of one recipe CI run, provided by exactly one implementation found through
 * {@link java.util.ServiceLoader}. The implementation sets the run up, calls
 * {@link Tiers#run()} once when the app is live, and tears it down in a {@code finally}; the
 * engine only reports.
 */
public interface RunLifecycle {

    void run(RunContext run, Tiers tiers) throws Exception;

    /** Executes the run's selected tiers through the engine, which reports each one. */
    @FunctionalInterface
    interface Tiers {
        void run() throws Exception;
    }
}
