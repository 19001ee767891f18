package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host hygiene of the lock and run folders, on real files: a lockfile that is not ccci's is
 * refused loudly, never trusted (whoever owns it can hold it and fake a live run); the run's
 * folder is its user's alone.
 */
class ForeignLockFileTest {

    @TempDir
    Path dir;

    @Test
    void aLockfileOfAnotherOwnerIsRefusedNamingTheFix() throws Exception {
        Path lock = Files.createFile(dir.resolve("cc-ci-app-x.lock"));
        UserPrincipalLookupService users = lock.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(lock, users.lookupPrincipalByName("nobody"));

        assertThatThrownBy(() -> LockFile.open(lock)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("lockfile " + lock + " is not ccci's (owned by uid ")
                .hasMessageEndingWith("a lock someone else can hold or replace proves nothing, so ccci does not trust it;"
                        + " remove it (and find out who made it).");
    }

    @Test
    void aLockfileThatIsNoRegularFileIsRefused() throws Exception {
        Path fifo = dir.resolve("cc-ci-app-y.lock");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        assertThatThrownBy(() -> LockFile.open(fifo)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not ccci's (not a regular file)");
    }

    @Test
    void ccciOwnLockfileOpensAndLocks() throws Exception {
        try (LockFile own = LockFile.open(dir.resolve("cc-ci-app-z.lock"))) {
            assertThat(own.tryLock()).isTrue();
        }
    }

    @Test
    void theRunFolderIsItsUsersAloneEvenIfItExistedOpen() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("runs/i11-run"));
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxrwxrwx"));

        RunIdLock.acquire(runDir, "i11-run");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(runDir))).isEqualTo("rwx------");
    }

    @Test
    void atItsEndEveryFileOfTheRunFolderIsPrivateAndALinkIsNeverFollowed() throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("runs/r1/logs/install"));
        Path log = Files.writeString(runDir.resolve("app.log"), "x");
        Path results = Files.writeString(dir.resolve("runs/r1/results.json"), "{}");
        Path outside = Files.writeString(dir.resolve("outside"), "the host's own");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(dir.resolve("runs/r1/h"), outside);
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxr-xr-x"));

        RunIdLock.keepPrivate(dir.resolve("runs/r1"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(results))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(runDir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(outside))).isEqualTo("rw-r--r--");
    }
}
