package net.commoninternet.ccci.extensions.run;

/**
 * One run's order, as the spec gives it, under the guards its caller installed: connect (nothing
 * of the run exists yet), prepare (the janitor's sweep beside the fetch), lock (the app domain,
 * before the app exists), deploy, tiers, and the teardown in {@code finally}, whatever stopped the
 * deploy or the tiers; the domain's claim goes only after the teardown is over. This class is the
 * order and nothing else: each phase is done by a {@link Phases} ({@link SwarmPhases} on a real
 * engine; a recording one in its test), so the order can be read here and tested on its own.
 *
 * @param <E> what {@link Phases#connect} gives the run: its engine and what the run acts with,
 *     closed last
 * @param <P> what {@link Phases#prepare} made: the recipe under test, its domain and set-up
 * @param <D> the deployed app the tiers run against
 */
final class RunPhases<E extends AutoCloseable, P, D> {

    /** The phases of one run; each is called at most once, in this order. */
    interface Phases<E extends AutoCloseable, P, D> {

        /**
         * The run's engine, refused in one sentence (no engine, no swarm, a host boundary missing,
         * the run id live elsewhere) before anything of the run exists on the host.
         */
        E connect() throws Exception;

        /**
         * The run's folder, ABRA_DIR and state files, then the janitor's sweep of dead runs beside
         * the fetch of the recipe at the ref under test: nothing of the app exists yet.
         */
        P prepare(E engine) throws Exception;

        /**
         * The app domain's claim (flock and lease), taken before the app exists and held until its
         * teardown is over; what a dead run of the domain left is reaped under it.
         */
        Claim lock(E engine, P prepared) throws Exception;

        /** The app (and its cold dependencies) created, set up, deployed once and converged. */
        D deploy(E engine, P prepared) throws Exception;

        /** The tiers against the live app. */
        void tiers(D deployed) throws Exception;

        /**
         * Removes whatever the run created, whatever stopped it, then writes its results: never
         * throws, and is not cut short by a stop (signals are ignored from here on).
         */
        void teardown(E engine, P prepared);

        /** The run ended without a failure: its state files go. */
        void finished(P prepared) throws Exception;

        /** What the run reports for {@code failure}: the same, or one sentence in its place. */
        default Exception explained(Exception failure) {
            return failure;
        }
    }

    /** The app domain, held: released once, after the teardown. */
    @FunctionalInterface
    interface Claim {
        void release();
    }

    private final Phases<E, P, D> phases;

    RunPhases(Phases<E, P, D> phases) {
        this.phases = phases;
    }

    void run() throws Exception {
        try (E engine = phases.connect()) {
            P prepared = phases.prepare(engine);
            Claim claim = phases.lock(engine, prepared);
            try {
                try {
                    phases.tiers(phases.deploy(engine, prepared));
                } finally {
                    phases.teardown(engine, prepared);
                }
            } finally {
                claim.release(); // after the teardown: nobody live owns the domain now
            }
            phases.finished(prepared);
        } catch (Exception e) {
            throw phases.explained(e);
        }
    }
}
