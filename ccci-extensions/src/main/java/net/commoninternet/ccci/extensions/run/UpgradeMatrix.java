package net.commoninternet.ccci.extensions.run;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.recipe.UpgradeBases;
import net.commoninternet.ccci.extensions.results.UpgradeCell;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upgrades from the bases beyond the previous release ({@code ccci.upgrade-from}), each a
 * {@link BaseUpgrade} of its own, side by side with the run's own deploy and tiers. They share the
 * run's slot and take the command's spare ones ({@link net.commoninternet.ccci.lifecycle.SpareSlots},
 * never waiting for one): one base at a time in the run's slot, one more for each spare slot taken.
 *
 * <p>Resource: each base's app domain. Invariant: a base's app is created only under its own claim
 * (flock and lease), and is removed before the run's results are written and before the run's own
 * claim goes (the run awaits the matrix in its teardown). Lock order: the run's own domain, then a
 * base's; nothing takes them the other way. A stop interrupts each base under way until its
 * teardown begins: the base being tried is torn down whole, and no further base starts.
 */
final class UpgradeMatrix {

    private static final Logger LOG = LoggerFactory.getLogger(UpgradeMatrix.class);

    /** No other base: nothing runs. */
    static final UpgradeMatrix NONE = new UpgradeMatrix(List.of());

    private final List<UpgradeBases.Base> bases;
    private final List<BaseUpgrade> upgrades = new ArrayList<>();
    private final Map<String, UpgradeCell> cells = new ConcurrentHashMap<>();
    private final List<Thread> workers = new ArrayList<>();

    private UpgradeMatrix(List<UpgradeBases.Base> bases) {
        this.bases = List.copyOf(bases);
    }

    /** The other bases' upgrades, begun on threads of the run's; none if the plan has no other base. */
    static UpgradeMatrix begin(LifecycleContext run, RunMeans means, AppDomainLease leases, SwarmPhases.Made made) {
        List<UpgradeBases.Base> others = made.prepared().checkout().upgrade().bases().others();
        if (others.isEmpty()) {
            return NONE;
        }
        UpgradeMatrix matrix = new UpgradeMatrix(others);
        Queue<BaseUpgrade> queue = new ConcurrentLinkedQueue<>();
        for (UpgradeBases.Base base : others) {
            BaseUpgrade upgrade = new BaseUpgrade(run, means, leases, made, base);
            matrix.upgrades.add(upgrade);
            queue.add(upgrade);
        }
        int tried = (int) others.stream().filter(b -> b.skip().isEmpty()).count();
        int spare = means.spare().takeUpTo(Math.max(0, tried - 1));
        LOG.info("== upgrades from {} other base(s) beside the run's own, {} at once (the run's slot and {} spare of"
                + " ccci.parallel.parallelism) ==", others.size(), 1 + spare, spare);
        for (int i = 0; i <= spare; i++) {
            boolean ownsSlot = i > 0;
            matrix.workers.add(means.threads().start("ccci-upgrade-from-" + i, () -> {
                try {
                    for (BaseUpgrade next = queue.poll(); next != null; next = queue.poll()) {
                        UpgradeCell cell;
                        try {
                            cell = next.upgrade();
                        } catch (RuntimeException | Error e) {
                            // never a base without a verdict: the run waits for every one
                            cell = new UpgradeCell(next.release(), UpgradeCell.Status.FAIL, "the upgrade from " + next.release()
                                    + " broke: " + e, List.of(), List.of());
                            next.verdict().complete(cell);
                        }
                        matrix.cells.put(cell.base(), cell);
                    }
                } finally {
                    if (ownsSlot) {
                        means.spare().release(1);
                    }
                }
            }));
        }
        return matrix;
    }

    /** Stops every base's upgrade: the one under way tears down what it made, none not begun starts ({@link BaseUpgrade#stop}). */
    void stop() {
        upgrades.forEach(BaseUpgrade::stop);
    }

    /**
     * Every base's verdict, in the plan's order, once each is known: the bases' teardowns may still go
     * on (beside the run's own), {@link #await} waits for them. Interruptible: a stop ends the wait,
     * and the run's teardown then stops and awaits the bases.
     */
    List<UpgradeCell> verdicts() throws Exception {
        List<UpgradeCell> all = new ArrayList<>();
        for (BaseUpgrade upgrade : upgrades) {
            all.add(net.commoninternet.ccci.extensions.waits.Waits.interruptibly(upgrade.verdict()));
        }
        return all;
    }

    /**
     * Every base's cell, in the plan's order, once every worker ended (each base torn down): waits
     * through interrupts (the run's teardown must not leave a base's app behind), keeping them. A
     * base no worker reached (the run was stopped first) is a skip saying so.
     */
    List<UpgradeCell> await() {
        boolean interrupted = false;
        for (Thread worker : workers) {
            while (worker.isAlive()) {
                try {
                    worker.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        List<UpgradeCell> all = new ArrayList<>();
        for (UpgradeBases.Base base : bases) {
            all.add(cells.getOrDefault(base.release(), new UpgradeCell(base.release(), UpgradeCell.Status.SKIP,
                    base.skip().orElse("the run ended before the upgrade from " + base.release() + " was tried"), List.of(),
                    base.actions())));
        }
        return all;
    }

    /** What the bases' teardowns could not remove, once {@link #await} returned. */
    List<String> left() {
        List<String> all = new ArrayList<>();
        upgrades.forEach(u -> all.addAll(u.left()));
        return all;
    }

    /** The secret values the bases' apps had: masked in the run's results. */
    Collection<String> secretValues() {
        List<String> values = new ArrayList<>();
        upgrades.forEach(u -> values.addAll(u.secretValues()));
        return values;
    }
}
