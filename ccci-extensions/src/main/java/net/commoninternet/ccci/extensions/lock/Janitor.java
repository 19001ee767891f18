package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.waits.Waits;
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
 * <p>Across hosts (several runner hosts on one swarm) a free flock only says that no run of THIS
 * host owns the domain: each candidate is then judged by its app-domain lease too
 * ({@link AppDomainLease}), and reaped only while holding a fresh lease of its own on that domain,
 * so neither a new run of any host nor another host's janitor can interleave:
 * <table>
 *   <caption>the lease, once the flock probe acquired</caption>
 *   <tr><th>lease</th><th>meaning</th><th>action</th></tr>
 *   <tr><td>absent or released</td><td>no run anywhere owns the domain</td><td>take it (create), reap, release</td></tr>
 *   <tr><td>held from this host's flock scope</td><td>its run is dead (the flock, let go last, is free)</td>
 *       <td>take it over at once (compare-and-swap), reap, release</td></tr>
 *   <tr><td>held from another host, written within two heartbeats by the swarm's clock</td><td>a live run there</td>
 *       <td>leave it ({@code LIVE_ELSEWHERE})</td></tr>
 *   <tr><td>held from another host, older</td><td>perhaps dead</td><td>watch it: renewed means live; unchanged for the
 *       TTL on this host's clock means expired: take it over from that very version, reap, release</td></tr>
 *   <tr><td>the take loses (409, or "update out of sequence")</td><td>another run or janitor won</td><td>leave it</td></tr>
 *   <tr><td>unreadable (no manager answers)</td><td>unknown</td><td>never reaped without a lease ({@code LEASE_UNKNOWN})</td></tr>
 * </table>
 * Two janitors on two hosts arbitrate on the lease's create or compare-and-swap as two on one host do on
 * the flock: exactly one takes it and reaps, the other leaves.
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

    /** What the janitor did with one domain, and how the sweep's summary line counts it. */
    public enum Outcome {
        REAPED("reaped"), LIVE("live"), LIVE_LONG_HELD("live, held long"), LIVE_ELSEWHERE("live on another host"),
        STALE("stale"), UNOPENABLE("lock unopenable"), REAP_FAILED("reap failed"), LEASE_UNKNOWN("lease unknown"),
        TIDIED("tidied");

        private final String said;

        Outcome(String said) {
            this.said = said;
        }

        /** How the summary line counts it: {@code 1 reaped}. */
        public String said() {
            return said;
        }
    }

    /** Removes everything of a dead run's app (stack objects, env file); must tolerate half-gone apps. */
    @FunctionalInterface
    public interface Reaper {
        void reap(String domain) throws Exception;

        /**
         * The reap by a removal that returns what it could not remove ({@code StackTeardown.teardownApp},
         * a driver's {@code remove}): anything left fails the reap ({@code REAP_FAILED}), so the
         * lockfile stays and the next sweep retries. A teardown that removed nothing because this
         * process's lease was no longer confirmed says so in what it left.
         */
        static Reaper leavingNothing(Removal removal) {
            return domain -> {
                List<String> left = removal.remove(domain);
                if (!left.isEmpty()) {
                    throw new IllegalStateException("left " + String.join(", ", left));
                }
            };
        }
    }

    /** Removes a dead run's app; returns what is still there afterwards (empty = clean). */
    @FunctionalInterface
    public interface Removal {
        List<String> remove(String domain) throws Exception;
    }

    private final Path lockDir;
    /** The run-app namespace this janitor judges: its lock folder is that namespace's. */
    private final String domainSuffix;
    private final Duration longHeld;
    private final Reaper reaper;
    /** The swarm's app-domain leases; null for a janitor that judges by this host's flocks alone (tests that deploy nothing). */
    private final AppDomainLease leases;
    /** The swarm's "now", read once per sweep when a lease from another host is first seen. */
    private Instant swarmNow;

    /**
     * A janitor of one host in the default namespace: the flock is the only evidence (tests of the
     * flock logic, which touch no swarm).
     */
    public Janitor(Path lockDir, Duration longHeld, Reaper reaper) {
        this(lockDir, AppNaming.DEFAULT_SUFFIX, longHeld, reaper, null);
    }

    /** {@link #Janitor(Path, String, Duration, Reaper, AppDomainLease)} in the default namespace. */
    public Janitor(Path lockDir, Duration longHeld, Reaper reaper, AppDomainLease leases) {
        this(lockDir, AppNaming.DEFAULT_SUFFIX, longHeld, reaper, leases);
    }

    /**
     * A janitor of a host among several on one swarm: the flock, then the domain's lease
     * ({@code leases}), for the run apps of the namespace {@code domainSuffix} alone, whose runs
     * hold their flocks in {@code lockDir}.
     */
    public Janitor(Path lockDir, String domainSuffix, Duration longHeld, Reaper reaper, AppDomainLease leases) {
        this.lockDir = lockDir;
        this.domainSuffix = domainSuffix;
        this.longHeld = longHeld;
        this.reaper = reaper;
        this.leases = leases;
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
        Set<String> runApps = candidates.stream().filter(domain -> AppNaming.isRunApp(domain, domainSuffix))
                .collect(Collectors.toCollection(TreeSet::new));
        int found = runApps.size();
        // A lease with no app behind it (its run died before creating one, or after its teardown) is a
        // candidate too: its reap finds nothing, and taking it then releasing it removes the record.
        runApps.addAll(leasedDomains());
        List<String> tidyable = lockfileDomains().stream().filter(d -> !runApps.contains(d)).toList();
        int left = runApps.size() + tidyable.size();
        swarmNow = null;
        List<AppDomainLease.Seen> watched = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> runAgain = new ArrayList<>();
        for (String domain : runApps) {
            if (stopped(stopRequested, left)) {
                return outcomes;
            }
            Outcome outcome = probeAndReap(domain, watched);
            if (outcome != null) {
                outcomes.put(domain, outcome);
            }
            if (outcome == Outcome.REAP_FAILED) {
                failed.add(domain);
            } else if (outcome == Outcome.REAPED && !failed.isEmpty()) {
                // A reap can wait on another's: a dead run's network (the app's) goes only once the services of its
                // cold dependencies, other candidates, are gone. Each failed before a later reap is tried once more.
                runAgain.addAll(failed);
                failed.clear();
            }
            left--;
        }
        for (String domain : runAgain) {
            if (stopped(stopRequested, runAgain.size())) {
                return outcomes;
            }
            LOG.info("janitor: {} is probed again: a candidate reaped after it may have held what was left of it", domain);
            Outcome outcome = probeAndReap(domain, watched);
            if (outcome != null) {
                outcomes.put(domain, outcome);
            }
        }
        if (!watched.isEmpty()) {
            try {
                afterTheWatch(watched, stopRequested, outcomes);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopped(() -> true, watched.size() + tidyable.size());
                return outcomes;
            }
        }
        for (String domain : tidyable) {
            if (stopped(stopRequested, left)) {
                return outcomes;
            }
            tidy(domain).ifPresent(o -> outcomes.put(domain, o));
            left--;
        }
        Map<Outcome, Long> counts = outcomes.values().stream()
                .collect(Collectors.groupingBy(o -> o, () -> new EnumMap<>(Outcome.class), Collectors.counting()));
        LOG.info("== janitor: {} run app(s) found; {} ==", found, counts.isEmpty() ? "nothing to do"
                : counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().said()).collect(Collectors.joining("; ")));
        return outcomes;
    }

    private static boolean stopped(BooleanSupplier stopRequested, int left) {
        if (!stopRequested.getAsBoolean()) {
            return false;
        }
        LOG.warn("== janitor: the run is stopping — {} candidate(s) left unprobed for the next sweep ==", left);
        return true;
    }

    /** The domains with a lease record in the swarm; none if the janitor has no leases or the swarm does not answer. */
    private Set<String> leasedDomains() {
        if (leases == null) {
            return Set.of();
        }
        try {
            return new TreeSet<>(leases.leasedDomains(domainSuffix));
        } catch (IOException | RuntimeException e) {
            LOG.warn("janitor: cannot list the app leases ({}): only the apps found are probed", e.getMessage());
            return Set.of();
        }
    }

    /**
     * Probes one candidate; null when it is being watched (a lease from another host that looks
     * stale: decided after the watch, {@link #afterTheWatch}).
     */
    private Outcome probeAndReap(String domain, List<AppDomainLease.Seen> watched) {
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
            if (leases == null) {
                LOG.info("janitor: {} has no live owner (lock free): reaping", domain);
                return reapUnderProbe(probe, domain);
            }
            AppDomainLease.Seen seen;
            try {
                seen = leases.look(domain);
                AppDomainLease.Seen read = seen;
                LeaseRules.Judgement judgement = leases.rules().judge(seen, leases.provenGone(seen),
                        () -> leases.looksStale(read, swarmNow()));
                if (judgement == LeaseRules.Judgement.LIVE_ELSEWHERE) {
                    LOG.info("janitor: {} is live on another host (its lease is held by {} and renewed): left alone",
                            domain, seen.holder());
                    return Outcome.LIVE_ELSEWHERE;
                }
                if (judgement == LeaseRules.Judgement.WATCH) {
                    LOG.info("janitor: {}'s lease, held by {}, was not renewed for two heartbeats by the swarm's clock:"
                            + " watching it for {} s", domain, seen.holder(), leases.timing().ttl().toSeconds());
                    watched.add(seen);
                    return null;
                }
            } catch (UncheckedIOException e) {
                LOG.warn("janitor: cannot read the app lease of {} ({}): not reaped without one", domain, e.getCause().getMessage());
                return Outcome.LEASE_UNKNOWN;
            } catch (IOException | RuntimeException e) {
                LOG.warn("janitor: cannot read the app lease of {} ({}): not reaped without one", domain, e.getMessage());
                return Outcome.LEASE_UNKNOWN;
            }
            return takeAndReap(probe, seen, seen.absent() ? "no lease" : seen.released() ? "lease released"
                    : "lease of a run of this host that is gone: " + seen.holder());
        } catch (IOException e) {
            LOG.warn("janitor: skipping {}: {}", domain, e.getMessage());
            return Outcome.UNOPENABLE;
        }
    }

    /**
     * The leases that looked stale are watched together; each renewed one is live elsewhere, each
     * unchanged for the TTL is taken over from the very version watched (so a renewal or another
     * taker in between makes the take lose) and reaped, under this host's probe flock as always.
     */
    private void afterTheWatch(List<AppDomainLease.Seen> watched, BooleanSupplier stopRequested,
            Map<String, Outcome> outcomes) throws InterruptedException {
        List<AppDomainLease.Seen> expired = leases.expired(watched, stopRequested);
        for (AppDomainLease.Seen seen : watched) {
            if (!expired.contains(seen)) {
                LOG.info("janitor: {}'s lease was renewed (or let go) while watched: left alone", seen.domain());
                outcomes.put(seen.domain(), Outcome.LIVE_ELSEWHERE);
            }
        }
        for (AppDomainLease.Seen seen : expired) {
            if (stopRequested.getAsBoolean()) {
                return;
            }
            try (LockFile probe = LockFile.open(AppDomainLock.path(lockDir, seen.domain()))) {
                if (!probe.tryLock() || !probe.isStillAtPath()) {
                    outcomes.put(seen.domain(), Outcome.LIVE);
                    continue;
                }
                outcomes.put(seen.domain(), takeAndReap(probe, seen, "its lease, held by " + seen.holder()
                        + ", was not renewed for " + leases.timing().ttl().toSeconds() + " s"));
            } catch (IOException e) {
                outcomes.put(seen.domain(), Outcome.UNOPENABLE);
            }
        }
    }

    /** Read once per sweep; a failure to read it is the lease's being unreadable ({@code LEASE_UNKNOWN}). */
    private Instant swarmNow() {
        if (swarmNow == null) {
            try {
                swarmNow = leases.swarmNow();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return swarmNow;
    }

    /** Takes the lease from the state seen, then reaps under it (and the probe flock); another taker winning leaves the domain. */
    private Outcome takeAndReap(LockFile probe, AppDomainLease.Seen seen, String why) throws IOException {
        Optional<AppDomainLease.Held> lease;
        try {
            lease = leases.take(seen, "reap");
        } catch (IOException | RuntimeException e) {
            LOG.warn("janitor: cannot take the app lease of {} ({}): not reaped without one", seen.domain(), e.getMessage());
            return Outcome.LEASE_UNKNOWN;
        }
        if (!leases.rules().mayReap(lease.isPresent())) {
            LOG.info("janitor: {} was taken by another run or janitor meanwhile: left alone", seen.domain());
            return Outcome.LIVE_ELSEWHERE;
        }
        try {
            LOG.info("janitor: {} has no live owner (lock free): reaping, under a lease of its own ({})", seen.domain(), why);
            return reapUnderProbe(probe, seen.domain());
        } finally {
            lease.ifPresent(AppDomainLease.Held::release);
        }
    }

    /** The reap, under the probe flock (and the lease, if any); the lockfile is unlinked after a clean one. */
    private Outcome reapUnderProbe(LockFile probe, String domain) throws IOException {
        try {
            reapToTheEnd(domain);
        } catch (Exception e) {
            // Leave the lockfile: unheld, so the next janitor probes and retries the reap.
            LOG.warn("janitor: reaping {} failed, the next sweep retries: {}", domain, e.toString());
            return Outcome.REAP_FAILED;
        }
        KeepRecord.remove(lockDir, domain); // a keeper's record whose keeper died (SIGKILL) with the app kept
        probe.unlink();
        LOG.info("janitor: {} reaped", domain);
        return Outcome.REAPED;
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
        Waits.resultOf(reap);
    }

    /** A lockfile with no app behind it: unlinked if unheld, under its own probe lock. */
    private Optional<Outcome> tidy(String domain) {
        Path path = AppDomainLock.path(lockDir, domain);
        try (LockFile probe = LockFile.open(path)) {
            if (probe.tryLock() && probe.isStillAtPath()) {
                KeepRecord.remove(lockDir, domain);
                probe.unlink();
                return Optional.of(Outcome.TIDIED);
            }
            return Optional.empty();
        } catch (IOException e) {
            LOG.warn("janitor: skipping lockfile of {}: {}", domain, e.getMessage());
            return Optional.of(Outcome.UNOPENABLE);
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
                    .filter(domain -> AppNaming.isRunApp(domain, domainSuffix))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            LOG.warn("janitor: cannot list {}: {}", lockDir, e.getMessage());
            return List.of();
        }
    }
}
