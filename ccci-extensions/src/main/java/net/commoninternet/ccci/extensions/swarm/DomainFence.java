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
 */
@API(status = API.Status.INTERNAL)
public final class DomainFence {

    private static final Map<String, BooleanSupplier> GUARDS = new ConcurrentHashMap<>();

    private DomainFence() {
    }

    /** From now on {@code stack} may be changed only while {@code confirmed} says so. */
    public static void guard(String stack, BooleanSupplier confirmed) {
        GUARDS.put(stack, confirmed);
    }

    /** The guard ends with its lease (a newer guard of the same stack is left in place). */
    public static void unguard(String stack, BooleanSupplier confirmed) {
        GUARDS.remove(stack, confirmed);
    }

    public static boolean mayAct(String stack) {
        return allows(GUARDS.get(stack));
    }

    /**
     * The fence's decision: a stack is acted on only while its guard (its holder's lease confirmed)
     * says so; with no guard ({@code null}: no lease of this process covers it) it may be. The lease
     * protocol's model checker asks the same, for the hosts it simulates.
     */
    public static boolean allows(BooleanSupplier guard) {
        return guard == null || guard.getAsBoolean();
    }
}
