package net.commoninternet.ccci.extensions.lifetime;

import java.time.Duration;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The run's lifetime guards (spec section 2): the parent-death signal, the SIGTERM funnel and
 * the hard deadline, installed before any child process or lock, on the thread that runs the
 * run. They keep the invariant chain "lock lifetime ⊆ process lifetime ⊆ step lifetime ⊆ hard
 * deadline": whatever ends the run, its own teardown runs, and then the process ends.
 *
 * <p>One synchronized state machine decides everything: {@code RUNNING -> STOPPING(cause) ->
 * TEARDOWN -> DONE}. The first stop (SIGTERM, the deadline, or a JVM shutdown begun by someone
 * else) records its cause, interrupts the run thread and kills the run's child process trees;
 * the run thread's {@code finally} then enters TEARDOWN. Any stop after the first is logged and
 * ignored, so a second signal cannot abort the cleanup the first one asked for; there is one
 * teardown, whoever asked first. A SIGTERM that finds a teardown already under way (the run
 * ended, or failed because the group's TERM killed its child first) leaves it alone and ends the
 * process with 143 once it is done.
 *
 * <p>How the process ends: SIGTERM and the deadline call {@code System.exit(143|142)}, and a
 * shutdown hook holds the JVM until the run's teardown has finished (bounded by
 * {@link #TEARDOWN_GRACE}). The hook is what makes this hold under Maven Surefire too
 * (JVM-NOTES, "Under Maven Surefire"): there Maven exits at once on TERM and the fork is told
 * to {@code System.exit(1)}; a signal handler alone would never see its teardown finish.
 */
@API(status = API.Status.INTERNAL)
public final class LifetimeGuards implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LifetimeGuards.class);

    static final int EXIT_SIGTERM = 143;
    static final int EXIT_DEADLINE = 142;

    /**
     * How long the shutdown hook holds the JVM for the run's teardown. Above the longest
     * teardown ({@link StackTeardown}: 3 min for containers, 2 x 1 min of removal retries) and
     * below recipe-suites' {@code forkedProcessExitTimeoutInSeconds} (600), after which Surefire
     * halts the fork. The janitor reaps whatever a teardown that overruns this leaves.
     */
    static final Duration TEARDOWN_GRACE = Duration.ofSeconds(540);

    private static final Signal TERM = new Signal("TERM");

    /** The guards of the run in progress in this JVM; one run at a time. */
    private static LifetimeGuards active;

    private enum Phase { RUNNING, STOPPING, TEARDOWN, DONE }

    /** What can stop a run. */
    private enum Cause {
        SIGTERM, DEADLINE, SHUTDOWN;

        String text() {
            return this == SIGTERM ? "SIGTERM" : this == DEADLINE ? "the hard deadline"
                    : "a JVM shutdown (System.exit, SIGINT or SIGHUP, or Maven gone)";
        }
    }

    private final Thread runThread;
    private final Duration deadline;
    private final Thread shutdownHook = new Thread(this::onShutdown, "ccci-lifetime-shutdown");
    private final Thread watchdog = new Thread(this::watchDeadline, "ccci-hard-deadline");
    private SignalHandler previousTerm;
    private Phase phase = Phase.RUNNING;
    private Cause cause;
    /**
     * The status a stop decided the process ends with (0: none). The stopper calls
     * {@code System.exit} itself, but the run thread may finish its teardown and let a bare JVM
     * end normally before that call is made: {@link #close()} ends the process with it as well.
     */
    private int exitStatus;
    private ChildProcesses children;

    private LifetimeGuards(Thread runThread, Duration deadline) {
        this.runThread = runThread;
        this.deadline = deadline;
    }

    /**
     * Installs the guards for a run executing on the calling thread. The funnel comes first, so a
     * SIGTERM sent the moment the parent-death signal is armed is already funnelled.
     *
     * @throws IllegalStateException when the run is orphaned or another run is guarded here
     */
    public static LifetimeGuards install(Duration deadline) {
        LifetimeGuards guards = new LifetimeGuards(Thread.currentThread(), deadline);
        synchronized (LifetimeGuards.class) {
            if (active != null) {
                throw new IllegalStateException("a ccci run is already in progress in this JVM (on thread "
                        + active.runThread.getName() + "): run one recipe per JVM.");
            }
            active = guards;
        }
        long parent;
        try {
            guards.installTermHandler();
            Runtime.getRuntime().addShutdownHook(guards.shutdownHook);
            parent = ParentDeathSignal.arm();
        } catch (RuntimeException refused) {
            try {
                guards.close();
            } catch (RunStopped stoppedMeanwhile) {
                refused.addSuppressed(stoppedMeanwhile);
            }
            throw refused;
        }
        guards.watchdog.setDaemon(true);
        guards.watchdog.start();
        LOG.info("== lifetime guards armed on thread '{}': SIGTERM on death of parent pid {}, SIGTERM funnel,"
                + " {} hard deadline ==", guards.runThread.getName(), parent, describe(deadline));
        return guards;
    }

    /** The run's child processes, killed (descendants first) when the run is stopped. */
    public synchronized void killOnStop(ChildProcesses runChildren) {
        this.children = runChildren;
    }

    /**
     * Whether something (SIGTERM, the deadline, a JVM shutdown) has asked the run to stop. The
     * janitor asks before each orphan it would take: a stopping run starts no new reap.
     */
    public synchronized boolean stopRequested() {
        return cause != null;
    }

    /**
     * Called first in the run's {@code finally}: from here on, signals are logged and ignored.
     * Clears the interrupt a stop sent: the stop interrupts only under this lock and only while
     * RUNNING, so no interrupt of ours can reach the teardown.
     */
    public synchronized void beginTeardown() {
        if (phase == Phase.STOPPING) {
            LOG.warn("== tearing down after {}: signals from now on are logged and ignored ==", cause.text());
        }
        if (phase == Phase.RUNNING || phase == Phase.STOPPING) {
            phase = Phase.TEARDOWN;
        }
        Thread.interrupted();
    }

    /**
     * Ends the guarded run: a shutdown hook waiting on the teardown lets the JVM exit now, the
     * JVM's own SIGTERM handling comes back. After a SIGTERM or the deadline it does not return:
     * the process ends with 143 or 142.
     *
     * @throws RunStopped if a JVM shutdown begun elsewhere stopped the run, so it never reports success
     */
    @Override
    public void close() {
        Cause stoppedBy;
        int status;
        synchronized (this) {
            phase = Phase.DONE;
            stoppedBy = cause;
            status = exitStatus;
            notifyAll();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running and is about to see DONE
        }
        if (previousTerm != null) {
            Signal.handle(TERM, previousTerm);
        }
        synchronized (LifetimeGuards.class) {
            if (active == this) {
                active = null;
            }
        }
        if (status != 0) {
            LOG.warn("== the run is torn down after {}: the process exits {} ==", stoppedBy.text(), status);
            // Blocks until the halt if the stopper's own exit is already under way.
            System.exit(status);
        }
        if (stoppedBy != null) {
            throw new RunStopped("the run was stopped by " + stoppedBy.text() + " and torn down");
        }
    }

    /** Thrown out of a run that a signal, the deadline or a JVM shutdown stopped. */
    static final class RunStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RunStopped(String message) {
            super(message);
        }
    }

    private void installTermHandler() {
        SignalHandler previous;
        try {
            previous = Signal.handle(TERM, signal -> {
                if (stop(Cause.SIGTERM)) {
                    System.exit(EXIT_SIGTERM);
                }
            });
        } catch (IllegalArgumentException reservedByVm) {
            previous = SignalHandler.SIG_IGN;
        }
        if (previous == SignalHandler.SIG_IGN) {
            // The JVM installs nothing for a signal ignored at its start (a `trap '' TERM` or
            // nohup upstream, or -Xrs), and the parent-death signal is SIGTERM as well.
            LOG.error("!! SIGTERM is ignored in this process (inherited from whatever started it: trap '' TERM,"
                    + " nohup, -Xrs): neither a cancelled step nor the death of the parent can stop this run;"
                    + " only the {} hard deadline bounds it. Start it without ignoring SIGTERM. !!", describe(deadline));
        } else {
            previousTerm = previous;
        }
    }

    /**
     * The funnel. Returns whether the caller should now end the process (143 or 142).
     *
     * <p>A stop of a running run records its cause, interrupts the run thread and kills its
     * children. A SIGTERM that finds the run already in its teardown (after a normal end or a
     * failure, or because the group's TERM killed a child before this handler ran) does not touch
     * the teardown, but still ends the process with 143 once the teardown is done: the step was
     * cancelled. Any later stop is logged and ignored.
     */
    private synchronized boolean stop(Cause why) {
        if (phase == Phase.DONE) {
            return why == Cause.SIGTERM;
        }
        if (phase == Phase.RUNNING) {
            cause = why;
            exitStatus = why == Cause.SIGTERM ? EXIT_SIGTERM : why == Cause.DEADLINE ? EXIT_DEADLINE : 0;
            phase = Phase.STOPPING;
            LOG.warn(why == Cause.DEADLINE
                    ? "== run exceeded " + describe(deadline) + " hard deadline — tearing down =="
                    : "== " + why.text() + ": stopping the run — tearing down ==");
            runThread.interrupt();
            if (children != null) {
                children.killAll();
            }
            return true;
        }
        if (phase == Phase.TEARDOWN && cause == null && why == Cause.SIGTERM) {
            cause = why;
            exitStatus = EXIT_SIGTERM;
            LOG.warn("== SIGTERM during teardown — the teardown goes on, then the process exits {} ==", EXIT_SIGTERM);
            return true;
        }
        LOG.warn("== {} during teardown — ignored (the run is being torn down after {}) ==", why.text(),
                cause == null ? "its end" : cause.text());
        return false;
    }

    /** A JVM shutdown begun by anyone (System.exit, SIGINT, Surefire told to exit): wait for the teardown. */
    private void onShutdown() {
        long until = System.nanoTime() + TEARDOWN_GRACE.toNanos();
        synchronized (this) {
            if (phase == Phase.RUNNING) {
                stop(Cause.SHUTDOWN);
            }
            while (phase != Phase.DONE) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    LOG.error("!! the run's teardown did not finish within {} s of the JVM shutdown: exiting anyway;"
                            + " the janitor reaps what it left !!", TEARDOWN_GRACE.toSeconds());
                    return;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * The hard deadline. It bounds the run, not its teardown: a deadline that passes while the
     * run tears down (after a normal end or a SIGTERM) lets that teardown finish.
     */
    private void watchDeadline() {
        long until = System.nanoTime() + deadline.toNanos();
        synchronized (this) {
            while (phase == Phase.RUNNING) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (phase != Phase.RUNNING) {
                return;
            }
        }
        if (stop(Cause.DEADLINE)) {
            System.exit(EXIT_DEADLINE);
        }
    }

    /** "60-minute" for whole minutes, "2-second" otherwise (test deadlines). */
    static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds % 60 == 0 ? (seconds / 60) + "-minute" : seconds + "-second";
    }
}
