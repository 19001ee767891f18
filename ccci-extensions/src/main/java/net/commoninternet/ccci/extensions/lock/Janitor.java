package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flock-probe janitor (spec section 6), run at every run start before anything is deployed.
 * For each run app it finds, it probes the app's lock without blocking; the kernel's answer is
 * the only evidence of liveness. There is no age rule and nothing is ever stolen.
 *
 * <table>
 *   <caption>decision per candidate domain</caption>
 *   <tr><th>probe</th><th>meaning</th><th>action</th></tr>
 *   <tr><td>acquired, inode is the path's</td><td>the owner died (kernel-guaranteed)</td>
 *       <td>reap WHILE HOLDING the probe lock, then unlink the lockfile, then release</td></tr>
 *   <tr><td>acquired, inode stale</td><td>another janitor reaped and unlinked it meanwhile</td>
 *       <td>skip: unlinking now could remove a newer run's file</td></tr>
 *   <tr><td>held</td><td>a live run</td>
 *       <td>leave it; flag it when the lockfile is older than twice the deadline</td></tr>
 *   <tr><td>cannot open</td><td>garbled or unopenable lockfile, missing lock dir</td>
 *       <td>skip and log; never crash</td></tr>
 * </table>
 *
 * <p>Reaping under the probe lock is what closes the janitor-vs-new-run race: a new run of that
 * domain waits in {@link AppDomainLock#acquire} until the reap is finished, so a fresh app never
 * coexists with a half-reaped one. The probe lock is held across the (slow, networked) reap by
 * design. Two racing janitors arbitrate on the same flock: one reaps, the other sees "held".
 *
 * <p>A stop during the sweep (SIGTERM to the run). Resource: one orphan's app, under its probe
 * lock. Invariant: no app is left half-reaped by a stop, and a stopping run takes no new orphan.
 * Scope: this process (the stop is the lifetime guards'), the host (the probe flock). The reap runs
 * on a thread of its own that nothing interrupts, while the sweeping thread (the run thread, which
 * a stop interrupts) waits for it: the reap ends as it would have (reaped, or failed and left for
 * the next sweep, its lockfile kept), and only then does the stop take effect. Linearization
 * point: the stop check before each probe. Races:
 * <table>
 *   <caption>a stop against the sweep</caption>
 *   <tr><th>stop arrives</th><th>outcome</th></tr>
 *   <tr><td>before a probe</td><td>that candidate and all after it are left, unprobed; the next
 *       run's janitor takes them</td></tr>
 *   <tr><td>during a reap</td><td>the reap finishes under its probe lock, its lockfile is unlinked,
 *       then the sweep stops</td></tr>
 *   <tr><td>between a reap and the unlink</td><td>the unlink happens (the probe lock is still held),
 *       then the sweep stops</td></tr>
 * </table>
 */
@API(status = API.Status.INTERNAL)
public final class Janitor {

    private static final Logger LOG = LoggerFactory.getLogger(Janitor.class);

    /** What the janitor did with one domain. */
    public enum Outcome { REAPED, LIVE, LIVE_LONG_HELD, STALE, UNOPENABLE, REAP_FAILED, TIDIED }

    /** Removes everything of a dead run's app (stack objects, env file); must tolerate half-gone apps. */
    @FunctionalInterface
    public interface Reaper {
        void reap(String domain) throws Exception;
    }

    private final Path lockDir;
    private final Duration longHeld;
    private final Reaper reaper;

    public Janitor(Path lockDir, Duration longHeld, Reaper reaper) {
        this.lockDir = lockDir;
        this.longHeld = longHeld;
        this.reaper = reaper;
    }

    /**
     * Probes every candidate that is a run app (warm and canonical apps are never probed), then
     * tidies unheld lockfiles with no app behind them. Returns the outcome per domain.
     */
    public Map<String, Outcome> sweep(Set<String> candidates) {
        return sweep(candidates, () -> false);
    }

    /**
     * {@link #sweep(Set)}, asking {@code stopRequested} before each candidate: once it says yes,
     * no further candidate is probed and the tidy sweep is skipped; what is left is the next
     * sweep's.
     */
    public Map<String, Outcome> sweep(Set<String> candidates, BooleanSupplier stopRequested) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Set<String> runApps = candidates.stream().filter(AppNaming::isRunApp)
                .collect(Collectors.toCollection(TreeSet::new));
        List<String> tidyable = lockfileDomains().stream().filter(d -> !runApps.contains(d)).toList();
        int left = runApps.size() + tidyable.size();
        for (String domain : runApps) {
            if (stopped(stopRequested, left)) {
                return outcomes;
            }
            outcomes.put(domain, probeAndReap(domain));
            left--;
        }
        for (String domain : tidyable) {
            if (stopped(stopRequested, left)) {
                return outcomes;
            }
            tidy(domain).ifPresent(o -> outcomes.put(domain, o));
            left--;
        }
        Map<Outcome, Long> counts = outcomes.values().stream()
                .collect(Collectors.groupingBy(o -> o, () -> new java.util.EnumMap<>(Outcome.class), Collectors.counting()));
        LOG.info("== janitor: {} run app(s) found; {} ==", runApps.size(), counts.isEmpty() ? "nothing to do" : counts);
        return outcomes;
    }

    private static boolean stopped(BooleanSupplier stopRequested, int left) {
        if (!stopRequested.getAsBoolean()) {
            return false;
        }
        LOG.warn("== janitor: the run is stopping — {} candidate(s) left unprobed for the next sweep ==", left);
        return true;
    }

    private Outcome probeAndReap(String domain) {
        Path path = AppDomainLock.path(lockDir, domain);
        try (LockFile probe = LockFile.open(path)) {
            if (!probe.tryLock()) {
                if (probe.ageSeconds() > longHeld.toSeconds()) {
                    LOG.warn("!! lock for {} held >{}min — possible leaked run; inspect with lslocks", domain,
                            longHeld.toMinutes());
                    return Outcome.LIVE_LONG_HELD;
                }
                LOG.info("janitor: {} is live (its lock is held): left alone", domain);
                return Outcome.LIVE;
            }
            if (!probe.isStillAtPath()) {
                LOG.info("janitor: {} was reaped by another janitor meanwhile: skipped", domain);
                return Outcome.STALE;
            }
            LOG.info("janitor: {} has no live owner (lock free): reaping", domain);
            try {
                reapToTheEnd(domain);
            } catch (Exception e) {
                // Leave the lockfile: unheld, so the next janitor probes and retries the reap.
                LOG.warn("janitor: reaping {} failed, the next sweep retries: {}", domain, e.toString());
                return Outcome.REAP_FAILED;
            }
            probe.unlink();
            LOG.info("janitor: {} reaped", domain);
            return Outcome.REAPED;
        } catch (IOException e) {
            LOG.warn("janitor: skipping {}: {}", domain, e.getMessage());
            return Outcome.UNOPENABLE;
        }
    }

    /**
     * The row of the decision table for a domain this process has just locked
     * ({@link AppDomainLock#acquire}), before it creates anything there: held means live, and the
     * holder is this run, so whatever of the domain exists now was left by a run that is dead.
     * Typically the first run of a double-!testme, killed while this one waited at the lock (this
     * run's sweep saw it live, so nobody reaped it): without this, the new app would meet the old
     * one's objects ("secret ... already exists"). Reaped here, under our own lock, as the sweep
     * reaps an orphan; a failed reap stops the run (it cannot deploy over what is left).
     *
     * @return whether anything was left and reaped
     */
    public static boolean reapLeftByDeadRun(String domain, BooleanSupplier leftBehind, Reaper reaper) throws Exception {
        if (!leftBehind.getAsBoolean()) {
            return false;
        }
        LOG.info("== app lock: {} is ours; a run of it that died left its app behind — reaping it first ==", domain);
        reapToTheEnd(domain, reaper);
        LOG.info("janitor: {} reaped", domain);
        return true;
    }

    private void reapToTheEnd(String domain) throws Exception {
        reapToTheEnd(domain, reaper);
    }

    /**
     * The reap, on a thread of its own, awaited whatever interrupts the sweeping thread (the
     * interrupt is kept for after): a stop of the run cannot cut a reap short. The reap bounds
     * itself ({@code StackTeardown}'s limit), and so this wait.
     */
    private static void reapToTheEnd(String domain, Reaper reaper) throws Exception {
        FutureTask<Void> reap = new FutureTask<>(() -> {
            reaper.reap(domain);
            return null;
        });
        Thread thread = new Thread(reap, "ccci-janitor-reap-" + domain);
        thread.setDaemon(true);
        thread.start();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    reap.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A lockfile with no app behind it: unlinked if unheld, under its own probe lock. */
    private java.util.Optional<Outcome> tidy(String domain) {
        Path path = AppDomainLock.path(lockDir, domain);
        try (LockFile probe = LockFile.open(path)) {
            if (probe.tryLock() && probe.isStillAtPath()) {
                probe.unlink();
                return java.util.Optional.of(Outcome.TIDIED);
            }
            return java.util.Optional.empty();
        } catch (IOException e) {
            LOG.warn("janitor: skipping lockfile of {}: {}", domain, e.getMessage());
            return java.util.Optional.of(Outcome.UNOPENABLE);
        }
    }

    /** Run-app domains that have a lockfile in the lock directory. */
    private List<String> lockfileDomains() {
        if (!Files.isDirectory(lockDir)) {
            LOG.warn("janitor: lock directory {} does not exist: nothing to probe there", lockDir);
            return List.of();
        }
        try (Stream<Path> entries = Files.list(lockDir)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(AppDomainLock.PREFIX) && n.endsWith(AppDomainLock.SUFFIX))
                    .map(n -> n.substring(AppDomainLock.PREFIX.length(), n.length() - AppDomainLock.SUFFIX.length()))
                    .filter(AppNaming::isRunApp)
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            LOG.warn("janitor: cannot list {}: {}", lockDir, e.getMessage());
            return List.of();
        }
    }
}
