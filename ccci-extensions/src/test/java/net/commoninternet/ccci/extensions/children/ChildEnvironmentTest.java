package net.commoninternet.ccci.extensions.children;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A child of a run starts from the environment ccci chooses, never the JVM's whole one (under CI
 * that holds the CI's secrets); checked with real children ({@code env}, the docker CLI).
 */
class ChildEnvironmentTest {

    @Test
    void ofTheHostsEnvironmentOnlyTheAllowlistReachesAChild() {
        Map<String, String> host = Map.of("PATH", "/usr/bin:/bin", "HOME", "/root", "DRONE_TOKEN", "tok123",
                "LD_PRELOAD", "/tmp/evil.so", "GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='touch /tmp/x'",
                "AWS_SECRET_ACCESS_KEY", "s3cr3t", "CCCI_TEST_CHILDREN_LOG", "/tmp/children.log");

        assertThat(ChildEnvironment.fromHost(host)).isEqualTo(Map.of("PATH", "/usr/bin:/bin", "HOME", "/root",
                "CCCI_TEST_CHILDREN_LOG", "/tmp/children.log"));
        assertThat(ChildEnvironment.fromHost(Map.of())).containsOnlyKeys("PATH");
    }

    @Test
    void aRealChildSeesNoVariableOfTheJvmBeyondTheAllowlist() throws Exception {
        Set<String> jvm = System.getenv().keySet();
        Set<String> beyond = jvm.stream().filter(k -> !ChildEnvironment.FROM_HOST.contains(k)
                && !k.startsWith(ChildEnvironment.TEST_PREFIX)).collect(Collectors.toSet());
        // under Maven the JVM always has variables of its own (JAVA_HOME, MAVEN_*, ...): the test can fail
        assertThat(beyond).isNotEmpty();

        ChildProcesses children = new ChildProcesses(Map.of("ABRA_DIR", "/run/abra"));
        String out = children.run(List.of("env"), null, Map.of("APP_VALUE", "1", "ABRA_DIR", "/caller/cannot"),
                Duration.ofSeconds(10)).orThrow().output();
        Set<String> seen = Arrays.stream(out.split("\n")).filter(l -> l.contains("="))
                .map(l -> l.substring(0, l.indexOf('='))).collect(Collectors.toCollection(HashSet::new));
        seen.remove("PWD"); // set by the child itself (a shell) if at all
        seen.remove("_");
        seen.remove("SHLVL");

        assertThat(seen).doesNotContainAnyElementsOf(beyond);
        assertThat(seen).contains("APP_VALUE", "ABRA_DIR", "PATH");
        assertThat(out).contains("ABRA_DIR=/run/abra").doesNotContain("/caller/cannot");
    }

    @Test
    void aHostVariableNeverReachesTheDockerCLIsInterpolation() throws Exception {
        Optional<String> hostOnly = System.getenv().keySet().stream()
                .filter(k -> k.matches("[A-Z][A-Z0-9_]*") && !ChildEnvironment.FROM_HOST.contains(k))
                .filter(k -> System.getenv(k).matches("[A-Za-z0-9._/:-]{6,}")).findFirst();
        assertThat(hostOnly).isPresent();
        Path dir = Files.createTempDirectory("i11-env");
        try {
            Files.writeString(dir.resolve("compose.yml"),
                    "services:\n  app:\n    image: \"img-${" + hostOnly.get() + ":-unset}\"\n");
            String out = new ChildProcesses(Map.of()).run(List.of("docker", "stack", "config", "-c", "compose.yml"), dir,
                    Map.of(), Duration.ofSeconds(30)).orThrow().output();

            assertThat(out).as(hostOnly.get()).contains("image: img-unset").doesNotContain(System.getenv(hostOnly.get()));
        } finally {
            org.apache.commons.io.file.PathUtils.deleteDirectory(dir);
        }
    }

    @Test
    void namesThatSteerAChildAreKnownAndValuesForAComposeFileAreNot() {
        for (String name : List.of("LD_PRELOAD", "LD_LIBRARY_PATH", "PATH", "HOME", "DOCKER_HOST", "DOCKER_CONFIG",
                "DOCKER_API_VERSION", "GIT_CONFIG_COUNT", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "https_proxy", "HTTPS_PROXY",
                "BASH_ENV", "OTEL_EXPORTER_OTLP_ENDPOINT", "RESTIC_PASSWORD_COMMAND", "ABRA_DIR", "CCCI_DEPLOYS_FILE",
                "GODEBUG", "XDG_CONFIG_HOME", "CCCI_TEST_DEPLOY_GATE")) {
            assertThat(ChildEnvironment.steersAChild(name)).as(name).isTrue();
        }
        for (String name : List.of("DOMAIN", "TYPE", "COMPOSE_FILE", "SECRET_DB_PASSWORD_VERSION", "STACK_NAME",
                "APP_CGI_VERSION", "LETS_ENCRYPT_ENV", "DB_HOST", "SMTP_HOST", "CCCI_SITE_NOTE")) {
            assertThat(ChildEnvironment.steersAChild(name)).as(name).isFalse();
        }
    }
}
