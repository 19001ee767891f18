package net.commoninternet.ccci.extensions.guards;

import java.time.Duration;
import java.util.Optional;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's lifetime guards (spec section 2), installed before any child process or lock, on the
 * thread that runs the run: the parent-death signal and the start-race check (per thread, so on
 * the run's own thread), and membership of its JVM's {@link GuardedCommand} (the SIGTERM funnel
 * and the hard deadline, shared by every run of the command). They keep the invariant chain
 * "lock lifetime ⊆ run lifetime ⊆ process lifetime ⊆ step lifetime ⊆ hard deadline": whatever
 * ends the command, this run's own teardown runs, and then the process ends.
 *
 * <p>A run's phase goes {@code RUNNING -> STOPPING -> TEARDOWN -> DONE}, always under its
 * command's monitor. The first stop of the command interrupts this run's thread and kills its
 * child process trees, if it is RUNNING; its {@code finally} then enters TEARDOWN
 * ({@link #beginTeardown}), and any stop after the first is logged and ignored, so a second signal
 * cannot abort the cleanup the first one asked for. One run's end or failure never stops the
 * others.
 */
@API(status = API.Status.INTERNAL)
public final class LifetimeGuards implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LifetimeGuards.class);

    static final int EXIT_SIGTERM = 143;
    static final int EXIT_DEADLINE = 142;

    /**
     * How long the shutdown hook holds the JVM for the runs' teardowns. Above the longest
     * teardown ({@link StackTeardown}: 3 min for containers, 2 x 1 min of removal retries) and
     * below recipe-suites' {@code forkedProcessExitTimeoutInSeconds} (600), after which Surefire
     * halts the fork. The janitor reaps whatever a teardown that overruns this leaves.
     */
    static final Duration TEARDOWN_GRACE = Duration.ofSeconds(540);

    private enum Phase { RUNNING, STOPPING, TEARDOWN, DONE }

    private final GuardedCommand command;
    private final Thread runThread;
    private final String name;
    // Guarded by command.
    private Phase phase = Phase.RUNNING;
    private GuardedCommand.Cause stoppedBy;
    /** Why this run alone was stopped ({@link #stopAlone}), if it was. */
    private String stoppedAlone;
    private ChildProcesses children;

    private LifetimeGuards(GuardedCommand command, Thread runThread, String name) {
        this.command = command;
        this.runThread = runThread;
        this.name = name;
    }

    /** The guards of a run on its own, named after its thread. */
    public static LifetimeGuards install(Duration deadline) {
        return install(deadline, Thread.currentThread().getName());
    }

    /**
     * Installs the guards of the run {@code runName} executing on the calling thread, in its JVM's
     * open command (or one of its own). The funnel comes first, so a SIGTERM sent the moment the
     * parent-death signal is armed is already funnelled.
     *
     * @throws IllegalStateException when the run is orphaned
     * @throws RunStopped when the command was already stopped: the run must not start
     */
    public static LifetimeGuards install(Duration deadline, String runName) {
        GuardedCommand command = GuardedCommand.forRun(deadline);
        LifetimeGuards guards = new LifetimeGuards(command, Thread.currentThread(), runName);
        long parent;
        try {
            command.join(guards);
            parent = ParentDeathSignal.arm();
        } catch (RuntimeException refused) {
            guards.leave();
            if (command.ownedByItsRun()) {
                command.close();
            }
            throw refused;
        }
        LOG.info("== lifetime guards armed on thread '{}': SIGTERM on death of parent pid {}, SIGTERM funnel,"
                + " {} hard deadline ==", guards.runThread.getName(), parent, describe(command.deadline()));
        return guards;
    }

    String name() {
        return name;
    }

    /** Under the command's monitor. */
    boolean running() {
        return phase == Phase.RUNNING;
    }

    /** Under the command's monitor: the command stops this RUNNING run. */
    void stop(GuardedCommand.Cause why) {
        phase = Phase.STOPPING;
        stoppedBy = why;
        runThread.interrupt();
        if (children != null) {
            children.killAll();
        }
    }

    /**
     * Stops this run only, for a reason of its own (its app-domain lease can no longer be confirmed):
     * the same as a command's stop does to it (its thread interrupted, its children killed, its
     * {@code finally} tears down), while the command's other runs go on and the process does not exit
     * for it. The run then fails with {@code why}. A run already stopping or tearing down is left to
     * finish; a later stop of the command still acts on the others.
     */
    public void stopAlone(String why) {
        synchronized (command) {
            if (phase != Phase.RUNNING) {
                LOG.warn("== {} — the run is already ending ==", why);
                return;
            }
            phase = Phase.STOPPING;
            stoppedAlone = why;
            LOG.error("!! {}: stopping the run — tearing down !!", why);
            runThread.interrupt();
            if (children != null) {
                children.killAll();
            }
        }
    }

    /** The run's child processes, killed (descendants first) when the run is stopped. */
    public void killOnStop(ChildProcesses runChildren) {
        synchronized (command) {
            this.children = runChildren;
        }
    }

    /**
     * Whether this run's command was asked to stop (SIGTERM, the deadline, a JVM shutdown): work
     * that could start something new (a janitor's next reap, say) should not.
     */
    public boolean stopRequested() {
        return command.stopRequested();
    }

    /**
     * Why this run was stopped, once it was: by its command (SIGTERM, the deadline, a JVM shutdown)
     * or on its own ({@link #stopAlone}). The engine starts no tier or check after that; the stop's
     * interrupt ends the one that was running.
     */
    public Optional<String> stopReason() {
        synchronized (command) {
            if (stoppedBy != null) {
                return Optional.of("the run was stopped by " + stoppedBy.text());
            }
            if (stoppedAlone != null) {
                return Optional.of("the run was stopped: " + stoppedAlone);
            }
        }
        // a stop that found this run not RUNNING (it cannot be while its tiers run: belt and braces)
        return command.stopRequested() ? Optional.of("the run's command was stopped") : Optional.empty();
    }

    /**
     * Called first in the run's {@code finally}: from here on, signals are logged and ignored.
     * Clears the interrupt a stop sent: a stop interrupts only under the command's monitor and only
     * while RUNNING, so no interrupt of ours can reach the teardown.
     */
    public void beginTeardown() {
        synchronized (command) {
            if (phase == Phase.STOPPING) {
                LOG.warn("== tearing down after {}: signals from now on are logged and ignored ==",
                        stoppedBy != null ? stoppedBy.text() : "its own stop");
            }
            if (phase == Phase.RUNNING || phase == Phase.STOPPING) {
                phase = Phase.TEARDOWN;
            }
            Thread.interrupted();
        }
    }

    /**
     * Ends the guarded run. A run on its own closes its command with it: after a SIGTERM or the
     * deadline that does not return, the process ends with 143 or 142.
     *
     * @throws RunStopped if a stop of the command stopped this run, so it never reports success
     */
    @Override
    public void close() {
        String alone;
        synchronized (command) {
            alone = stoppedAlone;
        }
        GuardedCommand.Cause stopped = leave();
        if (command.ownedByItsRun()) {
            command.close();
        }
        if (stopped != null) {
            throw new RunStopped("the run was stopped by " + stopped.text() + " and torn down");
        }
        if (alone != null) {
            throw new RunStopped("the run was stopped and torn down: " + alone);
        }
    }

    /** DONE, out of the command; the thread, which a pool may reuse, keeps no interrupt of ours. */
    private GuardedCommand.Cause leave() {
        GuardedCommand.Cause stopped;
        synchronized (command) {
            phase = Phase.DONE;
            stopped = stoppedBy;
            if (Thread.currentThread() == runThread) {
                Thread.interrupted();
            }
            command.leave(this);
        }
        return stopped;
    }

    /** Thrown out of a run that a signal, the deadline or a JVM shutdown stopped, or did not let start. */
    public static final class RunStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RunStopped(String message) {
            super(message);
        }

        RunStopped(String message, Throwable cause) {
            super(message, cause);
        }

        /**
         * What a stopped run reports: the stop, with what it made the run's work throw (an
         * interrupt, a killed child) as its cause; anything else as it is.
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

    /** "60-minute" for whole minutes, "2-second" otherwise (test deadlines). */
    static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds % 60 == 0 ? (seconds / 60) + "-minute" : seconds + "-second";
    }
}
