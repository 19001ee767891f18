package net.commoninternet.ccci.extensions.boundary;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.lifecycle.RunSettings.HostTrust.Boundary;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host's two boundaries around every recipe container, checked at each run's start, before
 * anything of the run exists on the engine (docs/security.md):
 * <ul>
 *   <li>the kernel boundary: the engine's default runtime is gVisor's {@code runsc} (a swarm task
 *       cannot choose its runtime, so the default covers every recipe container, and ccci's own
 *       probe and backup containers too);
 *   <li>the egress rules of {@code scripts/egress-rules}, in the network namespace the engine's
 *       containers are routed in: found from the engine's unix socket (the namespace whose
 *       {@code /proc/<pid>/net/unix} lists it listening), read with {@code iptables-save}, and
 *       checked to come first in {@code DOCKER-USER} and {@code INPUT} (a rule before them could
 *       accept what they reject).
 * </ul>
 * A run on an engine without one says so in one line and refuses, unless this host's operator
 * accepts it ({@code -Dccci.host.unconfined=runtime,egress}): the operator, never the recipe. A
 * remote engine ({@code tcp://}) cannot have its rules read from here, which the run says too.
 */
@API(status = API.Status.INTERNAL)
public final class EngineBoundary {

    private static final Logger LOG = LoggerFactory.getLogger(EngineBoundary.class);
    /** What every rule of scripts/egress-rules carries. */
    static final String TAG = "ccci-egress v1";
    /** The destinations the rules must reject, at the least. */
    private static final List<String> REJECTED = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16");
    private static final String FIX = "scripts/setup-local-swarm installs it";

    private EngineBoundary() {
    }

    /**
     * Both boundaries, or one sentence per missing one: refused unless {@code accepted}, else warned.
     * The accepted ones are not checked at all (the operator has said this host runs without them).
     * The egress rules of the engine's host are read before ({@link #egressMissing}, for {@code
     * docker.host()}: the run reads them while its connection is made); {@code egressMissing} is
     * what that said, and is not looked at when the egress boundary is accepted.
     */
    public static void require(DockerEngine docker, Set<Boundary> accepted, Optional<String> egressMissing) {
        Map<Boundary, Optional<String>> missing = new EnumMap<>(Boundary.class);
        if (!accepted.contains(Boundary.RUNTIME)) {
            missing.put(Boundary.RUNTIME, runtimeMissing(docker.host(), docker.facts()));
        }
        if (!accepted.contains(Boundary.EGRESS)) {
            missing.put(Boundary.EGRESS, egressMissing);
        }
        for (Boundary boundary : accepted) {
            LOG.warn("!! this host runs recipe containers without the {} boundary (accepted on this host with"
                    + " -Dccci.host.unconfined) !!", boundary.key());
        }
        List<String> refusals = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (Map.Entry<Boundary, Optional<String>> e : missing.entrySet()) {
            e.getValue().ifPresent(why -> {
                refusals.add(why);
                keys.add(e.getKey().key());
            });
        }
        if (!refusals.isEmpty()) {
            // every missing boundary at once: the operator fixes (or accepts) them in one go
            throw new IllegalStateException(String.join(" ", refusals) + " If this host's operator accepts that, run with"
                    + " -Dccci.host.unconfined=" + String.join(",", keys) + ".");
        }
        LOG.info("engine {}: recipe containers run under gVisor ({}), behind the egress rules", docker.host(),
                docker.facts().runtimePath());
    }

    /** Why the engine's containers would share the host's kernel, or empty if they run under runsc. */
    static Optional<String> runtimeMissing(String host, DockerEngine.Facts facts) {
        String path = facts.runtimePath();
        if (facts.defaultRuntime().equals("runsc") || Path.of(path.isEmpty() ? "runc" : path).getFileName().toString()
                .equals("runsc")) {
            return Optional.empty();
        }
        return Optional.of("the engine at " + host + " runs containers with " + facts.defaultRuntime() + ", not gVisor's"
                + " runsc, so a recipe's container shares the host's kernel: make runsc the engine's default runtime ("
                + FIX + ").");
    }

    /**
     * Why a recipe's container could reach the host or its networks, or empty if the egress rules
     * are in place: read on this host, with nothing of the engine's but its address, so a run can
     * begin it while its connection is still being made.
     */
    public static Optional<String> egressMissing(String host, ChildProcesses children) throws IOException, InterruptedException {
        URI uri = URI.create(host);
        if (!"unix".equals(uri.getScheme())) {
            return Optional.of("the engine at " + host + " is remote, so ccci cannot read its egress rules from this host:"
                    + " install them on its host (scripts/egress-rules).");
        }
        // Any process of the engine's network namespace stands for it, a short-lived one too: one that ended
        // before nsenter entered its namespace is looked for again (a few times), never read as an error.
        for (int attempt = 1; ; attempt++) {
            Optional<String> pid = namespaceOf(Path.of(uri.getPath()));
            if (pid.isEmpty()) {
                return Optional.of("no process of this host listens on " + host + ", so ccci cannot find the network"
                        + " namespace whose egress rules apply to its containers: run ccci on the engine's host.");
            }
            List<String> command = new ArrayList<>(List.of("iptables-save", "-t", "filter"));
            if (!pid.get().equals("self")) {
                command.addAll(0, List.of("nsenter", "--net=/proc/" + pid.get() + "/ns/net"));
            }
            ChildProcesses.Whole rules = children.runWhole(command, null, Map.of(), Duration.ofSeconds(30), 4 << 20);
            if (!rules.ok() && attempt < 4 && !pid.get().equals("self") && !Files.exists(Path.of("/proc", pid.get()))) {
                continue;
            }
            return judged(host, command, rules);
        }
    }

    /** What the filter table {@code command} read says of the egress rules, or why it could not be read. */
    private static Optional<String> judged(String host, List<String> command, ChildProcesses.Whole rules) {
        if (!rules.ok()) {
            return Optional.of("ccci could not read the egress rules of the engine at " + host + " (" + String.join(" ",
                    command) + ": " + rules.stderr().strip() + "): run ccci as root on the engine's host.");
        }
        return rulesMissing(host, rules.stdout());
    }

    /**
     * Why {@code iptablesSave} (the filter table as {@code iptables-save} prints it) lacks the egress
     * rules, or empty: the rejecting chain with its ranges, hooked first in DOCKER-USER (forwarded
     * traffic) and INPUT (the host's own addresses) for the bridge every overlay network leaves by.
     */
    static Optional<String> rulesMissing(String host, String iptablesSave) {
        List<String> lines = iptablesSave.lines().map(String::strip).toList();
        List<String> problems = new ArrayList<>();
        for (String range : REJECTED) {
            if (lines.stream().noneMatch(l -> l.startsWith("-A CCCI-EGRESS -d " + range) && l.contains(TAG) && l.contains("REJECT"))) {
                problems.add("nothing rejects " + range);
            }
        }
        for (String chain : List.of("DOCKER-USER", "INPUT")) {
            List<String> rules = lines.stream().filter(l -> l.startsWith("-A " + chain + " ")).toList();
            int ours = (int) rules.stream().takeWhile(l -> l.contains(TAG)).count();
            if (rules.subList(0, ours).stream().noneMatch(l -> l.contains("-i docker_gwbridge "))) {
                problems.add(rules.stream().anyMatch(l -> l.contains(TAG)) ? chain + " has a rule before ccci's"
                        : chain + " does not send the engine's bridges to them");
            }
        }
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the egress rules are not in place for the engine at " + host + " (" + String.join("; ", problems)
                + "), so a recipe's container could reach this host, its LAN or a private or link-local address: install"
                + " them (" + FIX + ", or scripts/egress-rules alone).");
    }

    /**
     * The process whose network namespace holds the unix socket {@code socket} listening ({@code self}
     * if it is ccci's own), from {@code /proc/<pid>/net/unix} of one process per namespace.
     */
    static Optional<String> namespaceOf(Path socket) throws IOException {
        if (listens(Path.of("/proc/self/net/unix"), socket)) {
            return Optional.of("self");
        }
        Set<String> seen = new HashSet<>();
        seen.add(Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString());
        List<Path> processes;
        try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
            processes = proc.filter(p -> p.getFileName().toString().matches("\\d+")).toList();
        }
        for (Path process : processes) {
            try {
                String namespace = Files.readSymbolicLink(process.resolve("ns/net")).toString();
                if (seen.add(namespace) && listens(process.resolve("net/unix"), socket)) {
                    return Optional.of(process.getFileName().toString());
                }
            } catch (IOException gone) {
                // the process ended while it was looked at
            }
        }
        return Optional.empty();
    }

    /** Whether the table lists {@code socket} as a listening socket ({@code __SO_ACCEPTCON}). */
    private static boolean listens(Path unixTable, Path socket) throws IOException {
        Set<String> names = new HashSet<>(List.of(socket.toString()));
        if (Files.exists(socket)) {
            names.add(socket.toRealPath().toString()); // /var/run/docker.sock is bound as /run/docker.sock or the other way
        }
        try (Stream<String> lines = Files.lines(unixTable)) {
            return lines.map(l -> l.trim().split("\\s+")).anyMatch(f -> f.length >= 8 && f[3].equals("00010000")
                    && (names.contains(f[7]) || names.contains(realPath(f[7]))));
        }
    }

    private static String realPath(String path) {
        try {
            return Path.of(path).toRealPath().toString();
        } catch (IOException | InvalidPathException elsewhere) {
            return path;
        }
    }
}
