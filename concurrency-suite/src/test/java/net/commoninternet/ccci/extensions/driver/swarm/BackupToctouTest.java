package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup's time-of-check to time-of-use race, played by the app's container as an attacker
 * would: its hook returns with the backed-up path intact (so ccci's check passes), then a job it
 * left running swaps the path's directory for a link to a host folder (this test's). restic run on
 * the host (root) followed that link: the backup held the host's marker, and the restore wrote
 * into the host folder. restic in its own container resolves the link there, where the host folder
 * does not exist: whatever restic then says, nothing of the host is read or written. The job's
 * delay (0.3 s, inside the second host restic took to start and derive its key) is the attacker's
 * timing and decides only whether the old code lost; the fixed code's outcome does not depend on it.
 * The stack name is outside RUN_APP_RE, so no janitor probes it.
 */
@RealEngine
class BackupToctouTest {

    private static final String STACK = "ccci-backup-toctou-test";

    @TempDir
    Path runDir;
    @TempDir
    Path host;

    private DockerEngine docker;
    private BackupBot bot;
    private ContainerExec exec;

    @BeforeEach
    void deploy() throws Exception {
        docker = DockerEngine.connect();
        bot = BackupStack.deploy(docker, "/backup-toctou-stack.yml", STACK, runDir);
        exec = new ContainerExec(docker.client());
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(docker.client()).teardown(STACK)).isEmpty();
        assertThat(docker.client().listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(ResticContainer.LABEL, STACK)).exec()).as("restic containers left").isEmpty();
        docker.close();
    }

    @Test
    void aDirectorySwappedForALinkToTheHostDuringTheBackupNeverBringsTheHostsFilesIntoTheSnapshot() throws Exception {
        Path hostSite = Files.createDirectories(host.resolve("site/inner"));
        Files.writeString(hostSite.resolve("host-marker"), "the host's file");
        sh("mkdir -p /srv/data/site/inner && echo app > /srv/data/site/inner/app-file"
                + " && echo '" + host.resolve("site") + "' > /srv/data/.backup-link");

        String held;
        try {
            BackupBot.Snapshot snapshot = bot.backup(STACK);
            held = resticLs(snapshot.id());
        } catch (IllegalStateException refused) {
            held = refused.getMessage(); // restic found no site/inner where it runs: nothing was read
        }
        awaitTheSwap();

        assertThat(held).doesNotContain("host-marker");
        assertThat(Files.readString(hostSite.resolve("host-marker"))).isEqualTo("the host's file");
    }

    @Test
    void aDirectorySwappedForALinkToTheHostBeforeTheRestoreNeverGetsTheHostWrittenTo() throws Exception {
        sh("mkdir -p /srv/data/site/inner && echo backed-up > /srv/data/site/inner/restored-file");
        BackupBot.Snapshot snapshot = bot.backup(STACK);
        Path hostTarget = Files.createDirectories(host.resolve("restore-target"));
        sh("echo '" + hostTarget + "' > /srv/data/.restore-link");

        try {
            bot.restore(STACK, snapshot.id());
        } catch (IllegalStateException refused) {
            assertThat(refused).hasMessageContaining("restic restore of " + STACK); // it could not write through the link
        }
        awaitTheSwap();

        try (Stream<Path> written = Files.walk(hostTarget)) {
            assertThat(written.filter(p -> !p.equals(hostTarget)).toList()).as("written in the host folder").isEmpty();
        }
    }

    /** The attack has happened: the link is in the volume (the check is then over, whatever restic did). */
    private void awaitTheSwap() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!sh("test -L /srv/data/site && echo link || echo no").equals("link")) {
            assertThat(System.nanoTime()).as("the hook's job swapped site for a link").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private String resticLs(String ids) throws Exception {
        StringBuilder listed = new StringBuilder();
        for (String id : ids.split(",")) {
            listed.append(new ChildProcesses(Map.of()).run(List.of("restic", "ls", id), null,
                    Map.of("RESTIC_REPOSITORY", runDir.resolve("backup/restic").toString(),
                            "RESTIC_PASSWORD_FILE", runDir.resolve("backup/password").toString()),
                    Duration.ofMinutes(1)).orThrow().output());
        }
        return listed.toString();
    }

    private String sh(String script) throws InterruptedException {
        ContainerExec.Result result = exec.sh(exec.runningContainer(STACK + "_app"), script);
        assertThat(result.ok()).as("%s: %s", script, result.output()).isTrue();
        return result.output();
    }
}
