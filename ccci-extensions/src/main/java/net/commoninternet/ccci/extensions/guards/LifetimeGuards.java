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
 * <p>A run's phase goes {@code RUNNING -> STOPPING -> TEARDOWN -> DONE}; its command owns it and
 * changes it under its monitor, and this handle only asks the command (never the other way
 * round). The first stop of the command interrupts this run's thread and kills its
 * child process trees, if it is RUNNING; its {@code finally} then enters TEARDOWN
 * ({@link #beginTeardown}), and any stop after the first is logged and ignored, so a second signal
 * cannot abort the cleanup the first one asked for. One run's end or failure never stops the
 * others.
 */
@API(status = API.Status.INTERNAL)
public final class LifetimeGuards implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LifetimeGuards.class);

    private final GuardedCommand command;
    private final GuardedCommand.Member member;

    private LifetimeGuards(GuardedCommand command, GuardedCommand.Member member) {
        this.command = command;
        this.member = member;
    }

    /** The guards of a run on its own, named after its thread, with no budget shorter than the deadline. */
    public static LifetimeGuards install(Duration deadline) {
        return install(deadline, deadline, Thread.currentThread().getName());
    }

    /** The guards of the run {@code runName}, with no budget shorter than the deadline. */
    public static LifetimeGuards install(Duration deadline, String runName) {
        return install(deadline, deadline, runName);
    }

    /**
     * Installs the guards of the run {@code runName} executing on the calling thread, in its JVM's
     * open command (or one of its own). The funnel comes first, so a SIGTERM sent the moment the
     * parent-death signal is armed is already funnelled. The run's own clock starts now: once it has
     * run for {@code budget} ({@code ccci.run-budget}) it is stopped alone, as {@link #stopAlone} does,
     * and fails naming the budget and the key.
     *
     * @throws IllegalStateException when the run is orphaned
     * @throws RunStopped when the command was already stopped: the run must not start
     */
    public static LifetimeGuards install(Duration deadline, Duration budget, String runName) {
        GuardedCommand command = GuardedCommand.forRun(deadline);
        GuardedCommand.Member member = null;
        long parent;
        try {
            member = command.join(Thread.currentThread(), runName, budget);
            parent = ParentDeathSignal.arm();
        } catch (RuntimeException refused) {
            if (member != null) {
                command.leave(member);
            }
            if (command.ownedByItsRun()) {
                command.close();
            }
            throw refused;
        }
        LOG.info("== lifetime guards armed on thread '{}': SIGTERM on death of parent pid {}, SIGTERM funnel,"
                + " {} hard deadline{} ==", Thread.currentThread().getName(), parent, GuardedCommand.describe(command.deadline()),
                budget.compareTo(command.deadline()) < 0 ? ", " + GuardedCommand.describe(budget) + " run budget" : "");
        return new LifetimeGuards(command, member);
    }

    /**
     * Stops this run only, for a reason of its own (its app-domain lease can no longer be confirmed):
     * the same as a command's stop does to it (its thread interrupted, its children killed, its
     * {@code finally} tears down), while the command's other runs go on and the process does not exit
     * for it. The run then fails with {@code why}. A run already stopping or tearing down is left to
     * finish; a later stop of the command still acts on the others.
     */
    public void stopAlone(String why) {
        command.stopAlone(member, why);
    }

    /**
     * {@code action} (a signal, never a wait) runs if the command is stopped (SIGTERM, the deadline, a
     * JVM shutdown) before it is closed, even after this run's teardown; false, and nothing registered,
     * if the command was stopped already. The keep of a failed run's app commits here: a stop that comes
     * later ends the keep too.
     */
    public boolean alsoOnStop(Runnable action) {
        return command.alsoOnStop(action);
    }

    /** The run's child processes, killed (descendants first) when the run is stopped. */
    public void killOnStop(ChildProcesses runChildren) {
        command.killOnStop(member, runChildren);
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
        return command.stopReason(member);
    }

    /**
     * Called first in the run's {@code finally}: from here on, signals are logged and ignored, and
     * no interrupt of the guards is pending.
     */
    public void beginTeardown() {
        command.beginTeardown(member);
    }

    /**
     * Ends the guarded run. A run on its own closes its command with it: after a SIGTERM or the
     * deadline that does not return, the process ends with 143 or 142.
     *
     * @throws RunStopped if a stop stopped this run, so it never reports success
     */
    @Override
    public void close() {
        GuardedCommand.Left left = command.leave(member);
        if (command.ownedByItsRun()) {
            command.close();
        }
        if (left.stoppedBy() != null) {
            throw new RunStopped("the run was stopped by " + left.stoppedBy().text() + " and torn down");
        }
        if (left.stoppedAlone() != null) {
            throw new RunStopped("the run was stopped and torn down: " + left.stoppedAlone());
        }
    }
}
