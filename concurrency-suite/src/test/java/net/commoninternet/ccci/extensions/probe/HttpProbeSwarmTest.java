package net.commoninternet.ccci.extensions.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.model.Container;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes of a stack on the real engine: every probe is a line to the attached shell of the
 * stack's one probe container on the stack's own network, as a run deploys it ({@link RunNetwork})
 * (the engine makes no exec in it; a
 * recipe's path with quotes and shell syntax stays one argument) (what it reaches is {@code tasks.<service>} on the
 * overlay, as traefik would), a probe that gets no answer is cut at its timeout by busybox's
 * {@code timeout} inside the container and leaves the container usable, and the stack's teardown
 * removes the probe container with the stack. The probe reaches its own stack alone: another
 * stack's service, deployed as a run deploys it, neither resolves nor answers from it.
 */
@RealEngine
class HttpProbeSwarmTest {

    private final String stack = "cccihttpprobe_" + Long.toHexString(System.nanoTime());
    private final String other = stack + "_other";
    private final DockerEngine docker = DockerEngine.connect();

    /** The stacks and their probe containers and networks, whatever the test left. */
    @AfterEach
    void removeTheStackAndCloseTheConnection() throws Exception {
        try {
            new StackTeardown(docker.client()).teardown(stack);
            new StackTeardown(docker.client()).teardown(other);
        } finally {
            docker.close();
        }
    }

