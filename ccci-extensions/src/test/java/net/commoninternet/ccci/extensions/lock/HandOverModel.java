package net.commoninternet.ccci.extensions.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The hand-over of a failed run's app to its keeper ({@code keep} package) as a transition system,
 * explored breadth first over every schedule: the run R, its keeper K, a janitor J of another run
 * beside them, a new run N of the same domain, and the environment (a SIGTERM to the command, a
 * SIGKILL of the keeper or of the run, the keep's deadline). The flock is modelled as the kernel has it:
 * a lock belongs to an open file description, which lives while any live process holds a descriptor
 * on it; it is free when no live process holds the locked description.
 *
 * <p>Invariants:
 * <ul>
 *   <li><b>a live owner is never reaped or overrun</b>: J reaps, and N takes the lock, only while no
 *       live process owns the app (R before it handed over or finished its own teardown; K keeping
 *       or tearing down);
 *   <li><b>a cancel ends the keep</b>: once the command was stopped while R lived, no keep is going
 *       on after R has exited;
 *   <li><b>nothing left</b>: in a state where nothing can move any more, the app is gone.
 * </ul>
 * The model leaves the lease out (one host: the lease follows the flock, taken over at once by the
 * keeper of the same flock scope, and is the {@link ProtocolModel}'s business across hosts).
 */
final class HandOverModel implements Explorable<HandOverModel.State> {

    /** The hand-over as built, or a seeded bug. */
    enum Variant {
        /** The keeper inherits the run's locked descriptor; the commit is the command's stop registry. */
        AS_BUILT,
        /** The run unlocks at the commit and the keeper locks the path anew (a new open file description). */
        UNLOCK_THEN_RELOCK,
        /** The commit ignores a stop of the command that came first (registers nothing, keeps anyway). */
        COMMIT_IGNORES_STOP
    }

    enum Run { SPAWNED, HOLDING_SEEN, COMMITTED, KEEP_SENT, HANDED_OVER, TEARING_DOWN, EXITED }

    enum Keeper { NONE, STARTED, HOLDING, KEEPING, TEARING_DOWN, EXITED }

    /** One state; {@link #key} is all of it. */
    static final class State implements Cloneable {
        Run run = Run.SPAWNED;
        Keeper keeper = Keeper.STARTED;
        boolean app = true;
        /** The run's locked description (1), and whether each process holds a descriptor on it. */
        boolean runFd = true;
        boolean keeperFd = true;
        boolean desc1Locked = true;
        /** A second description, locked by the keeper (only the unlock-then-relock bug makes one). */
        boolean keeperDesc2Locked;
        boolean stopped;
        boolean listening;
        boolean keptSaid;
        boolean janitorHolds;
        boolean newRunArrived;
        boolean newRunHolds;
        boolean newRunSignalled;
        int faults;
        String violation;

        String key() {
            return run + "," + keeper + "," + app + runFd + keeperFd + desc1Locked + keeperDesc2Locked + stopped + listening
                    + keptSaid + janitorHolds + newRunArrived + newRunHolds + newRunSignalled + faults;
        }

        State copy() {
            try {
                State s = (State) clone();
                s.violation = null;
                return s;
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        boolean runAlive() {
            return run != Run.EXITED;
        }

        boolean keeperAlive() {
            return keeper != Keeper.NONE && keeper != Keeper.EXITED;
        }

        /** The flock is held by a live process: the run's description while a live process holds it, or the keeper's own. */
        boolean lockHeld() {
            boolean desc1Live = (runFd && runAlive()) || (keeperFd && keeperAlive());
            return (desc1Locked && desc1Live) || (keeperDesc2Locked && keeperAlive()) || janitorHolds || newRunHolds;
        }

        /** Who owns the app now: the run until its hand-over or its own teardown is done, the keeper while it keeps. */
        boolean liveOwner() {
            boolean runOwns = runAlive() && run != Run.HANDED_OVER;
            boolean keeperOwns = keeperAlive() && (keeper == Keeper.KEEPING || keeper == Keeper.TEARING_DOWN);
            return runOwns || keeperOwns;
        }
    }


    private final Variant variant;
    private final int maxFaults;

    HandOverModel(Variant variant, int maxFaults) {
        this.variant = variant;
        this.maxFaults = maxFaults;
    }

    @Override
    public State initial() {
        return new State();
    }

    @Override
    public String key(State state) {
        return state.key();
    }

    @Override
    public String violation(State state) {
        return state.violation;
    }

    /** Nothing can move any more: every process has ended and no janitor finds anything to reap, so the app must be gone. */
    @Override
    public String atRest(State state) {
        return state.app ? "nothing can move and the app is still there" : null;
    }

    @Override
    public String traceHeader() {
        return String.format("%-62s %-13s %-13s %s", "step", "run", "keeper", "app / lock / stopped");
    }

    @Override
    public String traceLine(State s, String label) {
        return String.format("%-62s %-13s %-13s %s / %s / %s", label, s.run, s.keeper, s.app ? "there" : "gone",
                s.lockHeld() ? "held" : "free", s.stopped);
    }

    @Override
    public List<Move<State>> moves(State s) {
        List<Move<State>> out = new ArrayList<>();
        runSteps(s, out);
        keeperSteps(s, out);
        // the environment
        if (s.runAlive() && !s.stopped) {
            step(s, out, "SIGTERM to the command", n -> {
                n.stopped = true;
                if (n.listening) {
                    sigterm(n); // the command's stop registry: the keep ends too
                }
            });
        }
        if (s.faults < maxFaults && s.keeperAlive()) {
            step(s, out, "SIGKILL of the keeper", n -> {
                n.keeper = Keeper.EXITED;
                n.faults++;
            });
        }
        if (s.faults < maxFaults && s.runAlive()) {
            step(s, out, "SIGKILL of the run", n -> {
                n.run = Run.EXITED;
                n.faults++;
            });
        }
        // a janitor beside: probe, reap under the probe lock if free, release
        if (!s.lockHeld() && s.app) {
            step(s, out, "janitor reaps", n -> {
                if (n.liveOwner()) {
                    n.violation = "the janitor reaped an app a live process owns (run " + n.run + ", keeper " + n.keeper + ")";
                }
                n.app = false;
            });
        }
        // a new run of the same domain: arrives, ends a keep it finds, takes the lock when free, removes what is left
        if (!s.newRunArrived) {
            step(s, out, "a new run of the domain arrives", n -> n.newRunArrived = true);
        } else if (!s.newRunHolds && s.newRunArrived) {
            if (!s.newRunSignalled && s.keeperAlive() && s.keeper == Keeper.KEEPING) {
                step(s, out, "the new run signals the keeper", n -> {
                    n.newRunSignalled = true;
                    sigterm(n);
                });
            }
            if (!s.lockHeld()) {
                step(s, out, "the new run takes the lock", n -> {
                    if (n.liveOwner()) {
                        n.violation = "a new run took the lock of an app a live process owns (run " + n.run + ", keeper "
                                + n.keeper + ")";
                    }
                    n.newRunHolds = true;
                    n.app = false; // it reaps what a dead owner left, then its own run (outside the model)
                });
            }
        }
        return out;
    }

    private static void sigterm(State n) {
        if (n.keeper == Keeper.KEEPING) {
            n.keeper = Keeper.TEARING_DOWN;
        } else if (n.keeper == Keeper.STARTED || n.keeper == Keeper.HOLDING) {
            n.keeper = Keeper.EXITED; // no handler yet: the default ends it, touching nothing
        }
    }

    private void runSteps(State s, List<Move<State>> out) {
        switch (s.run) {
            case SPAWNED -> {
                if (s.keeper == Keeper.HOLDING) {
                    step(s, out, "run reads holding", n -> n.run = Run.HOLDING_SEEN);
                } else if (!s.keeperAlive()) {
                    step(s, out, "run sees the keeper gone; tears down itself", n -> n.run = Run.TEARING_DOWN);
                }
            }
            case HOLDING_SEEN -> step(s, out, "run commits", n -> {
                boolean registered = !n.stopped;
                if (registered || variant == Variant.COMMIT_IGNORES_STOP) {
                    n.listening = registered;
                    n.run = Run.COMMITTED;
                    if (variant == Variant.UNLOCK_THEN_RELOCK) {
                        n.desc1Locked = false; // LOCK_UN: the keeper locks the path anew
                    }
                } else {
                    n.keeper = n.keeperAlive() ? Keeper.EXITED : n.keeper; // killed and reaped
                    n.run = Run.TEARING_DOWN;
                }
            });
            case COMMITTED -> step(s, out, "run sends keep", n -> n.run = Run.KEEP_SENT);
            case KEEP_SENT -> {
                if (s.keptSaid) {
                    step(s, out, "run reads kept; closes its descriptor; exits", n -> {
                        n.run = Run.HANDED_OVER;
                        n.runFd = false;
                    });
                } else if (!s.keeperAlive()) {
                    step(s, out, "run sees the keeper gone before kept; tears down itself", n -> n.run = Run.TEARING_DOWN);
                }
            }
            case HANDED_OVER -> step(s, out, "the run's JVM exits (its command closed)", n -> {
                n.run = Run.EXITED;
                n.listening = false;
            });
            case TEARING_DOWN -> step(s, out, "run's teardown done; exits", n -> {
                n.app = false;
                n.run = Run.EXITED;
            });
            default -> {
            }
        }
    }

    private void keeperSteps(State s, List<Move<State>> out) {
        switch (s.keeper) {
            case STARTED -> step(s, out, "keeper checks its inherited lock; says holding", n -> n.keeper = Keeper.HOLDING);
            case HOLDING -> {
                if (s.run == Run.KEEP_SENT) {
                    if (variant == Variant.UNLOCK_THEN_RELOCK) {
                        if (!s.lockHeld()) {
                            step(s, out, "keeper locks the path anew; keeps", n -> {
                                n.keeperFd = false;
                                n.keeperDesc2Locked = true;
                                n.keeper = Keeper.KEEPING;
                                n.keptSaid = true;
                            });
                        }
                    } else {
                        step(s, out, "keeper reads keep; takes the lease; says kept", n -> {
                            n.keeper = Keeper.KEEPING;
                            n.keptSaid = true;
                        });
                    }
                } else if (!s.runAlive()) {
                    step(s, out, "keeper sees the run gone before keep; exits untouched", n -> n.keeper = Keeper.EXITED);
                }
            }
            case KEEPING -> step(s, out, "the keep's deadline", n -> n.keeper = Keeper.TEARING_DOWN);
            case TEARING_DOWN -> step(s, out, "keeper's teardown done; exits (the lock goes)", n -> {
                n.app = false;
                n.keeper = Keeper.EXITED;
            });
            default -> {
            }
        }
    }

    private static void step(State s, List<Move<State>> out, String label, Consumer<State> change) {
        State n = s.copy();
        change.accept(n);
        judge(n);
        out.add(new Move<>(label, n));
    }

    private static void judge(State n) {
        if (n.violation != null) {
            return;
        }
        if (n.stopped && !n.runAlive() && n.keeperAlive() && n.keeper == Keeper.KEEPING) {
            n.violation = "the keep outlived the cancel of its command";
        }
    }
}
