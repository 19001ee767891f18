package net.commoninternet.ccci.extensions.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
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
        String real = java.util.Arrays.stream(System.getenv("PATH").split(":")).map(p -> Path.of(p, "docker"))
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
    void aComposeNamingAnEnvFileIsReadEveryTime() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside.env"), "NOTE=a\n");
        Files.writeString(app.recipeDir().resolve("compose.yml"), "services:\n  app:\n    image: nginx:${TAG}\n"
                + "    env_file: [" + outside + "]\n");
        ComposeConfig.of(app, children);
        Files.writeString(outside, "NOTE=b\n");

        assertThat(ComposeConfig.of(app, children).text()).contains("NOTE: b");
        assertThat(cliCalls()).isEqualTo(2);
    }
}
