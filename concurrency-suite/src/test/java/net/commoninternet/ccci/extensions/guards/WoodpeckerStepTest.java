package net.commoninternet.ccci.extensions.guards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.commoninternet.ccci.testing.Helper;
import net.commoninternet.ccci.testing.Helpers;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.RealProcesses;
import net.commoninternet.ccci.testing.helpers.Orphanage;
import org.apache.commons.io.file.PathUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Woodpecker pipeline we ship, {@code docs/woodpecker/.woodpecker.yml}, cancelled as Woodpecker's
 * local backend cancels a step: its recipe-ci step's own commands run as the backend runs them
 * ({@code bash -e -c}, each echoed, in the workspace, as the leader of a process group of their own),
 * around a stand-in {@code mvn} shaped like the real one (on TERM "maven" exits 143 at once, its "fork"
 * goes on tearing down, reading its checkout, until the test releases it). The cancel is the backend's:
 * SIGKILL to the step's whole process group, then the workspace deleted. The wrapper must survive the
 * group's SIGKILL, forward TERM to the build's whole group and wait until the fork's teardown is over,
 * and the teardown must still find its checkout.
 */
@RealProcesses
class WoodpeckerStepTest {

    private static final Path PIPELINE = MavenRun.ROOT.resolve("docs/woodpecker/.woodpecker.yml");
    private static final int SIGKILL = 9;

    /** "maven" and its "fork": the fork's teardown reads a file of the checkout it runs from. */
    private static final String FAKE_MVN = """
            #!/usr/bin/env bash
            bash -c 'trap "echo fork: teardown begin; while [ ! -e \\"$0\\" ]; do sleep 0.05; done; \\
                echo \\"fork: teardown end, read $(cat classes/teardown 2>&1)\\"; exit 0" TERM
              echo "fork: ready pid=$$ in $PWD"
              while :; do sleep 60 & wait $!; done' "$CCCI_TEST_RELEASE" &
            trap 'echo "maven: TERM, exiting 143"; exit 143' TERM
            echo "maven: ready pid=$$ args $*"
            while :; do sleep 60 & wait $!; done
            """;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final Helpers helpers = new Helpers();

    private Path workspace;
    private Path checkouts;
    private Path bin;

