package net.commoninternet.ccci.extensions.driver.abra;

import static net.commoninternet.ccci.extensions.driver.abra.AbraFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Invocation;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Snapshot;
import org.junit.jupiter.api.Test;

/** The snapshot id of abra app backup create, in both forms restic reports it. */
class AbraSnapshotTest {

    private static final Invocation BACKUP = AbraFixtures.CLI.backupCreate("cust-1a2b3c.ci.commoninternet.net");
    private static final String FULL = "3f9a1c2e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a";

    private static Snapshot snapshot(String output) throws AbraException {
        return AbraCli.snapshot(BACKUP, output);
    }

    @Test
    void resticsSavedLineGivesTheShortId() throws AbraException {
        assertThat(snapshot(read("backup-create-restic-text.constructed.txt"))).isEqualTo(new Snapshot("3f9a1c2e"));
    }

    @Test
    void resticsJsonSummaryGivesTheFullId() throws AbraException {
        assertThat(snapshot(read("backup-create-restic-json.constructed.txt"))).isEqualTo(new Snapshot(FULL));
    }

    @Test
    void colourAndProgressRedrawsOfAPseudoTerminalAreIgnored() throws AbraException {
        assertThat(snapshot(read("backup-create-pty.constructed.txt"))).isEqualTo(new Snapshot("3f9a1c2e"));
    }

    @Test
    void theShortAndFullIdOfOneSnapshotAreOneSnapshot() throws AbraException {
        String both = read("backup-create-restic-text.constructed.txt") + read("backup-create-restic-json.constructed.txt");
        assertThat(snapshot(both)).isEqualTo(new Snapshot(FULL));
    }

    @Test
    void noIdIsAnErrorNamingTheCommandAndShowingItsOutput() {
        String noId = read("backup-create-restic-text.constructed.txt").replace("snapshot 3f9a1c2e saved", "");
        assertThatThrownBy(() -> snapshot(noId)).isInstanceOf(AbraException.class)
                .hasMessageStartingWith("abra app backup create printed output ccci cannot read (no snapshot id")
                .hasMessageContaining("| INFO Start volume backup");
    }

    @Test
    void twoDifferentSnapshotsAreAnError() {
        String two = read("backup-create-restic-text.constructed.txt") + "snapshot 0badc0de saved\n";
        assertThatThrownBy(() -> snapshot(two)).isInstanceOf(AbraException.class)
                .hasMessageContaining("more than one snapshot id: 3f9a1c2e, 0badc0de");
    }

    @Test
    void anIdThatIsNotHexIsNotTakenForOne() {
        assertThatThrownBy(() -> snapshot("snapshot 3f9a1c2g saved\n")).isInstanceOf(AbraException.class)
                .hasMessageContaining("no snapshot id");
    }
}
