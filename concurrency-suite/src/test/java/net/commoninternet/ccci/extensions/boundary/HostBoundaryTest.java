package net.commoninternet.ccci.extensions.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.ContainerSpec;
import com.github.dockerjava.api.model.ServiceSpec;
import com.github.dockerjava.api.model.TaskSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's boundaries around a recipe's containers, on the real engine as scripts/setup-local-swarm
 * leaves it: a swarm task (which cannot choose its runtime) runs on gVisor's kernel, not the host's;
 * and a container on the proxy network, as every recipe's task is, reaches the internet but none of
 * the host's own listeners (by the bridges' gateway or the host's LAN address) nor a private or
 * link-local address the host routes to (a "LAN" and a cloud metadata address, in a network
 * namespace of this test's, each with a real listener that records what arrives).
 */
@RealEngine
class HostBoundaryTest {

    private static final String LAN_NS = "ccci-test-egress-lan";
    private static final String HOST_END = "ccci-eg-h";
    private static final String LAN_END = "ccci-eg-l";
    /** Private, link-local (a cloud's metadata address) and public destinations the host routes into the LAN namespace. */
    private static final String PRIVATE = "192.168.77.2";
    private static final String METADATA = "169.254.169.254";
    private static final String PUBLIC = "203.0.113.7";
    private static final int PORT = 18080;

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());
    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void removeWhatTheTestMade() {
        for (int i = cleanups.size() - 1; i >= 0; i--) {
            cleanups.get(i).run();
        }
    }

    private ChildProcesses.Result sh(String script) throws Exception {
        return children.run(List.of("sh", "-c", script), dir, Map.of(), Duration.ofMinutes(2));
    }

    @Test
    void aSwarmTaskRunsOnGvisorsKernelNotTheHosts() throws Exception {
        try (DockerEngine docker = DockerEngine.connect()) {
            String name = "ccci-test-kernel-" + ProcessHandle.current().pid();
            docker.client().createServiceCmd(new ServiceSpec().withName(name).withTaskTemplate(new TaskSpec()
                    .withContainerSpec(new ContainerSpec().withImage(LocalImages.BUSYBOX)
                            .withCommand(List.of("sleep", "600"))))).exec();
            try {
                String container = Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> docker.client()
                        .listContainersCmd().withLabelFilter(Map.of("com.docker.swarm.service.name", name)).exec().stream()
                        .findFirst().map(c -> c.getId()).orElse(null), id -> id != null);
                ChildProcesses.Result version = children.run(List.of("docker", "exec", container, "cat", "/proc/version"), dir,
                        docker.childEnvironment(), Duration.ofMinutes(1));

                assertThat(version.ok()).as(version.output()).isTrue();
                assertThat(version.output().strip()).isNotEqualTo(Files.readString(Path.of("/proc/version")).strip());
                assertThat(docker.client().inspectContainerCmd(container).exec().getHostConfig().getRuntime())
                        .isEqualTo("runsc");
                assertThat(docker.facts().defaultRuntime()).isEqualTo("runsc");
            } finally {
                docker.client().removeServiceCmd(name).exec();
            }
        }
    }

    @Test
    void aContainerOnProxyReachesTheInternetButNotTheHostItsLanOrALinkLocalAddress() throws Exception {
        Set<String> arrived = ConcurrentHashMap.newKeySet();
        // the host's own listener, on every address of the host
        ServerSocket host = new ServerSocket();
        host.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), PORT));
        cleanups.add(() -> close(host));
        Thread accepting = new Thread(() -> {
            while (!host.isClosed()) {
                try (Socket s = host.accept()) {
                    arrived.add("host <- " + s.getInetAddress().getHostAddress());
                } catch (IOException closed) {
                    return;
                }
            }
        });
        accepting.setDaemon(true);
        accepting.start();
        String lanAddress = sh("ip -4 route get 198.51.100.1 | sed -n 's/.* src \\([0-9.]*\\).*/\\1/p'").output().strip();

        // a network the host routes to: private, metadata and public addresses in a namespace of this test's
        cleanups.add(() -> quietly("ip link del " + HOST_END + "; ip netns del " + LAN_NS + "; for a in " + PRIVATE + " "
                + METADATA + " " + PUBLIC + "; do ip route del $a/32; done"));
        Path log = dir.resolve("lan-arrivals");
        Files.writeString(log, "");
        Path listener = Files.writeString(dir.resolve("listen.py"), """
                import socket, sys, threading
                def serve(addr):
                    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind((addr, %d)); s.listen()
                    while True:
                        c, peer = s.accept()
                        with open(sys.argv[1], "a") as f: f.write(addr + "\\n")
                        c.close()
                for a in sys.argv[2:]: threading.Thread(target=serve, args=(a,), daemon=True).start()
                open(sys.argv[1] + ".ready", "w").close()
                threading.Event().wait()
                """.formatted(PORT));
        ChildProcesses.Result made = sh("set -e; ip netns add " + LAN_NS + "; ip link add " + HOST_END + " type veth peer name "
                + LAN_END + " netns " + LAN_NS + "; ip addr add 100.127.77.1/30 dev " + HOST_END + "; ip link set " + HOST_END
                + " up; ip -n " + LAN_NS + " link set lo up; ip -n " + LAN_NS + " link set " + LAN_END + " up; ip -n " + LAN_NS
                + " addr add 100.127.77.2/30 dev " + LAN_END + "; for a in " + PRIVATE + " " + METADATA + " " + PUBLIC
                + "; do ip -n " + LAN_NS + " addr add $a/32 dev " + LAN_END + "; ip route add $a/32 via 100.127.77.2; done");
        assertThat(made.ok()).as(made.output()).isTrue();
        Process lan = new ProcessBuilder("ip", "netns", "exec", LAN_NS, "python3", listener.toString(), log.toString(), PRIVATE,
                METADATA, PUBLIC).redirectErrorStream(true).start();
        cleanups.add(lan::destroyForcibly);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(Path.of(log + ".ready")));
        // the host itself reaches the LAN namespace: the listeners and the routes work
        try (Socket reach = new Socket()) {
            reach.connect(new InetSocketAddress(PRIVATE, PORT), 3000);
        }
        // the listener writes its line after the kernel accepted the connection: the host's own
        // arrival is in the log before it is cleared, never after
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Files.readAllLines(log).contains(PRIVATE));
        Files.writeString(log, "");

        // a container on proxy, under the engine's default runtime, as a recipe's task is
        String tries = String.join(" ", "172.18.0.1", lanAddress, PRIVATE, METADATA, PUBLIC);
        ChildProcesses.Result probe = children.run(List.of("docker", "run", "--rm", "--network", "proxy", LocalImages.BUSYBOX,
                "sh", "-c", "for t in " + tries + "; do if timeout 5 nc $t " + PORT + " </dev/null; then echo \"$t reached\";"
                        + " else echo \"$t refused\"; fi; done"), dir, Map.of(), Duration.ofMinutes(2));

        assertThat(probe.output()).as(probe.output()).contains("172.18.0.1 refused", lanAddress + " refused", PRIVATE + " refused",
                METADATA + " refused", PUBLIC + " reached");
        assertThat(Files.readAllLines(log)).as("what arrived in the LAN namespace").containsExactly(PUBLIC);
        assertThat(arrived).as("what arrived at the host's own listener").isEmpty();
    }

    private void quietly(String script) {
        try {
            sh(script);
        } catch (Exception e) {
            // best effort: the namespace and routes are this test's alone
        }
    }

    private static void close(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }
}
