package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's restic repository made ahead of the backup, on a thread of its own, with the host's
 * real restic (nothing of the engine: the repository lives in the run's folder).
 */
class BackupRepositoryTest {

    @TempDir
    Path dir;

    private BackupBot bot(Path backupDir) {
        return new BackupBot(null, new ChildProcesses(Map.of()), backupDir);
    }

    @Test
    void preparedAheadTheRepositoryIsMadeOnceWithAPrivatePasswordAndTheTeardownWaitsForIt() throws Exception {
        BackupBot bot = bot(dir.resolve("backup"));

        bot.prepareRepository();
        bot.prepareRepository(); // once per bot
        bot.settle();

        assertThat(dir.resolve("backup/restic/config")).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("backup/password"))))
                .isEqualTo("rw-------");
        bot.awaitRepository(); // made: the backup goes on at once
    }

    @Test
    void aFailedInitIsTheBackupsFailureAndALaterBackupTriesAgain() throws Exception {
        Path backupDir = dir.resolve("backup");
        Files.createDirectories(backupDir);
        Files.writeString(backupDir.resolve("restic"), "a file where the repository goes");
        BackupBot bot = bot(backupDir);
        bot.prepareRepository();

        assertThatThrownBy(bot::awaitRepository).isInstanceOf(IOException.class).hasMessageContaining("restic");

        Files.delete(backupDir.resolve("restic"));
        bot.awaitRepository();
        assertThat(backupDir.resolve("restic/config")).isRegularFile();
    }
}
