package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flocks in one process, engine-free: a lock this JVM holds is held to another open of the same
 * file (flock belongs to the open file description), so one process can stand for two. Across
 * processes, with SIGKILL and the rest: concurrency-suite's AppDomainLockTest and RunIdLockTest.
 */
class LocksTest {

    private static final String D = "lcks-1c1c1c.ci.commoninternet.net";

    @TempDir
    Path dir;

    private static boolean heldElsewhere(Path path) throws IOException {
        try (LockFile probe = LockFile.open(path)) {
            return !probe.tryLock();
        }
    }

    /** The domain's lock, acquired on a thread of its own. */
    private CompletableFuture<AppDomainLock.Held> acquiring() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return AppDomainLock.acquire(dir, D);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aLockIsHeldUntilReleasedOnceAndAWaiterGetsItThen() throws Exception {
        AppDomainLock.Held held = AppDomainLock.acquire(dir, D);
        assertThat(held.path()).isEqualTo(dir.resolve("cc-ci-app-" + D + ".lock"));
        assertThat(heldElsewhere(held.path())).isTrue();
        CompletableFuture<AppDomainLock.Held> waiter = acquiring();
        assertThatThrownBy(() -> waiter.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        held.release();
        held.release();
        AppDomainLock.Held second = waiter.get(10, TimeUnit.SECONDS);
        assertThat(heldElsewhere(second.path())).isTrue();
        second.release();
        assertThat(heldElsewhere(second.path())).isFalse();
    }

    @Test
    void aWaiterWhoseLockfileIsUnlinkedRetriesOnTheLivePathAndAWaitIsInterruptible() throws Exception {
        AppDomainLock.Held held = AppDomainLock.acquire(dir, D);
        CompletableFuture<AppDomainLock.Held> waiter = acquiring();
        assertThatThrownBy(() -> waiter.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        Files.delete(held.path()); // a janitor reaped it and unlinked it
        held.release();
        AppDomainLock.Held live = waiter.get(10, TimeUnit.SECONDS);
        try (LockFile probe = LockFile.open(live.path())) {
            assertThat(probe.tryLock()).as("the waiter holds the file the path names now").isFalse();
        }
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> AppDomainLock.acquire(dir, D)).isInstanceOf(InterruptedException.class)
                .hasMessageContaining("waiting for the app lock of " + D);
        live.release();
    }

    @Test
    void aPlantedSymbolicLinkIsRefusedAndAStaleInodeRecognised() throws Exception {
        Path target = Files.writeString(dir.resolve("target"), "keep");
        Files.createSymbolicLink(AppDomainLock.path(dir, D), target);
        assertThatThrownBy(() -> LockFile.open(AppDomainLock.path(dir, D))).isInstanceOf(IOException.class)
                .hasMessageContaining("a symbolic link is planted there; remove it");
        assertThat(target).hasContent("keep");
        Path path = dir.resolve("cc-ci-app-x.lock");
        try (LockFile file = LockFile.open(path)) {
            assertThat(file.path()).isEqualTo(path);
            assertThat(file.tryLock()).isTrue();
            assertThat(file.isStillAtPath()).isTrue();
            file.touch();
            assertThat(file.ageSeconds()).isBetween(0L, 2L);
            file.unlink();
            file.unlink();
            assertThat(file.isStillAtPath()).isFalse();
        }
        assertThatThrownBy(() -> LockFile.open(dir.resolve("missing/x.lock"))).isInstanceOf(IOException.class)
                .hasMessageContaining("cannot open lockfile");
    }

    @Test
    void aRunIdHeldByALiveRunIsRefusedAndItsFolderKeptPrivate() throws Exception {
        Path run = dir.resolve("runs/1234");
        RunIdLock.acquire(run, "1234");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(run))).isEqualTo("rwx------");
        assertThatThrownBy(() -> RunIdLock.acquire(run, "1234")).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("run id 1234 belongs to a live run (its folder " + run)
                .hasMessageNotContaining("keep");
        assertThat(RunIdLock.descriptor(run)).as("what a keeper inherits").isPresent();
        assertThat(RunIdLock.descriptor(dir.resolve("runs/other"))).isEmpty();
        // the live run is a kept app's keeper: the refusal names the keep's end command
        Files.writeString(Files.createDirectories(run.resolve("keep")).resolve("end"), "");
        assertThatThrownBy(() -> RunIdLock.acquire(run, "1234")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("`sh " + run.resolve("keep/end") + "` ends the keep now");
        Path file = Files.writeString(dir.resolve("runs/file"), "");
        assertThatThrownBy(() -> RunIdLock.acquire(file, "file")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is a file, not a folder");
        Path log = Files.writeString(Files.createDirectories(run.resolve("logs")).resolve("run.log"), "x");
        Files.createSymbolicLink(run.resolve("link"), dir.resolve("runs/file"));
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        RunIdLock.keepPrivate(run);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(run.resolve("logs")))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as("a link's target is not the run's")
                .isEqualTo("rw-r--r--");
        RunIdLock.keepPrivate(dir.resolve("gone"));
    }

