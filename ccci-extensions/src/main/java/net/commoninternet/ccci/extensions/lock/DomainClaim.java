package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A run's claim on an app domain: this host's flock ({@link AppDomainLock}), then the swarm's lease
 * ({@link AppDomainLease}), both taken before the app exists and held until the run's teardown is
 * over. Lock order: the flock first, the lease second; released in the reverse order. So while a run
 * holds a lease from this host's flock scope it holds the flock too, and a free flock proves the
 * holder of such a lease dead (what lets this host's janitors and runs take it over at once).
 */
@API(status = API.Status.INTERNAL)
public final class DomainClaim {

    private final AppDomainLock.Held flock;
    private final AppDomainLease.Held lease;

    private DomainClaim(AppDomainLock.Held flock, AppDomainLease.Held lease) {
        this.flock = flock;
        this.lease = lease;
    }

    /** Blocks until this run holds the domain on this host and across the swarm; both waits log once and are interruptible. */
    public static DomainClaim take(Path lockDir, String domain, AppDomainLease leases) throws IOException, InterruptedException {
        AppDomainLock.Held flock = AppDomainLock.acquire(lockDir, domain);
        try {
            return new DomainClaim(flock, leases.acquire(domain, "run"));
        } catch (IOException | InterruptedException | RuntimeException e) {
            flock.release();
            throw e;
        }
    }

    public String domain() {
        return lease.domain();
    }

    /** Whether the run may still act on the domain (its lease is confirmed). */
    public boolean mayAct() {
        return lease.confirmed();
    }

    /** Renews once now: whether the domain is still this run's (the teardown asks before it removes anything). */
    public boolean reconfirm() {
        return lease.reconfirm();
    }

    /** Why the lease was lost, if it was. */
    public Optional<String> lostBecause() {
        return lease.lostBecause();
    }

    /** The flock's lockfile. */
    public Path lockPath() {
        return flock.path();
    }

    /** The flock's descriptor, for a keeper to inherit (the same open file description, so the same lock). */
    public int flockDescriptor() {
        return flock.descriptor();
    }

    /**
     * The run hands the domain to a keeper that holds the same flock: this process stops renewing the
     * lease and writes nothing more to it (the keeper, holding the flock, takes it over at once), and
     * its fence on the stack goes. The flock stays held until {@link #release} closes this process's
     * descriptor (never an unlock: the keeper's descriptor keeps the lock).
     */
    public void handOverLease() {
        lease.handedOver();
    }

    /** The run is over: the lease goes, then the flock. Idempotent. */
    public void release() {
        try {
            lease.release();
        } finally {
            flock.release();
        }
    }
}
