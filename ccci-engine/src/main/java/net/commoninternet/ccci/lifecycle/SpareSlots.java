package net.commoninternet.ccci.lifecycle;

import org.apiguardian.api.API;

/**
 * The command's run slots ({@code ccci.parallel.parallelism}) that no run holds right now, as a
 * run's extra work may take them: an upgrade from another base is an app of its own, run beside
 * the run in a slot of the same bound, never beyond it. Taking never waits (a run that waited for
 * a slot while holding its own could wait for runs that wait for it); what is taken is released.
 */
@API(status = API.Status.INTERNAL)
public interface SpareSlots {

    /** None at all: the run's extra work shares its own slot. */
    SpareSlots NONE = new SpareSlots() {
        @Override
        public int takeUpTo(int wanted) {
            return 0;
        }

        @Override
        public void release(int taken) {
        }
    };

    /** Up to {@code wanted} free slots, taken now without waiting: how many were taken. */
    int takeUpTo(int wanted);

    /** Gives back {@code taken} slots {@link #takeUpTo} took. */
    void release(int taken);
}