    @Test
    void aClaimHoldsTheFlockAndTheLeaseAndReleasesBoth() throws Exception {
        InMemoryRecords store = new InMemoryRecords();
        AppDomainLease leases = new AppDomainLease(store, new AppDomainLease.Holder("h", "m", dir, 7, "r"),
                new AppDomainLease.Timing(Duration.ofSeconds(60), Duration.ofSeconds(10)), why -> { });
        DomainClaim claim = DomainClaim.take(dir, D, leases);
        assertThat(claim.domain()).isEqualTo(D);
        assertThat(claim.mayAct()).isTrue();
        assertThat(claim.reconfirm()).isTrue();
        assertThat(claim.lostBecause()).isEmpty();
        assertThat(heldElsewhere(AppDomainLock.path(dir, D))).isTrue();
        claim.release();
        claim.release();
        assertThat(heldElsewhere(AppDomainLock.path(dir, D))).isFalse();
        assertThat(store.all()).isEmpty();

        store.create(AppDomainLease.name(D), new AppDomainLease(store, new AppDomainLease.Holder("o", "o", dir.resolve("o"), 8,
                "o"), leases.timing(), why -> { }).labels(D, "t", "run", 0, AppDomainLease.HELD));
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> DomainClaim.take(dir, D, leases)).isInstanceOf(InterruptedException.class);
        assertThat(heldElsewhere(AppDomainLock.path(dir, D))).as("a claim that failed lets its flock go").isFalse();
    }

    @Test
    void aLockfilesAgeIsItsLastAcquisitionsAndALostLeaseStopsTheClaim() throws Exception {
        Path path = AppDomainLock.path(dir, D);
        Files.writeString(path, "");
        Files.setLastModifiedTime(path, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        try (LockFile file = LockFile.open(path)) {
            assertThat(file.ageSeconds()).isBetween(3599L, 3700L);
        }
        AppDomainLock.Held held = AppDomainLock.acquire(dir, D);
        assertThat(Files.getLastModifiedTime(path).toMillis()).isCloseTo(System.currentTimeMillis(),
                org.assertj.core.data.Offset.offset(5_000L));
        held.release();

        InMemoryRecords store = new InMemoryRecords();
        AppDomainLease leases = new AppDomainLease(store, new AppDomainLease.Holder("h", "m", dir, 7, "r"),
                new AppDomainLease.Timing(Duration.ofSeconds(60), Duration.ofSeconds(10)), why -> { });
        DomainClaim claim = DomainClaim.take(dir, D, leases);
        store.delete(store.read(AppDomainLease.name(D)).orElseThrow().id());
        assertThat(claim.reconfirm()).isFalse();
        assertThat(claim.mayAct()).isFalse();
        assertThat(claim.lostBecause()).get().asString().contains("it is gone");
        claim.release();
    }
}
