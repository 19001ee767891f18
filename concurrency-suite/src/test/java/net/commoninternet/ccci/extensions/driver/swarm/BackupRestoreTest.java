package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup then restore of a real stack's volumes with restic, honouring the backupbot labels:
 * a marker seeded before the backup and changed after it comes back. The stack name is
 * outside RUN_APP_RE, so no janitor probes it.
 */
@RealEngine
class BackupRestoreTest {

    private static final String STACK = "ccci-backup-test";

    @TempDir
    Path runDir;

    private DockerEngine docker;
    private BackupBot bot;

    @BeforeEach
    void deploy() throws Exception {
        docker = DockerEngine.connect();
        bot = BackupStack.deploy(docker, "/backup-stack.yml", STACK, runDir);
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(docker.client()).teardown(STACK)).isEmpty();
        docker.close();
    }

    @Test
    void aMarkerChangedAfterTheBackupComesBackOnRestoreAndTheHooksRun() throws Exception {
        sh("app", "mkdir -p /srv/content/site && echo before-backup > /srv/content/site/marker");
        sh("db", "echo db-before > /var/lib/db/rows");

        BackupBot.Snapshot snapshot = bot.backup(STACK);

        assertThat(snapshot.id()).matches("[0-9a-f]{8,64}");
        assertThat(snapshot.paths()).hasSize(2).containsExactly("/volumes/" + STACK + "_content/site", "/volumes/" + STACK + "_dbdata");
        assertThat(sh("app", "cat /srv/content/site/pre-hook-ran")).as("pre-hook ran before the backup").isNotBlank();
        sh("app", "echo changed-after-backup > /srv/content/site/marker");
        sh("db", "echo db-after > /var/lib/db/rows");

        bot.restore(STACK, snapshot.id());

        assertThat(sh("app", "cat /srv/content/site/marker")).isEqualTo("before-backup");
        assertThat(sh("db", "cat /var/lib/db/rows")).isEqualTo("db-before");
        assertThat(sh("app", "test -f /srv/content/site/restore-post-hook-ran && echo yes")).isEqualTo("yes");
    }

    @Test
    void theResticPasswordStaysInTheRunFolderReadableByItsOwnerOnly() throws Exception {
        sh("app", "mkdir -p /srv/content/site && echo x > /srv/content/site/marker");

        bot.backup(STACK);

        Path password = runDir.resolve("backup/password");
        assertThat(Files.getPosixFilePermissions(password)).extracting(Object::toString)
                .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
    }

    @Test
    void aFailingPreHookFailsTheBackup() throws Exception {
        // The pre-hook writes into site/, which does not exist until the app creates it.
        assertThatThrownBy(() -> bot.backup(STACK)).hasMessageContaining("backupbot.backup.pre-hook")
                .hasMessageContaining("exited");
    }

    @Test
    void aStackWithoutBackupLabelsIsNotBackupCapable() {
        assertThat(BackupLabels.capable(docker.client(), STACK)).isTrue();
        assertThat(BackupLabels.capable(docker.client(), "ccci-no-such-stack")).isFalse();
    }

    /** Runs {@code sh -c} in the service's container; returns its trimmed stdout. */
    private String sh(String service, String script) throws InterruptedException {
        var containers = docker.client().listContainersCmd()
                .withLabelFilter(Map.of("com.docker.swarm.service.name", STACK + "_" + service)).exec();
        String exec = docker.client().execCreateCmd(containers.get(0).getId()).withCmd("sh", "-c", script)
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        StringBuilder out = new StringBuilder();
        docker.client().execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
            }
        }).awaitCompletion();
        return out.toString().strip();
    }
}
