package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.LockHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The app-domain lock on real kernel flocks, held by real helper processes (spec section 5). */
@RealProcesses
class AppDomainLockTest {

    private static final String DOMAIN = "cust-0a1b2c.ci.commoninternet.net";

    @TempDir
    Path locks;

    private Path lockfile() {
        return AppDomainLock.path(locks, DOMAIN);
    }

    /** Whether any process holds the lockfile's flock, asked the kernel without taking it for long. */
    private boolean heldByAnother() throws IOException {
        try (LockFile probe = LockFile.open(lockfile())) {
            return !probe.tryLock();
        }
    }

    /** util-linux flock(1) asks the same kernel from outside the JVM: exit 1 = held. */
    private int utilLinuxProbe() throws Exception {
        return new ProcessBuilder("flock", "-n", "-E", "1", lockfile().toString(), "true").start().waitFor();
    }

    @Test
    void sigkillOfTheHolderReleasesTheLockAtOnce() throws Exception {
        try (Helper holder = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
            holder.awaitLine("held");
            assertThat(heldByAnother()).isTrue();

            assertThat(holder.kill()).isEqualTo(137);

            // No waiting and no retry: the kernel released it when the process died.
            assertThat(heldByAnother()).isFalse();
        }
    }

    @Test
    void nonBlockingProbeSaysHeldWhileHeldAndFreeAfterANormalExit() throws Exception {
        try (Helper holder = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
            holder.awaitLine("held");
            assertThat(heldByAnother()).isTrue();
            assertThat(utilLinuxProbe()).isEqualTo(1);

            assertThat(holder.finish()).isZero();

            assertThat(heldByAnother()).isFalse();
            assertThat(utilLinuxProbe()).isZero();
        }
    }

