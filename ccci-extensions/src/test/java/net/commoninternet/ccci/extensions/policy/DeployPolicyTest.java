package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deploy policy on the final compose as the real docker CLI prints it
 * ({@code docker stack config}, which reads no daemon): each way a compose can reach the host,
 * as found on this engine (docs/security.md), is refused in one sentence naming the service,
 * the key and the fix; an operator's allowance lets exactly its entry through.
 */
class DeployPolicyTest {

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());
    private final DeployPolicy none = new DeployPolicy(DeployAllowance.NONE, children);

    private App app(String compose, String... files) throws IOException {
        App app = TempApp.create(dir, "evil", Map.of(), "TYPE=evil");
        Files.writeString(app.recipeDir().resolve("compose.yml"), compose);
        for (int i = 0; i < files.length; i += 2) {
            Path file = app.recipeDir().resolve(files[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, files[i + 1]);
        }
        return app;
    }

    private static final String SERVICE = "services:\n  app:\n    image: ccci.local/busybox:1\n";

    private String refusal(String compose, String... files) throws Exception {
        App app = app(compose, files);
        return assertThatThrownBy(() -> none.check(app)).isInstanceOf(IllegalStateException.class)
                .actual().getMessage();
    }

    @Test
    void aRecipeOfItsOwnObjectsOnlyPasses() throws Exception {
        App app = app(SERVICE + "    networks: [proxy, internal]\n    volumes: [data:/data, {type: tmpfs, target: /t}]\n"
                + "    secrets: [pw]\n    configs: [{source: site, target: /site}]\n    env_file: [app.env]\n"
                + "secrets:\n  pw:\n    external: true\n    name: ${STACK_NAME}_pw_v1\n"
                + "configs:\n  site:\n    name: ${STACK_NAME}_site_v1\n    file: site.conf\n    template_driver: golang\n"
                + "volumes:\n  data:\n"
                + "networks:\n  proxy:\n    external: true\n  internal:\n",
                "site.conf", "x", "app.env", "A=1");

        assertThat(none.check(app).services()).hasSize(1);
    }

    @Test
    void theDockerSocketAndTheHostsRootAreRefusedNamingServiceKeyAndFix() throws Exception {
        assertThat(refusal(SERVICE + "    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n")).isEqualTo(
                "evil: service app mounts the host path /var/run/docker.sock (volumes), which reaches the host beyond the"
                        + " run's own swarm objects: a recipe keeps its data in volumes of its own and its files in configs;"
                        + " replace the bind mount. If this host's operator trusts evil with it, run with"
                        + " -Dccci.deploy-allowance=evil:volumes=/var/run/docker.sock.");
        assertThat(refusal(SERVICE + "    volumes: [{type: bind, source: /, target: /host}]\n"))
                .startsWith("evil: service app mounts the host path / (volumes)");
        // relative binds are host paths too (the recipe's folder is the host's)
        assertThat(refusal(SERVICE + "    volumes: [./h:/h]\n")).contains("mounts the host path /").contains("(volumes)");
    }

    @Test
    void everyOtherWayToTheHostIsRefused() throws Exception {
        assertThat(refusal(SERVICE + "    cap_add: [sys_admin]\n")).startsWith("evil: service app adds the capability SYS_ADMIN (cap_add)");
        assertThat(refusal(SERVICE + "    privileged: true\n")).startsWith("evil: service app sets true (privileged)");
        assertThat(refusal(SERVICE + "    pid: host\n")).startsWith("evil: service app sets host (pid)");
        assertThat(refusal(SERVICE + "    devices: [/dev/fuse:/dev/fuse]\n")).contains("(devices)");
        assertThat(refusal(SERVICE + "    security_opt: [seccomp:unconfined]\n")).contains("(security_opt)");
        assertThat(refusal(SERVICE + "    ports: [{target: 80, published: 18080, mode: host}]\n"))
                .startsWith("evil: service app publishes the port 18080 (ports)");
        assertThat(refusal(SERVICE + "    networks: [host]\nnetworks:\n  host:\n    external: true\n"))
                .startsWith("evil: network host is the external network host (networks)");
        assertThat(refusal(SERVICE + "    networks: [out]\nnetworks:\n  out:\n    external: true\n    name: host\n"))
                .startsWith("evil: network out is the external network host (networks)");
        assertThat(refusal(SERVICE + "    volumes: [etc:/etc2]\nvolumes:\n  etc:\n    driver_opts: {type: none, o: bind,"
                + " device: /etc}\n")).startsWith("evil: volume etc has the driver_opts").contains("(driver_opts)");
        assertThat(refusal(SERVICE + "    volumes: [other:/o]\nvolumes:\n  other:\n    external: true\n    name: x_content\n"))
                .startsWith("evil: volume other is the external volume x_content (volumes)");
        assertThat(refusal(SERVICE + "    env_file: [/proc/self/environ]\n"))
                .startsWith("evil: service app reads the env file /proc/self/environ (env_file)");
    }

    @Test
    void secretsAndConfigsAreTheRunsOwnMadeFromFilesOfTheTree() throws Exception {
        assertThat(refusal(SERVICE + "    secrets: [s]\nsecrets:\n  s:\n    file: /etc/hostname\n"))
                .startsWith("evil: secret s is made from the file /etc/hostname (secrets)");
        assertThat(refusal(SERVICE + "    secrets: [s]\nsecrets:\n  s:\n    file: ../../../../../../etc/hostname\n"))
                .startsWith("evil: secret s is made from the file /etc/hostname (secrets)");
        assertThat(refusal(SERVICE + "    configs: [c]\nconfigs:\n  c:\n    external: true\n    name: other-stack_c_v1\n"))
                .startsWith("evil: config c is the external object other-stack_c_v1 (configs)");
        assertThat(refusal(SERVICE + "    secrets: [s]\nsecrets:\n  s:\n    external: true\n    name: other_ci_s_v1\n"))
                .startsWith("evil: secret s is the external object other_ci_s_v1 (secrets)");
        // a name: override outside the stack's namespace would reuse (and at teardown remove) another stack's object
        assertThat(refusal(SERVICE + "    volumes: [v:/v]\nvolumes:\n  v:\n    name: other_ci_content\n"))
                .startsWith("evil: volume v is named other_ci_content (volumes)");

        // the CLI prints a link as the link: its real path is what it reads
        App linked = app(SERVICE + "    secrets: [s]\nsecrets:\n  s:\n    file: ./link\n");
        Files.createSymbolicLink(linked.recipeDir().resolve("link"), Path.of("/etc/hostname"));
        assertThatThrownBy(() -> none.check(linked)).hasMessageStartingWith("evil: secret s is made from the file ")
                .hasMessageContaining("link (secrets)");
    }

    @Test
    void aBackupPathThatClimbsOutIsRefusedWhateverTheAllowance() throws Exception {
        String labels = "    deploy:\n      labels:\n        - \"backupbot.backup=true\"\n";
        assertThat(refusal(SERVICE + labels + "        - \"backupbot.backup.path=/var/www/../../etc\"\n")).isEqualTo(
                "evil: service app has the label backupbot.backup.path=/var/www/../../etc, a backup path that climbs out"
                        + " with '..': a backup holds only the service's own volumes; name the path inside its volume"
                        + " without '..'.");
        assertThat(refusal(SERVICE + "    volumes: [data:/data]\n" + labels
                + "        - \"backupbot.backup.volumes.data.path=a, ../../..\"\nvolumes:\n  data:\n"))
                .startsWith("evil: service app has the label backupbot.backup.volumes.data.path=a, ../../.., a backup path");
        DeployAllowance everything = new DeployAllowance(DeployAllowance.KEYS.stream()
                .map(key -> new DeployAllowance.Entry("evil", key, Optional.<String>empty()))
                .collect(Collectors.toSet()));
        App climbing = app(SERVICE + labels + "        - \"backupbot.backup.path=/srv/..\"\n");
        assertThatThrownBy(() -> new DeployPolicy(everything, children).check(climbing)).hasMessageContaining("climbs out");
        // a name with dots in it is not a climb
        App dotted = app(SERVICE + "    volumes: [data:/data]\n" + labels + "        - \"backupbot.backup.path=/data/..cache,/data/a..b\"\n"
                + "volumes:\n  data:\n");
        assertThat(none.check(dotted).services()).hasSize(1);
    }

    @Test
    void anOperatorsAllowanceLetsExactlyItsEntryThrough() throws Exception {
        App app = app(SERVICE + "    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n    cap_add: [NET_ADMIN]\n");
        DeployAllowance socket = new DeployAllowance(Set.of(
                new DeployAllowance.Entry("evil", "volumes", Optional.of("/var/run/docker.sock"))));
        assertThatThrownBy(() -> new DeployPolicy(socket, children).check(app))
                .hasMessageStartingWith("evil: service app adds the capability NET_ADMIN (cap_add)");

        DeployAllowance both = new DeployAllowance(Set.of(
                new DeployAllowance.Entry("evil", "volumes", Optional.of("/var/run/docker.sock")),
                new DeployAllowance.Entry("evil", "cap_add", Optional.empty())));
        assertThat(new DeployPolicy(both, children).check(app).services()).hasSize(1);

        App root = app(SERVICE + "    volumes: [/:/host]\n");
        assertThatThrownBy(() -> new DeployPolicy(both, children).check(root))
                .hasMessageStartingWith("evil: service app mounts the host path / (volumes)");

        DeployAllowance otherRecipe = new DeployAllowance(Set.of(new DeployAllowance.Entry("traefik", "volumes",
                Optional.empty()), new DeployAllowance.Entry("traefik", "cap_add", Optional.empty())));
        assertThatThrownBy(() -> new DeployPolicy(otherRecipe, children).check(app)).hasMessageContaining("(volumes)");
    }

    @Test
    void theFindingsListEveryRefusalOfTheFinalComposeOverlaysIncluded() throws Exception {
        App app = app(SERVICE, "over.yml", "services:\n  app:\n    volumes: [/:/host]\n");
        Files.write(app.envFile(), List.of("TYPE=evil", "COMPOSE_FILE=compose.yml:over.yml"));

        assertThat(DeployPolicy.findings(app, ComposeConfig.of(app, children).tree()))
                .extracting(DeployPolicy.Finding::key, DeployPolicy.Finding::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("volumes", "/"));
    }

    /** Every version of every bundled recipe is of the keys and values ccci knows: the allowlist refuses none of them. */
    @Test
    void everyBundledRecipeAtEveryVersionPassesTheAllowlist() throws Exception {
        Path bundled = Path.of("..", "recipe-suites", "recipes").toRealPath();
        List<Path> versions;
        try (var walk = Files.list(bundled)) {
            versions = walk.flatMap(recipe -> {
                try {
                    return Files.list(recipe.resolve("versions"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sorted().toList();
        }
        assertThat(versions).hasSizeGreaterThanOrEqualTo(10);
        for (Path version : versions) {
            String recipe = version.getParent().getParent().getFileName().toString();
            Path tree = dir.resolve(recipe + "-" + version.getFileName());
            RecipeFetch.copyTree(version, tree);
            String domain = recipe.substring(0, Math.min(4, recipe.length())) + "-abc123.ci.example.org";
            Path envFile = dir.resolve("servers/default/" + domain + ".env");
            Files.createDirectories(envFile.getParent());
            EnvFile.read(tree.resolve(".env.sample")).replaceText(recipe + ".example.com", domain).set("DOMAIN", domain)
                    .write(envFile);
            App app = new App(recipe, domain, tree, envFile, Map.of());
            assertThat(DeployPolicy.findings(app, ComposeConfig.of(app, children).tree())).as(version.toString()).isEmpty();
        }
    }
}
