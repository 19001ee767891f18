package net.commoninternet.ccci.extensions.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Service;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.junit.jupiter.api.Test;

/**
 * What a backup holds of a service, from its labels (as the engine reports them, whatever form
 * the compose wrote) and its container's mounts (as the engine's JSON has them).
 */
class BackupLabelsTest {

    // as docker-java reads the engine's JSON
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private static Service service(Map<String, String> labels) throws Exception {
        Map<String, String> all = new HashMap<>(labels);
        all.put(StackLabels.NAMESPACE, "app_example");
        return JSON.readValue(JSON.writeValueAsString(Map.of("Spec", Map.of("Name", "app_example_db", "Labels", all))),
                Service.class);
    }

    private static List<InspectContainerResponse.Mount> mounts() throws Exception {
        String json = """
                {"Mounts": [
                  {"Type": "volume", "Name": "app_example_postgres", "Source": "/var/lib/docker/volumes/app_example_postgres/_data",
                   "Destination": "/var/lib/postgresql/data"},
                  {"Type": "volume", "Name": "app_example_scratch", "Source": "/var/lib/docker/volumes/app_example_scratch/_data",
                   "Destination": "/tmp/scratch"},
                  {"Type": "bind", "Source": "/etc/hosts", "Destination": "/etc/hosts"}
                ]}""";
        return JSON.readValue(json, InspectContainerResponse.class).getMounts();
    }

    @Test
    void everyNamedVolumeByDefaultAndNeverABind() throws Exception {
        assertThat(BackupLabels.places(service(Map.of("backupbot.backup", "true")), mounts()))
                .extracting(BackupLabels.Place::containerPath).containsExactly("/var/lib/postgresql/data", "/tmp/scratch");
    }

    @Test
    void aVolumeCanBeLimitedToPathsRelativeToItsRootOrLeftOut() throws Exception {
        Service db = service(Map.of("backupbot.backup", "true", "backupbot.backup.volumes.postgres.path", "backup.sql, /dumps/",
                "backupbot.backup.volumes.scratch", "false"));

        assertThat(BackupLabels.places(db, mounts())).containsExactly(
                new BackupLabels.Place("app_example_db", "/var/lib/postgresql/data/backup.sql",
                        "/var/lib/docker/volumes/app_example_postgres/_data/backup.sql", "app_example_postgres", "backup.sql"),
                new BackupLabels.Place("app_example_db", "/var/lib/postgresql/data/dumps",
                        "/var/lib/docker/volumes/app_example_postgres/_data/dumps", "app_example_postgres", "dumps"));
    }

    @Test
    void theOlderFormNamesPathsInTheContainer() throws Exception {
        Service db = service(Map.of("backupbot.backup", "true", "backupbot.backup.path", "/var/lib/postgresql/data/dump,/tmp/scratch"));

        assertThat(BackupLabels.places(db, mounts())).extracting(BackupLabels.Place::hostPath).containsExactly(
                "/var/lib/docker/volumes/app_example_postgres/_data/dump", "/var/lib/docker/volumes/app_example_scratch/_data");
        // restic runs in a container that mounts each volume at /volumes/<name>: the same places there
        assertThat(BackupLabels.places(db, mounts())).extracting(BackupLabels.Place::inResticContainer).containsExactly(
                "/volumes/app_example_postgres/dump", "/volumes/app_example_scratch");
    }

    /** A path label must not reach outside the volume it names (the host's files are not the recipe's). */
    @Test
    void aPathThatLeavesItsVolumeIsRefused() throws Exception {
        assertThatThrownBy(() -> BackupLabels.places(service(Map.of("backupbot.backup.volumes.postgres.path", "../../../../etc")),
                mounts())).hasMessage("backupbot.backup.volumes.postgres.path ../../../../etc of app_example_db leaves the"
                        + " volume: name a path inside it, relative to its root.");
        assertThatThrownBy(() -> BackupLabels.places(service(Map.of("backupbot.backup.path", "/var/lib/postgresql/data/../../../etc")),
                mounts())).hasMessageContaining("/etc of app_example_db is not on a volume");
    }

    /** The container owns its volume's contents: a link it plants there never takes the backup out of the volume. */
    @Test
    void aPathThroughALinkInTheVolumeToTheHostIsRefused(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volumes/app_example_postgres/_data"));
        Path host = Files.createDirectories(dir.resolve("host-etc"));
        Files.createSymbolicLink(volume.resolve("h"), host);
        Files.createDirectories(volume.resolve("dumps"));
        List<InspectContainerResponse.Mount> mounts = JSON.readValue("{\"Mounts\": [{\"Type\": \"volume\", \"Name\":"
                + " \"app_example_postgres\", \"Source\": \"" + volume + "\", \"Destination\": \"/data\"}]}",
                InspectContainerResponse.class).getMounts();

        assertThatThrownBy(() -> BackupLabels.places(service(Map.of("backupbot.backup.volumes.postgres.path", "h/shadow")),
                mounts)).hasMessage("the backup path " + volume.resolve("h/shadow") + " of app_example_db leads out of its"
                        + " volume through a symbolic link in it: a backup holds only the service's own volume; name a path"
                        + " without links.");
        assertThatThrownBy(() -> BackupLabels.places(service(Map.of("backupbot.backup.path", "/data/h")), mounts))
                .hasMessageContaining("leads out of its volume through a symbolic link");
        assertThat(BackupLabels.places(service(Map.of("backupbot.backup.volumes.postgres.path", "dumps,new.sql")), mounts))
                .extracting(BackupLabels.Place::hostPath)
                .containsExactly(volume.resolve("dumps").toString(), volume.resolve("new.sql").toString());
    }

    @Test
    void theOlderFormNeverBacksUpABindMountedHostFile() throws Exception {
        assertThatThrownBy(() -> BackupLabels.places(service(Map.of("backupbot.backup.path", "/etc/hosts")), mounts()))
                .hasMessageContaining("/etc/hosts of app_example_db is not on a volume");
    }
}
