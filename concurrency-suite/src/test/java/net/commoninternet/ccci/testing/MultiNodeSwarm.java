package net.commoninternet.ccci.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The project's multi-node test bed, {@code scripts/multinode-swarm}: three extra dockerd engines
 * in network namespaces of this machine, joined into one swarm of three managers, each reached at
 * {@code /run/ccci-msw-n<i>.sock}. The tests that need it bring it up (idempotent, ~6 s from
 * nothing) and take it down when they are done; the main engine and its swarm are never touched.
 * A node's engine is killed for real (SIGKILL of its dockerd, by its pidfile).
 */
public final class MultiNodeSwarm {

    public static final int NODES = 3;
    private static final Path SCRIPT = projectRoot().resolve("scripts/multinode-swarm");

    private MultiNodeSwarm() {
    }

    /** Brings the three-node swarm up (or finds it up); its output, for the test's log. */
    public static String up() throws IOException, InterruptedException {
        return script("up");
    }

    /** Removes everything of the test bed. */
    public static String down() throws IOException, InterruptedException {
        return script("down");
    }

    /** {@code unix:///run/ccci-msw-n<i>.sock}, node {@code i} from 1. */
    public static String socket(int node) {
        return "unix:///run/ccci-msw-n" + node + ".sock";
    }

    /** The node name, as swarm shows it and as the node label {@code ccci.msw.node} says. */
    public static String name(int node) {
        return "ccci-msw-n" + node;
    }

    /** SIGKILL of node {@code i}'s dockerd: its engine stops answering at once, its tasks' processes live on. */
    public static void killEngine(int node) throws IOException {
        long pid = Long.parseLong(Files.readString(Path.of("/run/ccci-msw/" + name(node) + ".pid")).strip());
        Helper.kill(pid, 9);
    }

    /** SIGHUP to node {@code i}'s dockerd: it reads its daemon.json again (runtimes, default-runtime). */
    public static void reloadEngine(int node) throws IOException, InterruptedException {
        long pid = Long.parseLong(Files.readString(Path.of("/run/ccci-msw/" + name(node) + ".pid")).strip());
        Helper.kill(pid, 1);
        String want = Files.readString(Path.of("/var/lib/ccci-msw", name(node), "daemon.json")).contains("runsc") ? "runsc" : "runc";
        org.awaitility.Awaitility.await(name(node) + " takes the default runtime " + want).atMost(Duration.ofSeconds(20))
                .until(() -> run(List.of("docker", "-H", socket(node), "info", "--format", "{{.DefaultRuntime}}")).strip(), want::equals);
    }

    /** scripts/egress-rules in node {@code i}'s namespace (what the bed's up does). */
    public static void egressRules(int node) throws IOException, InterruptedException {
        run(List.of("bash", projectRoot().resolve("scripts/egress-rules").toString(), name(node)));
    }

    /** The egress rules' hooks taken out of node {@code i}'s namespace: its containers reach what the rules kept them from. */
    public static void withoutEgressRules(int node) throws IOException, InterruptedException {
        run(List.of("sh", "-c", "for c in DOCKER-USER INPUT; do nsenter --net=/run/netns/" + name(node) + " iptables -w -S $c"
                + " | grep 'ccci-egress' | sed 's/^-A /-D /' | while read -r rule; do eval nsenter --net=/run/netns/" + name(node)
                + " iptables -w $rule; done; done"));
    }

    /** The number of the node that is the raft leader now (asked of node {@code via}). */
    public static int leader(int via) throws IOException, InterruptedException {
        String out = run(List.of("docker", "-H", socket(via), "node", "ls", "--format", "{{.Hostname}} {{.ManagerStatus}}"));
        for (String line : out.split("\n")) {
            if (line.endsWith(" Leader")) {
                return Integer.parseInt(line.substring("ccci-msw-n".length(), line.indexOf(' ')));
            }
        }
        throw new AssertionError("no leader in: " + out);
    }

    /** {@code docker stack deploy} of {@code compose} as {@code stack}, through node {@code via}'s engine. */
    public static void deploy(int via, Path compose, String stack) throws IOException, InterruptedException {
        run(List.of("docker", "-H", socket(via), "stack", "deploy", "--resolve-image", "never", "-c", compose.toString(), stack));
    }

    private static String script(String verb) throws IOException, InterruptedException {
        return run(List.of("bash", SCRIPT.toString(), verb));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", "HOME", "/root"));
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("scripts/multinode-swarm"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("scripts/multinode-swarm not found above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