    @Test
    void theLockDescriptorIsNotInheritedByChildProcesses() throws Exception {
        try (Helper holder = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN, "spawn")) {
            String line = holder.awaitLine("held");
            long childPid = Long.parseLong(line.replaceAll(".* child ", "").trim());
            ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();
            try {
                assertThat(closeOnExecFlag(holder.pid())).as("lock fd of the holder is O_CLOEXEC").isTrue();
                assertThat(childHasDescriptorOn(childPid)).as("the native child has no fd on the lockfile").isFalse();

                holder.kill();

                assertThat(child.isAlive()).as("the child outlives its parent").isTrue();
                assertThat(heldByAnother()).as("a surviving child would still hold an inherited lock").isFalse();
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aSecondAcquireOfTheSameDomainWaitsUntilTheFirstHolderDies() throws Exception {
        try (Helper first = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
            first.awaitLine("held");
            try (Helper second = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
                String line = second.awaitAnyOf("waiting", "held");
                assertThat(line).as("the second run parks visibly instead of acquiring")
                        .contains("== app lock: another run of " + DOMAIN + " is in flight — waiting ==");
                assertThat(heldByAnother()).isTrue();

                first.kill();

                second.awaitLine("held " + second.pid());
            }
        }
    }

    @Test
    void aWaiterWhoseLockfileIsUnlinkedEndsUpHoldingTheLivePath() throws Exception {
        // Janitor-like reaper: holds the lock, then unlinks the file and releases it.
        LockFile reaper = LockFile.open(lockfile());
        assertThat(reaper.tryLock()).isTrue();
        try (Helper waiter = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
            assertThat(waiter.awaitAnyOf("waiting", "held")).contains("waiting");

            reaper.unlink();
            reaper.close();

            waiter.awaitLine("held");
            long pathInode = (Long) Files.getAttribute(lockfile(), "unix:ino");
            assertThat(lockedInodes(waiter.pid())).as("the waiter's lock is on the file the path names now")
                    .containsExactly(pathInode);
            assertThat(heldByAnother()).isTrue();
        }
    }

    @Test
    void aLockWonOnAnUnlinkedInodeIsRecognisedAsStale() throws Exception {
        try (LockFile early = LockFile.open(lockfile())) {
            Files.delete(lockfile());
            assertThat(early.tryLock()).isTrue();

            assertThat(early.isStillAtPath()).isFalse();
            // Without the identity check, a second locker of the path would "hold the same lock" too.
            try (LockFile late = LockFile.open(lockfile())) {
                assertThat(late.tryLock()).isTrue();
                assertThat(late.isStillAtPath()).isTrue();
            }
        }
    }

    @Test
    void aPlantedSymbolicLinkIsRefusedAndItsTargetLeftUntouched() throws Exception {
        Path target = locks.resolve("precious");
        Files.writeString(target, "do not touch", StandardCharsets.UTF_8);
        long mtime = Files.getLastModifiedTime(target).toMillis();
        Files.createSymbolicLink(lockfile(), target);

        assertThatThrownBy(() -> AppDomainLock.acquire(locks, DOMAIN))
                .isInstanceOf(IOException.class).hasMessageContaining("symbolic link");

        assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("do not touch");
        assertThat(Files.getLastModifiedTime(target).toMillis()).isEqualTo(mtime);
        assertThat(lockfile()).isSymbolicLink();
    }

    @Test
    void utilLinuxFlockAndCcciSeeEachOthersLocks() throws Exception {
        Files.createDirectories(locks);
        try (Helper shell = Helper.start(List.of("flock", "-x", lockfile().toString(), "sh", "-c", "echo held; exec cat"))) {
            shell.awaitLine("held");
            assertThat(heldByAnother()).as("ccci sees util-linux's lock").isTrue();
        }
        try (Helper holder = Helper.jvm(LockHolder.class, locks.toString(), DOMAIN)) {
            holder.awaitLine("held");
            assertThat(utilLinuxProbe()).as("util-linux sees ccci's lock").isEqualTo(1);
            Process lslocks = new ProcessBuilder("lslocks", "--noheadings", "--raw", "-o", "PID,TYPE,PATH").start();
            String table = new String(lslocks.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(lslocks.waitFor()).isZero();
            assertThat(table.lines()).anyMatch(l -> l.equals(holder.pid() + " FLOCK " + lockfile()));
        }
    }

    /** Inodes of the files a process holds open under the lock directory. */
    private List<Long> lockedInodes(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.map(fd -> {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    return target.startsWith(locks) ? Optional.of((Long) Files.getAttribute(fd, "unix:ino")) : Optional.<Long>empty();
                } catch (IOException e) {
                    return Optional.<Long>empty();
                }
            }).flatMap(Optional::stream).toList();
        }
    }

    private boolean childHasDescriptorOn(long pid) throws IOException {
        return !lockedInodes(pid).isEmpty();
    }

    /** The O_CLOEXEC bit (02000000) of the holder's descriptor on the lockfile, from /proc fdinfo. */
    private boolean closeOnExecFlag(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (IOException e) {
                    continue;
                }
                if (target.equals(lockfile())) {
                    String info = Files.readString(Path.of("/proc", Long.toString(pid), "fdinfo", fd.getFileName().toString()));
                    String flags = info.lines().filter(l -> l.startsWith("flags:")).findFirst().orElseThrow().split("\\s+")[1];
                    return (Long.parseLong(flags, 8) & 02000000L) != 0;
                }
            }
        }
        throw new AssertionError("process " + pid + " holds no descriptor on " + lockfile());
    }

    /**
     * A JVM may run several recipes one after another: a run releases its domain's lock once its
     * teardown is over, so the domain is free (to util-linux too, outside the JVM) while the
     * process lives on, and a later run of this JVM takes it again; released twice is released.
     * Until then another descriptor of the same process, the janitor's probe, sees it held.
     */
    @Test
    void aRunReleasesItsLockAtItsEndWhileTheProcessLivesOnAndTheDomainCanBeTakenAgain() throws Exception {
        AppDomainLock.Held held = AppDomainLock.acquire(locks, DOMAIN);
        assertThat(heldByAnother()).as("a probe from this very process sees it held").isTrue();
        assertThat(utilLinuxProbe()).isEqualTo(1);

        held.release();

        assertThat(heldByAnother()).isFalse();
        assertThat(utilLinuxProbe()).isZero();
        held.release();
        AppDomainLock.Held again = AppDomainLock.acquire(locks, DOMAIN);
        assertThat(utilLinuxProbe()).isEqualTo(1);
        again.release();
        assertThat(utilLinuxProbe()).isZero();
    }
}
