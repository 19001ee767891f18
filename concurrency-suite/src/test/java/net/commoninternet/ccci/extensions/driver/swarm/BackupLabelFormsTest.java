package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * backupbot's newer label forms on a real stack, in map form: a volume limited to some of its
 * paths ({@code backupbot.backup.volumes.<volume>.path}, relative to the volume's root), a volume
 * left out ({@code backupbot.backup.volumes.<volume>=false}), and hooks on a service that is not
 * itself backed up. The stack name is outside RUN_APP_RE, so no janitor probes it.
 */
@RealEngine
class BackupLabelFormsTest {

    private static final String STACK = "ccci-backup-forms-test";

    @TempDir
    Path runDir;

    private DockerEngine docker;
    private BackupBot bot;
    private ContainerExec exec;

    @BeforeEach
    void deploy() throws Exception {
        docker = DockerEngine.connect();
        bot = BackupStack.deploy(docker, "/backup-volumes-stack.yml", STACK, runDir);
        exec = new ContainerExec(docker.client());
    }

    @AfterEach
    void remove() throws Exception {
        assertThat(new StackTeardown(docker.client()).teardown(STACK)).isEmpty();
        docker.close();
    }

    private String sh(String service, String script) throws InterruptedException {
        ContainerExec.Result result = exec.sh(exec.runningContainer(STACK + "_" + service), script);
        assertThat(result.ok()).as("%s: %s", script, result.output()).isTrue();
        return result.output();
    }

    @Test
    void onlyTheNamedPathsOfAVolumeAreBackedUpAVolumeSetToFalseIsLeftOutAndHooksRunOnAnyService() throws Exception {
        sh("db", "echo dump-before > /var/lib/db/dump.sql && echo keep-before > /var/lib/db/keep/file"
                + " && echo other-before > /var/lib/db/other/file && echo scratch-before > /var/cache/db/file");

        BackupBot.Snapshot snapshot = bot.backup(STACK);

        assertThat(snapshot.paths()).hasSize(2).allMatch(p -> p.startsWith("/volumes/" + STACK + "_data/"))
                .anyMatch(p -> p.endsWith("_data/dump.sql")).anyMatch(p -> p.endsWith("_data/keep")); // the volume is <stack>_data
        assertThat(sh("web", "test -s /srv/hooks/backup-pre && test -s /srv/hooks/backup-post && echo both")).isEqualTo("both");
        sh("db", "echo dump-after > /var/lib/db/dump.sql && echo keep-after > /var/lib/db/keep/file"
                + " && echo other-after > /var/lib/db/other/file && echo scratch-after > /var/cache/db/file");

        bot.restore(STACK, snapshot.id());

        assertThat(sh("db", "cat /var/lib/db/dump.sql /var/lib/db/keep/file /var/lib/db/other/file /var/cache/db/file"))
                .isEqualTo("dump-before\nkeep-before\nother-after\nscratch-after");
        assertThat(sh("web", "test -s /srv/hooks/restore-pre && echo ran")).isEqualTo("ran");
    }

    /** The marker goes into the first backed-up directory; a file (the dump) cannot hold one. */
    @Test
    void theMarkerPlaceIsTheFirstBackedUpDirectory() throws Exception {
        assertThat(BackupLabels.markerPlace(docker.client(), new ContainerExec(docker.client()), STACK)).contains(Map.entry(STACK + "_db", "/var/lib/db/keep"));
    }
}
