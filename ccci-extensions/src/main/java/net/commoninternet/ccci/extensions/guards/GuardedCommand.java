package net.commoninternet.ccci.extensions.guards;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The guards of one command in this JVM, shared by every run it starts: the SIGTERM funnel, the
 * shutdown hook and the hard deadline, and the one owner of every run's phase. A run holds its
 * guards through a {@link LifetimeGuards}, a handle that asks this command for everything; the
 * command never calls back into it. A command of several recipes opens one before its first run
 * ({@link #open}); a run on its own opens one for itself.
 *
 * <p>Resource: the runs of this JVM and their teardowns. Invariant: whatever stops the command
 * (SIGTERM, the deadline, a JVM shutdown begun elsewhere), every live run is torn down in its own
 * {@code finally}, none is cut short by a second signal, no run starts after the stop, and the
 * process ends with 143 (142) only once every teardown is done. Sharing scope: the JVM (signals
 * and shutdown are per process). Linearization point: {@link #stop}, under this object's monitor,
 * which also guards every run's phase ({@code RUNNING -> STOPPING -> TEARDOWN -> DONE}), so a stop
 * and a run's {@code beginTeardown} or {@code close} never interleave.
 *
 * <p>How the process ends: SIGTERM and the deadline call {@code System.exit(143|142)}, and the
 * shutdown hook holds the JVM until every live run's teardown has finished and the command is
 * closed (bounded by {@link #TEARDOWN_GRACE}); closing a stopped command calls
 * {@code System.exit} with that status too, since its runs may finish before the stopper's own
 * call. The hook is what makes this hold under Maven Surefire (JVM-NOTES, "Under Maven
 * Surefire"): there Maven exits at once on TERM and the fork is told to {@code System.exit(1)}.
 */
@API(status = API.Status.INTERNAL)
public final class GuardedCommand implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GuardedCommand.class);
    private static final Signal TERM = new Signal("TERM");

    static final int EXIT_SIGTERM = 143;
    static final int EXIT_DEADLINE = 142;

    /**
     * How long the shutdown hook holds the JVM for the runs' teardowns. Above the longest
     * teardown ({@code StackTeardown}: 3 min for containers, 2 x 1 min of removal retries) and
     * below recipe-suites' {@code forkedProcessExitTimeoutInSeconds} (600), after which Surefire
     * halts the fork. The janitor reaps whatever a teardown that overruns this leaves.
     */
    static final Duration TEARDOWN_GRACE = Duration.ofSeconds(540);

    /**
     * How long the shutdown hook waits for the command's close once no run is live: all that is left
     * then is the plan's end (a catalogue, milliseconds). Bounded on its own, since a close may never
     * come (the engine's thread is the one exiting, or an error skipped the plan's end): waiting the
     * whole {@link #TEARDOWN_GRACE} for it kept a failed run's JVM, and its slot, for 9 minutes after
     * its RUN SUMMARY.
     */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(30);

    /** The command in progress in this JVM; one at a time. Guarded by the class. */
    private static GuardedCommand current;

    /** What can stop a command. */
    enum Cause {
        SIGTERM, DEADLINE, SHUTDOWN;

        String text() {
            return this == SIGTERM ? "SIGTERM" : this == DEADLINE ? "the hard deadline"
                    : "a JVM shutdown (System.exit, SIGINT or SIGHUP, or Maven gone)";
        }
    }

    private final Duration deadline;
    /**
     * When the deadline passes ({@link System#nanoTime}), fixed as the command opens: before any run
     * joins, so a run's budget as long as the deadline never ends before it (the watchdog's own start
     * may come later).
     */
    private final long deadlineEnds;
    /** Opened by a run on its own, for itself: closed with that run. */
    private final boolean ownedByItsRun;
    private final Thread shutdownHook = new Thread(this::onShutdown, "ccci-lifetime-shutdown");
    private final Thread watchdog = new Thread(this::watchDeadline, "ccci-hard-deadline");
    private SignalHandler previousTerm;

    /**
     * One run of the command: the thread that runs it and its phase, {@code RUNNING -> STOPPING ->
     * TEARDOWN -> DONE}. Every field is guarded by its command, which alone reads and changes them.
     */
    static final class Member {
        private enum Phase { RUNNING, STOPPING, TEARDOWN, DONE }

        private final Thread thread;
        private final String name;
        /** How long the run may be RUNNING (its own clock, {@code ccci.run-budget}), and when that ends ({@link System#nanoTime}). */
        private final Duration budget;
        private final long budgetEnds;
        private Phase phase = Phase.RUNNING;
        private Cause stoppedBy;
        /** Why this run alone was stopped ({@link #stopAlone}), if it was. */
        private String stoppedAlone;
        private ChildProcesses children;

        private Member(Thread thread, String name, Duration budget) {
            this.thread = thread;
            this.name = name;
            this.budget = budget;
            this.budgetEnds = System.nanoTime() + budget.toNanos();
        }

        private boolean running() {
            return phase == Phase.RUNNING;
        }

        /** RUNNING to STOPPING: its thread interrupted, its children killed. */
        private void interrupt() {
            phase = Phase.STOPPING;
            thread.interrupt();
            if (children != null) {
                children.killAll();
            }
        }
    }

    /** How a run left its command: stopped by the command, stopped alone, or neither. */
    record Left(Cause stoppedBy, String stoppedAlone) {
    }

    // Guarded by this.
    private final Set<Member> live = new LinkedHashSet<>();
    private Cause cause;
    private int exitStatus;
    private boolean deadlinePassed;
    private boolean closed;
    /** What a stop of the command must also end, beyond its runs (a keeper a run handed its app to). */
    private final List<Runnable> alsoOnStop = new ArrayList<>();

    private GuardedCommand(Duration deadline, boolean ownedByItsRun) {
        this.deadline = deadline;
        this.deadlineEnds = System.nanoTime() + deadline.toNanos();
        this.ownedByItsRun = ownedByItsRun;
    }

    /**
     * Opens the command of this JVM: from here SIGTERM, the deadline and a JVM shutdown tear down
     * every run that joins it.
     *
     * @throws IllegalStateException if a command is already open here, or the JVM is shutting down
     */
    public static GuardedCommand open(Duration deadline) {
        synchronized (GuardedCommand.class) {
            if (current != null) {
                throw new IllegalStateException("a ccci command is already in progress in this JVM: start one command"
                        + " (with all its recipes) per JVM.");
            }
            return openLocked(deadline, false);
        }
    }

    /** The open command, or (a run on its own) one opened for that run. */
    static GuardedCommand forRun(Duration deadline) {
        synchronized (GuardedCommand.class) {
            return current != null ? current : openLocked(deadline, true);
        }
    }

    private static GuardedCommand openLocked(Duration deadline, boolean ownedByItsRun) {
        GuardedCommand command = new GuardedCommand(deadline, ownedByItsRun);
        command.installTermHandler();
        try {
            Runtime.getRuntime().addShutdownHook(command.shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            command.restoreTermHandler();
            throw new IllegalStateException("the JVM is shutting down: no ccci run starts now.", shuttingDown);
        }
        current = command;
        command.watchdog.setDaemon(true);
        command.watchdog.start();
        return command;
    }

    boolean ownedByItsRun() {
        return ownedByItsRun;
    }

    Duration deadline() {
        return deadline;
    }

    /** Whether something asked this command to stop (SIGTERM, the deadline, a JVM shutdown). */
    public synchronized boolean stopRequested() {
        return cause != null;
    }

    /**
     * The run {@code name} on {@code thread} joins, RUNNING, with its own clock: once it has been
     * RUNNING for {@code budget} it is stopped alone ({@link #stopAlone}). Refused once the command was
     * stopped or its deadline passed, so nothing of that run is created.
     */
    synchronized Member join(Thread thread, String name, Duration budget) {
        if (closed) {
            throw new IllegalStateException("this ccci command has ended: no run joins it any more.");
        }
        if (cause == null && deadlinePassed) {
            stop(Cause.DEADLINE);
        }
        if (cause != null) {
            throw new RunStopped("not started: the command was stopped by " + cause.text() + " before this run began");
        }
        Member run = new Member(thread, name, budget);
        live.add(run);
        notifyAll(); // the watchdog now also watches this run's budget
        return run;
    }

    /**
     * A run is done (DONE): its teardown, if it reached one, finished. The thread, which a pool may
     * reuse, keeps no interrupt of ours.
     */
    synchronized Left leave(Member run) {
        run.phase = Member.Phase.DONE;
        if (Thread.currentThread() == run.thread) {
            Thread.interrupted();
        }
        live.remove(run);
        notifyAll();
        return new Left(run.stoppedBy, run.stoppedAlone);
    }

    /** Stops {@code run} only, for a reason of its own: see {@link LifetimeGuards#stopAlone}. */
    synchronized void stopAlone(Member run, String why) {
        if (!run.running()) {
            LOG.warn("== {} — the run is already ending ==", why);
            return;
        }
        run.stoppedAlone = why;
        // named: the line may come from the watchdog or a lease's thread, which carry no run of their own
        LOG.error("!! {}: {}: stopping the run — tearing down !!", run.name, why);
        run.interrupt();
    }

    /**
     * {@code action} (which only sends a signal, never blocks) runs once if this command is stopped
     * before it is closed; whether it was registered: false once the command was stopped or closed, so
     * of a stop and this registration exactly one comes first (the hand-over of a kept app commits here).
     */
    synchronized boolean alsoOnStop(Runnable action) {
        if (cause != null || closed) {
            return false;
        }
        alsoOnStop.add(action);
        return true;
    }

    /** {@code run}'s child processes, killed (descendants first) when it is stopped. */
    synchronized void killOnStop(Member run, ChildProcesses children) {
        run.children = children;
    }

    /** Why {@code run} was stopped, once it was: by this command or on its own. */
    synchronized Optional<String> stopReason(Member run) {
        if (run.stoppedBy != null) {
            return Optional.of("the run was stopped by " + run.stoppedBy.text());
        }
        if (run.stoppedAlone != null) {
            return Optional.of("the run was stopped: " + run.stoppedAlone);
        }
        // a stop that found this run not RUNNING (it cannot be while its tiers run: belt and braces)
        return cause != null ? Optional.of("the run's command was stopped") : Optional.empty();
    }

    /**
     * {@code run} enters its teardown: from here on, signals are logged and ignored for it. Clears
     * the interrupt a stop sent: a stop interrupts only under this monitor and only while RUNNING,
     * so no interrupt of ours can reach the teardown.
     */
    synchronized void beginTeardown(Member run) {
        if (run.phase == Member.Phase.STOPPING) {
            LOG.warn("== tearing down after {}: signals from now on are logged and ignored ==",
                    run.stoppedBy != null ? run.stoppedBy.text() : "its own stop");
        }
        if (run.phase == Member.Phase.RUNNING || run.phase == Member.Phase.STOPPING) {
            run.phase = Member.Phase.TEARDOWN;
        }
        Thread.interrupted();
    }

    /**
     * The funnel, under this monitor. Returns whether the caller should now end the process (143 or
     * 142): true for the first stop, false for any later one, which is logged and ignored.
     *
     * <p>The first stop records its cause; every RUNNING run is stopped (its thread interrupted, its
     * children killed); a run already in its teardown (it had ended, or failed because the group's
     * TERM killed its child first) is left to finish it. From then on no run may join.
     */
    synchronized boolean stop(Cause why) {
        if (cause != null) {
            LOG.warn("== {} during teardown — ignored (the run is being torn down after {}) ==", why.text(), cause.text());
            return false;
        }
        cause = why;
        exitStatus = why == Cause.SIGTERM ? EXIT_SIGTERM : why == Cause.DEADLINE ? EXIT_DEADLINE : 0;
        List<Member> running = live.stream().filter(Member::running).toList();
        if (why == Cause.DEADLINE) {
            LOG.warn(running.size() > 1
                    ? "== command exceeded " + describe(deadline) + " hard deadline — tearing down "
                            + names(running) + " =="
                    : "== run exceeded " + describe(deadline) + " hard deadline — tearing down ==");
        } else if (!running.isEmpty()) {
            LOG.warn(running.size() > 1
                    ? "== " + why.text() + ": stopping " + running.size() + " runs (" + names(running) + ") — tearing down =="
                    : "== " + why.text() + ": stopping the run — tearing down ==");
        }
        for (Member run : new ArrayList<>(live)) {
            if (run.running()) {
                run.stoppedBy = why;
                run.interrupt();
            } else if (why == Cause.SIGTERM) {
                LOG.warn("== SIGTERM during teardown{} — the teardown goes on, then the process exits {} ==",
                        live.size() > 1 ? " of " + run.name : "", EXIT_SIGTERM);
            }
        }
        for (Runnable action : alsoOnStop) {
            action.run();
        }
        alsoOnStop.clear();
        notifyAll();
        return true;
    }

    private static String names(List<Member> runs) {
        return String.join(", ", runs.stream().map(run -> run.name).sorted().toList());
    }

    /**
     * Ends the command: the shutdown hook lets the JVM exit, the JVM's own SIGTERM handling comes
     * back. After a SIGTERM or the deadline it does not return: the process ends with 143 or 142.
     */
    @Override
    public void close() {
        int status;
        synchronized (this) {
            status = exitStatus;
            if (status != 0) {
                // The evidence a stopped command finished its own teardowns (scripts/soak reads it), written
                // before the shutdown hook can see the command closed: once it returns the JVM halts.
                LOG.warn("== every run is torn down after {}: the process exits {} ==", cause == null ? "its stop"
                        : cause.text(), status);
            }
            closed = true;
            alsoOnStop.clear(); // what was handed over outlives the command from here on
            notifyAll();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running and is about to see the command closed
        }
        restoreTermHandler();
        synchronized (GuardedCommand.class) {
            if (current == this) {
                current = null;
            }
        }
        if (status != 0) {
            // Blocks until the halt if the stopper's own exit is already under way.
            System.exit(status);
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
                    + " only the {} hard deadline bounds it. Start it without ignoring SIGTERM. !!",
                    describe(deadline));
        } else {
            previousTerm = previous;
        }
    }

    private void restoreTermHandler() {
        if (previousTerm != null) {
            Signal.handle(TERM, previousTerm);
            previousTerm = null;
        }
    }

    /**
     * A JVM shutdown begun by anyone (System.exit, SIGINT, Surefire told to exit): stop what still
     * runs, then wait until every live run's teardown is done and the command closed (its catalogue
     * written), bounded.
     */
    private void onShutdown() {
        awaitTeardownsAndClose(TEARDOWN_GRACE, CLOSE_GRACE);
    }

    /**
     * Holds the caller until every live run's teardown is done (at most {@code grace}) and then the
     * command is closed (at most {@code closeGrace} after the last run left).
     */
    void awaitTeardownsAndClose(Duration grace, Duration closeGrace) {
        long until = System.nanoTime() + grace.toNanos();
        long closeBy = 0;
        boolean awaitingClose = false;
        synchronized (this) {
            if (cause == null) {
                stop(Cause.SHUTDOWN);
            }
            while (!live.isEmpty() || !closed) {
                long now = System.nanoTime();
                if (live.isEmpty() && !awaitingClose) {
                    awaitingClose = true;
                    closeBy = now + closeGrace.toNanos();
                }
                long end = awaitingClose && closeBy - until < 0 ? closeBy : until;
                if (end - now <= 0) {
                    if (live.isEmpty()) {
                        LOG.error("!! every run is torn down, but the command was not closed within {} s of the last run's"
                                + " end (its catalogue is not written): exiting !!", closeGrace.toSeconds());
                    } else {
                        LOG.error("!! the runs' teardown did not finish within {} s of the JVM shutdown: exiting anyway;"
                                + " the janitor reaps what they left !!", grace.toSeconds());
                    }
                    return;
                }
                try {
                    wait(Math.max(1, (end - now) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * The clocks: the hard deadline of the command, and each run's budget. Both bound the runs, not
     * their teardowns. At a run's budget that run alone is stopped ({@link #stopAlone}: its thread
     * interrupted, its children killed, its teardown in its {@code finally}) and the others go on; at
     * the deadline every RUNNING run is stopped and the process exits 142 once the teardowns are done;
     * runs already tearing down finish. If none is running at the deadline, no later run may start
     * (its join stops the command the same way). One thread under this monitor, woken by every join,
     * so a budget is never missed and never acts on a run that left its RUNNING phase.
     */
    private void watchDeadline() {
        long until = deadlineEnds;
        boolean exit;
        synchronized (this) {
            while (!closed && cause == null) {
                long now = System.nanoTime();
                long next = until;
                for (Member run : new ArrayList<>(live)) {
                    // a budget that ends with the deadline or after it is the deadline's to act on (exit 142)
                    if (!run.running() || run.budgetEnds - until >= 0) {
                        continue;
                    }
                    if (now - run.budgetEnds >= 0) {
                        stopAlone(run, overBudget(run.budget));
                    } else if (run.budgetEnds - next < 0) {
                        next = run.budgetEnds;
                    }
                }
                if (until - now <= 0) {
                    break;
                }
                try {
                    wait(Math.max(1, (next - now + 999_999) / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (closed || cause != null) {
                return;
            }
            if (live.stream().noneMatch(Member::running)) {
                deadlinePassed = true;
                return;
            }
            exit = stop(Cause.DEADLINE);
        }
        if (exit) {
            System.exit(EXIT_DEADLINE);
        }
    }

    /** Why a run past its budget is stopped: the budget and the host's key, in the run's failure. */
    static String overBudget(Duration budget) {
        return "it exceeded its " + describe(budget) + " budget, which this host sets with -Dccci.run-budget="
                + budget.toSeconds();
    }

    /** "60-minute" for whole minutes, "2-second" otherwise (test deadlines). */
    static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds % 60 == 0 ? (seconds / 60) + "-minute" : seconds + "-second";
    }
}
