package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may judge a lease by its own flock and its own pids ({@link AppDomainLease#provenGone}): only a
 * process of the same kernel boot and pid namespace, locking in the same folder (path and file key).
 * Hosts cloned from one image share /etc/machine-id, and containers of one kernel may each have a
 * {@code /run/lock} of their own: their flocks do not exclude each other, and a pid missing here
 * may live there. Engine-free: the in-memory store ({@link InMemoryRecords}).
 */
class FlockScopeTest {

    private static final String DOMAIN = "lse-3a3a3a.ci.commoninternet.net";
    private static final AppDomainLease.Timing TIMING = new AppDomainLease.Timing(Duration.ofSeconds(800), Duration.ofSeconds(200));
    private static final String NS = "pid:[4026531836]";
    private static final String KEY = "(dev=10,ino=2)";

    private final InMemoryRecords store = new InMemoryRecords();
    private final AtomicLong clock = new AtomicLong();

    private AppDomainLease lease(AppDomainLease.Holder holder) {
        return new AppDomainLease(store, holder, TIMING, why -> { }, new AppDomainLease.Judge(LeaseRules.PROTOCOL, clock::get));
    }

    /**
     * The defect: a host cloned from this one's image (its /etc/machine-id is this one's) runs a run
     * in a lock folder of the same path; its pid does not exist here. This process holds its own,
     * free, flock of the domain: that proves nothing about the clone's run, whose lease must expire.
     */
    @Test
    void aLeaseFromAHostWithThisMachineIdAndLockFolderPathIsNotProvenGoneByThisHostsFlockOrPids(@TempDir Path locks)
            throws Exception {
        Path machineIdFile = Path.of("/etc/machine-id");
        assumeTrue(Files.isReadable(machineIdFile), "this host has an /etc/machine-id");
        String machineId = Files.readString(machineIdFile).strip();
        AppDomainLease me = lease(AppDomainLease.Holder.of(locks, "r"));
        Map<String, String> clone = new HashMap<>(me.labels(DOMAIN, "t", "run", 0, AppDomainLease.HELD));
        clone.put(AppDomainLease.SCOPE, machineId + ":" + locks); // as an older ccci on the clone wrote it
        clone.put(AppDomainLease.MACHINE_LABEL, machineId);
        clone.put(AppDomainLease.PID, "999999999");
        store.create(AppDomainLease.name(DOMAIN), clone);
        AppDomainLock.Held flock = AppDomainLock.acquire(locks, DOMAIN);
        try {
            AppDomainLease.Seen seen = me.look(DOMAIN);
            assertThat(me.heldFromHere(seen)).as("held from this flock scope").isFalse();
            assertThat(me.provenGone(seen)).as("proven gone by this host's free flock or missing pid").isFalse();
        } finally {
            flock.release();
        }
    }

    @Test
    void oneFlockScopeOnlyForOneKernelBootPidNamespaceAndLockFolder() {
        String space = AppDomainLease.pidSpace("boot-a\n", NS);
        Path dir = Path.of("/run/lock");
        String scope = AppDomainLease.scope(space, dir, KEY);
        assertThat(AppDomainLease.scope(AppDomainLease.pidSpace("boot-a", NS), dir, KEY)).as("one kernel, one folder")
                .isEqualTo(scope);
        assertThat(AppDomainLease.scope(AppDomainLease.pidSpace("boot-b", NS), dir, KEY))
                .as("a clone: one machine-id, another boot").isNotEqualTo(scope);
        assertThat(AppDomainLease.scope(AppDomainLease.pidSpace("boot-a", "pid:[4026532001]"), dir, KEY))
                .as("another container's pid namespace").isNotEqualTo(scope);
        assertThat(AppDomainLease.scope(space, dir, "(dev=11,ino=2)")).as("another mount at the same path").isNotEqualTo(scope);
        assertThat(AppDomainLease.scope(space, Path.of("/var/lock"), KEY)).as("another path").isNotEqualTo(scope);

        String unknown = AppDomainLease.pidSpace(null, NS);
        assertThat(unknown).as("an unknown kernel: this very process only")
                .isEqualTo(AppDomainLease.pidSpace("boot-a", " ")).doesNotStartWith("boot")
                .contains("process " + ProcessHandle.current().pid() + " on ");
        assertThat(AppDomainLease.scope(space, dir, null)).as("an unknown folder: this very process only")
                .isNotEqualTo(scope).contains(unknown.substring(unknown.indexOf("process ")));
    }

    @Test
    void aLeaseFromAnotherBootOrPidNamespaceIsNotProvenGoneAndOneFromTheSameScopeIs(@TempDir Path locks) throws Exception {
        AppDomainLease me = lease(new AppDomainLease.Holder("h", AppDomainLease.pidSpace("boot-a", NS), locks, 7, "r"));
        for (String other : new String[] {AppDomainLease.pidSpace("boot-b", NS), AppDomainLease.pidSpace("boot-a", "pid:[9]")}) {
            AppDomainLease there = lease(new AppDomainLease.Holder("h", other, locks, 999999999, "r2"));
            store.create(AppDomainLease.name(DOMAIN), there.labels(DOMAIN, "t", "run", 0, AppDomainLease.HELD));
            AppDomainLease.Seen seen = me.look(DOMAIN);
            assertThat(me.heldFromHere(seen)).as(other).isFalse();
            assertThat(me.provenGone(seen)).as(other).isFalse();
            store.delete(seen.record().orElseThrow().id());
        }
        AppDomainLease sameScope = lease(new AppDomainLease.Holder("h", AppDomainLease.pidSpace("boot-a", NS), locks, 8, "r3"));
        store.create(AppDomainLease.name(DOMAIN), sameScope.labels(DOMAIN, "t", "run", 0, AppDomainLease.HELD));
        assertThat(me.provenGone(me.look(DOMAIN))).as("the same kernel, pid namespace and folder: the flock decides").isTrue();
    }

    @Test
    void thisProcessNamesItsKernelAndTheLockFoldersFileKey(@TempDir Path dir) throws Exception {
        Path one = Files.createDirectories(dir.resolve("one"));
        Path two = Files.createDirectories(dir.resolve("two"));
        AppDomainLease.Holder me = AppDomainLease.Holder.of(one, "r");
        assertThat(me.machine()).isEqualTo(AppDomainLease.pidSpace(Files.readString(Path.of("/proc/sys/kernel/random/boot_id")),
                Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString()));
        Object key = Files.readAttributes(one, BasicFileAttributes.class).fileKey();
        assertThat(me.flockScope()).isEqualTo(AppDomainLease.scope(me.machine(), one, key)).contains("ino=");
        assertThat(AppDomainLease.Holder.of(one, "r2").flockScope()).isEqualTo(me.flockScope());
        assertThat(AppDomainLease.Holder.of(two, "r").flockScope()).isNotEqualTo(me.flockScope());
    }
}
