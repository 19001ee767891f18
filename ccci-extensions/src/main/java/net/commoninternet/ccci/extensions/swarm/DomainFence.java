package net.commoninternet.ccci.extensions.swarm;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;

/**
 * Whether this process may still change a stack's objects: while it holds the stack's app-domain
 * lease (the lock package's {@code AppDomainLease}) and that lease is confirmed. A removal that
 * goes on after its lease lapsed (the engine stopped answering mid-teardown for longer than the
 * lease lives, say) could otherwise remove the next holder's new app, on another host.
 *
 * <p>Resource: a stack's swarm objects. Invariant: none is removed by a run or janitor whose lease on
 * the domain is not confirmed. Scope: this JVM (the lease itself arbitrates across hosts).
 * Linearization point: {@link #mayAct}, asked before each removal pass of {@link StackTeardown}. A
 * stack no lease guards here (a single-host test of the teardown itself) may always be acted on.
 *
 * <p>Several runs of one JVM share it: a run that ends releases its lease (its guard goes) while
 * another run's janitor may already have taken the same domain's lease to reap what it left (its
 * guard came). A guard therefore goes only if it is still the one its lease put there: the newer
 * one stays, and the janitor's reap stays fenced by its own lease. The registry is one object per
 * JVM behind the static methods; not final, so the controlled-scheduler test can seed the bug of
 * an unconditional removal in a subclass of its own.
 */
@API(status = API.Status.INTERNAL)
public class DomainFence {

    private static final DomainFence JVM = new DomainFence();

    /** Each guarded stack's fence. */
    final Map<String, BooleanSupplier> guards = new ConcurrentHashMap<>();

    DomainFence() {
    }

    /** From now on {@code stack} may be changed only while {@code confirmed} says so. */
    public static void guard(String stack, BooleanSupplier confirmed) {
        JVM.add(stack, confirmed);
    }

    /** The guard ends with its lease (a newer guard of the same stack is left in place). */
    public static void unguard(String stack, BooleanSupplier confirmed) {
        JVM.remove(stack, confirmed);
    }

    public static boolean mayAct(String stack) {
        return JVM.allowsNow(stack);
    }

    /**
     * The fence's decision: a stack is acted on only while its guard (its holder's lease confirmed)
     * says so; with no guard ({@code null}: no lease of this process covers it) it may be. The lease
     * protocol's model checker asks the same, for the hosts it simulates.
     */
    public static boolean allows(BooleanSupplier guard) {
        return guard == null || guard.getAsBoolean();
    }

    void add(String stack, BooleanSupplier confirmed) {
        guards.put(stack, confirmed);
    }

    void remove(String stack, BooleanSupplier confirmed) {
        guards.remove(stack, confirmed);
    }

    boolean allowsNow(String stack) {
        return allows(guards.get(stack));
    }
}
