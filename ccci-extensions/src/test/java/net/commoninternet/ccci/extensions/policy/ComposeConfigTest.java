package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose is read once per tree and env within a run: the real docker CLI ({@code docker
 * stack config} reads no daemon) behind a wrapper that counts its invocations. Anything the CLI
 * reads that changed (a compose file, a file of the tree, an env value), another run's children,
 * or a compose naming an env_file: read again.
 */
class ComposeConfigTest {

    @TempDir
    Path dir;
    private Path calls;
    private ChildProcesses children;
    private App app;

    @BeforeEach
    void countingDockerCli() throws IOException {
        String real = Arrays.stream(System.getenv("PATH").split(":")).map(p -> Path.of(p, "docker"))
                .filter(Files::isExecutable).findFirst().orElseThrow().toString();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        calls = dir.resolve("calls");
        Files.writeString(calls, "");
        Path docker = bin.resolve("docker");
        Files.writeString(docker, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexec '" + real + "' \"$@\"\n");
        Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwxr-xr-x"));
        children = runChildren(bin);
        app = TempApp.create(dir, "memo", Map.of(), "TYPE=memo", "TAG=one");
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  app:\n    image: nginx:${TAG}\n");
    }

    private static ChildProcesses runChildren(Path bin) {
        return new ChildProcesses(Map.of("PATH", bin + ":" + System.getenv("PATH")));
    }

    private long cliCalls() throws IOException {
        return Files.readAllLines(calls).size();
    }

    @Test
    void theSameTreeAndEnvAreReadOnceByARunsChildren() throws Exception {
        ComposeConfig first = ComposeConfig.of(app, children);
        ComposeConfig again = ComposeConfig.of(app, children);

        assertThat(cliCalls()).isEqualTo(1);
        assertThat(again.text()).isEqualTo(first.text()).contains("image: nginx:one");
    }

    /**
     * The memo's digest sizes each file before it reads a byte of it and streams it: a 3 GiB file in
     * the recipe's tree (sparse: the test writes nothing) is never read whole, the compose is read by
     * the CLI each time instead. Before, the digest read it whole and ccci's JVM threw
     * {@code OutOfMemoryError} ("Required array size too large").
     */
    @Test
    void aTreeWithAGibibytesFileIsReadByTheCliEachTimeAndTheFileNeverWhole() throws Exception {
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(app.recipeDir().resolve("big.bin").toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }

        assertThat(ComposeConfig.of(app, children).text()).contains("image: nginx:one");
        assertThat(ComposeConfig.of(app, children).text()).contains("image: nginx:one");
        assertThat(cliCalls()).isEqualTo(2);
    }

    @Test
    void aChangedComposeFileIsReadAgain() throws Exception {
        ComposeConfig.of(app, children);
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  app:\n    image: nginx:${TAG}-b\n");

        assertThat(ComposeConfig.of(app, children).text()).contains("image: nginx:one-b");
        assertThat(cliCalls()).isEqualTo(2);
    }

    @Test
    void aChangedFileOfTheTreeOrEnvValueIsReadAgain() throws Exception {
        ComposeConfig.of(app, children);
        Files.writeString(app.recipeDir().resolve("abra.sh"), "export TAG=two\n");

        assertThat(ComposeConfig.of(app, children).text()).contains("image: nginx:two");
        Files.delete(app.recipeDir().resolve("abra.sh"));
        EnvFile.read(app.envFile()).set("TAG", "three").write(app.envFile());

        assertThat(ComposeConfig.of(app, children).text()).contains("image: nginx:three");
        assertThat(cliCalls()).isEqualTo(3);
    }

    @Test
    void anotherRunsChildrenReadItThemselves() throws Exception {
        ComposeConfig.of(app, children);
        ComposeConfig.of(app, runChildren(dir.resolve("bin")));

        assertThat(cliCalls()).isEqualTo(2);
    }