    @Test
    void everyProbeOfAStackIsALineToItsOneProbeContainersShellAndTheContainerGoesWithTheStack(@TempDir Path dir) throws Exception {
        long since = System.currentTimeMillis() / 1000 - 1;
        deploy(dir, stack);
        HttpProbe probe = new HttpProbe(docker.client(), LocalImages.BUSYBOX, RunNetwork.of(stack).name(), Duration.ofSeconds(3));
        probe.prepare(stack);
        HttpProbe.Target web = probe.target(stack).orElseThrow();
        assertThat(web.service()).isEqualTo(stack + "_web");
        HttpProbe.Answer answer = probe.await(web, "probe.example", "/", List.of(200), Duration.ofMinutes(1));
        assertThat(answer.status()).as(answer.detail()).isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            HttpProbe.Answer again = probe.get(web, "probe.example", "/");
            assertThat(again.status()).as(again.detail()).isEqualTo(200);
            assertThat(again.body()).isEqualTo("hello from " + stack + "\n");
        }
        assertThat(probe.get(web, "probe.example", "/missing").status()).isEqualTo(404);
        // A recipe's path is one argument of wget, never shell syntax in the probe shell.
        assertThat(probe.get(web, "probe.example", "/it's$(touch /tmp/pwned)`touch /tmp/pwned`;touch /tmp/pwned").status())
                .as("httpd's answer to a path with quotes and spaces").isBetween(400, 499);
        long connects = System.nanoTime();
        assertThat(probe.tcp(web, 80, 3)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - connects)).as("three connects, one a second")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        List<Container> probes = probeContainers();
        assertThat(probes).as("one probe container for all the stack's probes").hasSize(1);
        assertThat(probes.get(0).getNetworkSettings().getNetworks()).as("the stack's own network, never the shared proxy")
                .containsOnlyKeys(stack + "_proxy");

        // A service that accepts and never answers: the probe ends at its timeout, not the engine's.
        HttpProbe.Target silent = new HttpProbe.Target(stack, stack + "_silent", 81);
        long started = System.nanoTime();
        HttpProbe.Answer none = probe.get(silent, "probe.example", "/");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(none.status()).isEqualTo(-1);
        assertThat(none.detail()).isEqualTo("no answer within 3 s");
        assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(8));
        assertThat(probe.tcp(new HttpProbe.Target(stack, stack + "_web", 9), 9, 1)).as("nothing listens on 9").isFalse();
        assertThat(probe.get(web, "probe.example", "/").status()).as("the probe container still serves").isEqualTo(200);
        assertThat(probeContainers()).hasSize(1);
        // every probe was a line to the container's shell, a timed-out one's included: the engine made no exec in it
        assertThat(execsIn(probes.get(0).getId(), since)).as("execs the engine made in the probe container").isZero();
        ContainerExec.Result pwned = new ContainerExec(docker.client()).sh(probes.get(0).getId(), "test ! -e /tmp/pwned");
        assertThat(pwned.ok()).as("the path's shell syntax ran in the probe container").isTrue();

        probe.close();
        assertThatThrownBy(() -> probe.get(web, "probe.example", "/")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("teardown has begun");
        StackTeardown teardown = new StackTeardown(docker.client());
        assertThat(teardown.leftovers(stack)).contains("probe container " + String.join(",", probes.get(0).getNames()));
        assertThat(teardown.teardown(stack)).isEmpty();
        assertThat(probeContainers()).as("the probe container went with its stack").isEmpty();
    }

    /** How many execs the engine's events show it made in {@code container} since {@code since} (epoch seconds). */
    private int execsIn(String container, long since) throws Exception {
        String filters = java.net.URLEncoder.encode("{\"container\":[\"" + container + "\"],\"event\":[\"exec_create\"]}",
                StandardCharsets.UTF_8);
        var request = com.github.dockerjava.transport.DockerHttpClient.Request.builder()
                .method(com.github.dockerjava.transport.DockerHttpClient.Request.Method.GET)
                .path("/events?since=" + since + "&until=" + (System.currentTimeMillis() / 1000 + 1) + "&filters=" + filters)
                .build();
        try (var response = docker.http().execute(request)) {
            assertThat(response.getStatusCode()).isEqualTo(200);
            String events = new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8);
            return (int) events.lines().filter(line -> line.contains("exec_create")).count();
        }
    }

    private List<Container> probeContainers() {
        return docker.client().listContainersCmd().withShowAll(true).withLabelFilter(Map.of(StackLabels.PROBE, stack)).exec();
    }

    /**
     * Two stacks, each on its own network as runs deploy them: the probe of one reaches its own app and
     * nothing of the other, by its {@code tasks.} name (no such name on its network) or by its task's
     * address (no route: another overlay). On the shared proxy, as before, the same GET got the other's page.
     */
    @Test
    void theProbeOfAStackReachesItsOwnAppButNothingOfAnotherStack(@TempDir Path dir) throws Exception {
        deploy(Files.createDirectories(dir.resolve("own")), stack);
        deploy(Files.createDirectories(dir.resolve("other")), other);
        try (HttpProbe probe = new HttpProbe(docker.client(), LocalImages.BUSYBOX, RunNetwork.of(stack).name(),
                Duration.ofSeconds(3))) {
            HttpProbe.Answer own = probe.await(probe.target(stack).orElseThrow(), "probe.example", "/", List.of(200),
                    Duration.ofMinutes(1));
            assertThat(own.status()).as(own.detail()).isEqualTo(200);
            assertThat(own.body()).isEqualTo("hello from " + stack + "\n");

            HttpProbe.Target theirs = new HttpProbe.Target(stack, other + "_web", 80);
            HttpProbe.Answer byName = probe.get(theirs, "probe.example", "/");
            assertThat(byName.status()).as("the other stack's app by its tasks. name: %s", byName.body()).isEqualTo(-1);
            assertThat(byName.detail()).contains("bad address 'tasks." + other + "_web:80'");
            String address = taskAddress(other + "_web");
            ContainerExec.Result direct = new ContainerExec(docker.client()).sh(probeContainers().get(0).getId(),
                    "busybox timeout -s KILL 5 wget -q -O - http://" + address + "/");
            assertThat(direct.ok()).as("the other stack's task at %s, by its address: %s", address, direct.output()).isFalse();
            assertThat(direct.output()).doesNotContain("hello from " + other);
        }
    }

    /** The first address of a running task of {@code service} on its stack's network (the engine's own answer). */
    private String taskAddress(String service) {
        for (var task : EngineLists.get(docker.http(), "/tasks", Map.of("service", List.of(service),
                "desired-state", List.of("running")))) {
            for (var attached : task.path("NetworksAttachments")) {
                for (var address : attached.path("Addresses")) {
                    return address.asText().replaceFirst("/.*", "");
                }
            }
        }
        throw new AssertionError("no running task of " + service);
    }

    private void deploy(Path dir, String stack) throws Exception {
        RunNetwork.of(stack).create(docker.client());
        Path compose = dir.resolve("compose.yml");
        Files.writeString(compose, """
                version: "3.8"
                services:
                  web:
                    image: %1$s
                    command: ["sh", "-c", "mkdir -p /var/www && echo 'hello from %2$s' > /var/www/index.html && exec httpd -f -p 80 -h /var/www"]
                    networks: [proxy]
                    deploy:
                      labels:
                        traefik.enable: "true"
                        traefik.http.services.web.loadbalancer.server.port: "80"
                  silent:
                    image: %1$s
                    command: ["sh", "-c", "while :; do sleep 3600 | nc -l -p 81 >/dev/null; done"]
                    networks: [proxy]
                networks:
                  proxy:
                    external: true
                    name: %3$s
                """.formatted(LocalImages.BUSYBOX, stack, RunNetwork.of(stack).name()), StandardCharsets.UTF_8);
        Process deploy = new ProcessBuilder("/usr/local/bin/docker", "stack", "deploy", "--detach=true", "--resolve-image",
                "never", "-c", compose.toString(), stack).redirectErrorStream(true).start();
        assertThat(deploy.waitFor()).as(new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        SwarmConvergence.Report report = new SwarmConvergence(docker).await(stack, Duration.ofMinutes(2));
        assertThat(report.converged()).as(report.problems().toString()).isTrue();
    }
}
