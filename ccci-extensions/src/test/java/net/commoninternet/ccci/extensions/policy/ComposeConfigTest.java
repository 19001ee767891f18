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

    /**
     * A recipe's values interpolate its compose and never become the CLI's environment: a
     * {@code DOCKER_HOST} naming the recipe's own socket-proxy sidecar reaches the service's
     * environment as data, while the CLI (a wrapper records each call's environment) gets none of the
     * recipe's names, so neither its engine, its config folder nor its loader can be steered.
     */
    @Test
    void theAppsValuesInterpolateTheComposeButNeverBecomeTheClisEnvironment() throws Exception {
        Path seen = dir.resolve("seen.env");
        Path bin = dir.resolve("bin");
        String real = Files.readString(bin.resolve("docker")).lines().filter(l -> l.startsWith("exec")).findFirst().orElseThrow();
        Files.writeString(bin.resolve("docker"), "#!/bin/sh\nenv >> '" + seen + "'\n" + real + "\n");
        Files.writeString(app.envFile(), "TYPE=memo\nDOCKER_HOST=tcp://socket-proxy:2375\nLD_PRELOAD=/nonexistent/evil.so\n"
                + "DOCKER_CONFIG=" + dir + "\nGIT_DIR=/x\nPROXY_PORT=2375\nN=2\n");
        Files.writeString(app.recipeDir().resolve("compose.yml"), "version: \"3.8\"\nservices:\n  app:\n"
                + "    image: nginx:${TAG:-1.25}\n    command: [\"sh\", \"-c\", \"echo $$HOME $${DOCKER_HOST}\"]\n"
                + "    environment:\n      - DOCKER_HOST=${DOCKER_HOST}\n      - PROXY_PORT\n      - LD_PRELOAD\n"
                + "    deploy:\n      replicas: ${N}\n");

        ComposeConfig config = ComposeConfig.of(app, children);

        com.fasterxml.jackson.databind.JsonNode service = config.tree().path("services").path("app");
        assertThat(service.path("image").asText()).isEqualTo("nginx:1.25");
        assertThat(service.path("environment").path("DOCKER_HOST").asText()).isEqualTo("tcp://socket-proxy:2375");
        assertThat(service.path("environment").path("PROXY_PORT").asText()).isEqualTo("2375");
        assertThat(service.path("environment").path("LD_PRELOAD").asText()).isEqualTo("/nonexistent/evil.so");
        assertThat(service.path("command").toString()).isEqualTo("[\"sh\",\"-c\",\"echo $HOME ${DOCKER_HOST}\"]");
        assertThat(service.path("deploy").path("replicas").isInt()).isTrue();
        String cli = Files.readString(seen);
        assertThat(cli).isNotEmpty().doesNotContain("socket-proxy", "LD_PRELOAD", "DOCKER_CONFIG", "GIT_DIR", "PROXY_PORT");
    }

    /**
     * The interpolation in ccci's JVM is the docker CLI's: the same templates, quirks included, give
     * the same values as the real CLI interpolating from its own environment, and the ones it
     * refuses are refused.
     */
    @Test
    void theInterpolationIsTheDockerClisOwn() throws Exception {
        List<String> templates = List.of("${A}", "$A", "${A:-d}", "${U:-d}", "${E:-d}", "${E-d}", "${U-d}", "$A-x", "$U-x y z",
                "${A?msg}", "${E:+x}x}", "$$A", "$$$A", "a$${A}b", "${a}", "${A:?a-b}", "${U:?a-b}", "x${A}y${B}z",
                "${A}${A}", "$A_B", "${A_B:-$A}", "{}$", "100%", "${}");
        Map<String, String> env = Map.of("A", "va", "B", "v$b", "E", "", "a", "lower", "A_B", "ab");
        StringBuilder compose = new StringBuilder("version: \"3.8\"\nservices:\n  app:\n    image: nginx:1\n    environment:\n");
        for (int i = 0; i < templates.size(); i++) {
            compose.append("      V").append(i).append(": '").append(templates.get(i)).append("'\n");
        }
        for (int i = 0; i < templates.size(); i++) {
            String one = "version: \"3.8\"\nservices:\n  app:\n    image: nginx:1\n    environment:\n      V: '"
                    + templates.get(i) + "'\n";
            Files.writeString(app.recipeDir().resolve("compose.yml"), one);
            StringBuilder lines = new StringBuilder("TYPE=memo\n");
            env.forEach((k, v) -> lines.append(k).append("='").append(v).append("'\n"));
            Files.writeString(app.envFile(), lines.toString());
            ChildProcesses.Whole byCli = children.runWhole(List.of("docker", "stack", "config", "-c", "compose.yml"),
                    app.recipeDir(), withStack(env), java.time.Duration.ofMinutes(1), ComposeFiles.MAX_BYTES);
            if (byCli.ok()) {
                String expected = net.commoninternet.ccci.extensions.recipe.RecipeLabels.parseWhole(byCli.stdout())
                        .path("services").path("app").path("environment").path("V").asText();
                assertThat(ComposeConfig.of(app, children).tree().path("services").path("app").path("environment").path("V")
                        .asText()).as(templates.get(i)).isEqualTo(expected);
            } else {
                assertThatThrownBy(() -> ComposeConfig.of(app, children)).as(templates.get(i) + ": " + byCli.stderr())
                        .hasMessageContaining("has an interpolation the docker CLI refuses");
            }
        }
    }

    private Map<String, String> withStack(Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("STACK_NAME", app.stack());
        return all;
    }
}