    @Test
    void aChangedEnvFileOfTheTreeIsReadAgain() throws Exception {
        Path envFile = Files.writeString(app.recipeDir().resolve("app.env"), "NOTE=a\n");
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  app:\n    image: nginx:${TAG}\n"
                + "    env_file: [app.env]\n");
        ComposeConfig.of(app, children);
        Files.writeString(envFile, "NOTE=b\n");

        assertThat(ComposeConfig.of(app, children).text()).contains("NOTE: b");
        assertThat(cliCalls()).isEqualTo(2);
    }

    /**
     * The CLI opens an env_file as it resolves the compose, before any check sees the result, and
     * quotes its lines in its errors: a host file is refused before any docker CLI runs.
     */
    @Test
    void anEnvFileOutsideTheTreeIsRefusedBeforeTheCliOpensIt() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside.env"), "not an env line: the host's own\n");
        for (String envFile : List.of(outside.toString(), "../outside.env", "${HOME}/x.env", "link.env")) {
            Files.deleteIfExists(app.recipeDir().resolve("link.env"));
            Files.createSymbolicLink(app.recipeDir().resolve("link.env"), outside);
            // in a merge key's anchor, as a long-form entry: the CLI expands both
            Files.writeString(app.recipeDir().resolve("compose.yml"), "x-env: &env\n  env_file: [{path: '" + envFile
                    + "', required: true}]\nservices:\n  app:\n    <<: *env\n    image: nginx:${TAG}\n");

            assertThatThrownBy(() -> ComposeConfig.of(app, children)).as(envFile).hasMessageStartingWith("memo: x-env.env_file"
                    + " reads the env file " + envFile + " (env_file), which is").hasMessageNotContaining("the host's own");
        }
        assertThat(cliCalls()).isZero();
    }

    /**
     * A compose is judged whole: a hostile service in the middle of a resolved compose larger than
     * a child's capped output (its first and last MiB) is seen and refused, where a cut copy lost it
     * and still parsed (the cut falls inside two block scalars of the same indentation).
     */
    @Test
    void aHostileServiceWhereACutWouldFallIsJudged() throws Exception {
        String filler = "          " + "f".repeat(100) + "\n";
        String pad = "    environment:\n      PAD: |\n" + filler.repeat((int) (1.5 * ChildProcesses.HEAD_BYTES / filler.length()));
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  pad1:\n    image: nginx:${TAG}\n" + pad
                + "  evil:\n    image: nginx:${TAG}\n    volumes: [\"/:/host\"]\n"
                + "  pad2:\n    image: nginx:${TAG}\n" + pad);

        ComposeConfig whole = ComposeConfig.of(app, children);
        assertThat(whole.text().length()).isGreaterThan(ChildProcesses.HEAD_BYTES + ChildProcesses.TAIL_BYTES);
        assertThatThrownBy(() -> new DeployPolicy(net.commoninternet.ccci.lifecycle.DeployAllowance.NONE, children).check(app))
                .hasMessageStartingWith("memo: service evil mounts the host path / (volumes)");
    }

    @Test
    void aResolvedComposeLargerThanTheBoundIsRefusedNotJudgedInPart() throws Exception {
        String filler = "          " + "f".repeat(100) + "\n";
        String pad = "    environment:\n      PAD: |\n" + filler.repeat((int) (0.6 * ComposeFiles.MAX_BYTES / filler.length()));
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  pad1:\n    image: nginx:${TAG}\n" + pad);
        Files.writeString(app.recipeDir().resolve("more.yml"), "services:\n  pad2:\n    image: nginx:${TAG}\n" + pad);
        EnvFile.read(app.envFile()).set("COMPOSE_FILE", "compose.yml:more.yml").write(app.envFile());

        assertThatThrownBy(() -> ComposeConfig.of(app, children)).hasMessage("memo: its resolved compose (compose.yml,"
                + " more.yml, merged and interpolated) is larger than 4 MiB, the most ccci judges (a compose is judged whole or"
                + " not at all): shrink the compose or the values it interpolates.");
    }
}
