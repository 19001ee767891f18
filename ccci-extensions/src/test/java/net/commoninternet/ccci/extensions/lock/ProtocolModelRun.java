package net.commoninternet.ccci.extensions.lock;

import java.util.List;
import net.commoninternet.ccci.extensions.lock.ModelHost.Role;

/**
 * The deeper model check, on demand ({@code scripts/bench model [DEPTH] [FAULTS]}): three hosts (two
 * runs of the domain and a janitor) with a fault budget, to a depth; then every seeded bug on two
 * hosts. Prints what each exploration covered and how long it took; exits 1 on a violation of the
 * protocol as built, or on a seeded bug not found.
 */
public final class ProtocolModelRun {

    private ProtocolModelRun() {
    }

    public static void main(String[] args) {
        int depth = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int faults = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        boolean clean = true;
        for (List<Role> roles : ProtocolModelTest.TWO_HOSTS) {
            clean &= report(roles + ", " + faults + " fault(s)",
                    ProtocolExplorer.explore(ProtocolModelTest.model(roles, faults, LeaseRules.PROTOCOL, false), 100_000));
        }
        clean &= report(ProtocolModelTest.THREE_HOSTS + ", " + faults + " fault(s)", ProtocolExplorer.explore(
                ProtocolModelTest.model(ProtocolModelTest.THREE_HOSTS, faults, LeaseRules.PROTOCOL, false), depth));
        for (SeededBug bug : SeededBug.values()) {
            List<Role> roles = bug == SeededBug.REAP_WITHOUT_LEASE ? ProtocolModelTest.TWO_HOSTS.get(1)
                    : ProtocolModelTest.TWO_HOSTS.get(0);
            ProtocolExplorer.Result found = ProtocolExplorer.explore(ProtocolModelTest.model(roles, 1, bug.rules(),
                    bug.readsStamps()), 100_000);
            System.out.println("seeded bug, " + bug.what() + ": " + found.summary());
            found.violation().ifPresent(v -> System.out.println(v.print()));
            clean &= found.violation().isPresent();
        }
        System.exit(clean ? 0 : 1);
    }

    private static boolean report(String what, ProtocolExplorer.Result result) {
        System.out.println("the protocol, " + what + ": " + result.summary());
        result.violation().ifPresent(v -> System.out.println(v.print()));
        return result.violation().isEmpty();
    }
}