    /** A workspace as the backend clones it: the scripts the step calls, and the build's classes. */
    @BeforeEach
    void workspace() throws Exception {
        workspace = Files.createDirectories(sandbox.resolve("woodpecker-local-1/workspace"));
        Files.createDirectories(workspace.resolve("scripts"));
        Files.copy(MavenRun.ROOT.resolve("scripts/drone-step"), workspace.resolve("scripts/drone-step"));
        Files.createDirectories(workspace.resolve("classes"));
        Files.writeString(workspace.resolve("classes/teardown"), "the teardown's classes");
        checkouts = sandbox.resolve("checkouts");
        bin = Files.createDirectories(sandbox.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, FAKE_MVN, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The recipe-ci step's commands as the local backend makes its script: each echoed, then run. */
    private static String stepScript() throws Exception {
        JsonNode pipeline = new YAMLMapper().readTree(PIPELINE.toFile());
        JsonNode step = null;
        for (JsonNode candidate : pipeline.path("steps")) {
            if (candidate.path("name").asText().equals("recipe-ci")) {
                step = candidate;
            }
        }
        assertThat(step).as("the recipe-ci step of " + PIPELINE).isNotNull();
        assertThat(step.path("image").asText()).as("the local backend's shell").isEqualTo("bash");
        StringBuilder script = new StringBuilder();
        for (JsonNode command : step.path("commands")) {
            // $$ is Woodpecker's escape of a $ its own substitution must leave to the shell
            String line = command.asText().replace("$$", "$");
            script.append("echo '+ ").append(line.replace("'", "'\\''")).append("'\n").append(line).append('\n');
        }
        return script.toString();
    }

    @Test
    void aCancelKillsTheStepsGroupButTheWrapperTearsTheBuildDownFromACheckoutTheWorkspacesDeletionLeaves()
            throws Exception {
        Path release = sandbox.resolve("release-the-fork");
        Map<String, String> env = new HashMap<>(Map.of("CI_WORKSPACE", workspace.toString(), "CI_PIPELINE_NUMBER", "77",
                "RECIPE", "custom-html", "CCCI_CHECKOUTS", checkouts.toString(), "CCCI_TEST_RELEASE", release.toString(),
                "PATH", bin + ":" + System.getenv("PATH")));
        // the backend: `bash -e -c <script>` in the workspace, leading a process group of its own
        List<String> step = new ArrayList<>(List.of("setsid", "bash", "-e", "-c", "cd " + workspace + "\n" + stepScript()));
        Helper tree = helpers.start(Helper.java(Orphanage.class, step.toArray(String[]::new)), env);
        long stepShell = Long.parseLong(tree.awaitLine("orphanage: started ").split(" ")[2]);
        String maven = tree.awaitLine("maven: ready pid=");
        long mavenPid = Long.parseLong(maven.replaceAll(".*pid=(\\d+).*", "$1"));
        String fork = tree.awaitLine("fork: ready pid=");
        assertThat(maven).as("the pipeline's own arguments").contains("-Drecipe=custom-html", "/var/lib/cc-ci-runs/77.log");
        assertThat(fork).as("the build runs from a checkout outside the workspace").endsWith(" in " + checkouts.resolve("77"));
        long wrapper = ProcessHandle.of(mavenPid).flatMap(ProcessHandle::parent).orElseThrow().pid();
        assertThat(Helper.Stat.of(wrapper).orElseThrow().parent()).as("the wrapper is the step shell's child").isEqualTo(stepShell);
        assertThat(Helper.Stat.of(stepShell).orElseThrow().group()).isEqualTo(stepShell);
        assertThat(Helper.Stat.of(wrapper).orElseThrow().group()).as("the wrapper left the step's group").isNotEqualTo(stepShell);

        // Woodpecker's cancel: SIGKILL to the step's whole process group, then the workspace goes
        new ProcessBuilder("kill", "-KILL", "--", "-" + stepShell).start().waitFor();
        assertThat(tree.awaitLine(Orphanage.reaped(stepShell))).endsWith("signal " + SIGKILL);
        PathUtils.deleteDirectory(workspace.getParent());

        tree.awaitLine("maven: TERM, exiting 143");
        tree.awaitLine("fork: teardown begin");
        tree.awaitLine("drone-step: the build exited 143; waiting for the rest of its process group " + mavenPid);
        assertThat(Helper.Stat.of(wrapper)).as("the wrapper outlived the group's SIGKILL").isPresent();
        Files.createFile(release);
        assertThat(tree.awaitLine(Orphanage.reaped(wrapper))).endsWith("exit 143");
        tree.awaitLine("orphanage: done");
        assertThat(tree.awaitExit()).isZero();
        assertThat(tree.output()).containsSubsequence("forwarding to the build's process group " + mavenPid,
                "fork: teardown end, read the teardown's classes", Orphanage.reaped(wrapper));
        assertThat(Helper.Stat.groupAlive(mavenPid)).isFalse();
        // after a cancel the checkout stays for the day-old sweep: the step's EXIT trap never ran
        assertThat(checkouts.resolve("77")).isDirectory();
    }

    @Test
    void aStepThatEndsRemovesItsCheckoutOnceTheBuildsGroupIsGone() throws Exception {
        Path release = sandbox.resolve("release-the-fork");
        Files.writeString(bin.resolve("mvn"), "#!/usr/bin/env bash\necho \"maven ran in $PWD\"\nexit 3\n");
        Map<String, String> env = Map.of("CI_WORKSPACE", workspace.toString(), "CI_PIPELINE_NUMBER", "78",
                "RECIPE", "custom-html", "CCCI_CHECKOUTS", checkouts.toString(), "CCCI_TEST_RELEASE", release.toString(),
                "PATH", bin + ":" + System.getenv("PATH"));
        Helper step = helpers.start(List.of("setsid", "bash", "-e", "-c", "cd " + workspace + "\n" + stepScript()), env);

        assertThat(step.awaitExit()).as(step.describe()).isEqualTo(3);
        assertThat(step.output()).contains("maven ran in " + checkouts.resolve("78"));
        try (Stream<Path> left = Files.list(checkouts)) {
            assertThat(left).as("a red build's checkout goes as well").isEmpty();
        }
    }
}
