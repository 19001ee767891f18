package net.commoninternet.ccci.extensions.probe;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import org.apiguardian.api.API;

/**
 * Real HTTP against a deployed app, sent the way the production proxy reaches it: from a
 * container on the run's network ({@link RunNetwork}: the run's own, which the app joins in place of
 * the shared {@code proxy}; nothing of another run is on it), to the service its traefik labels name,
 * on their {@code loadbalancer.server.port}, with the app's domain as Host. Swarm VIPs and
 * published ports are not used: they do not route on hosts without IPVS (see ENVIRONMENT.md),
 * and recipes publish no ports. The service is addressed as {@code tasks.<service>}. Every probe
 * of a stack runs in that stack's one probe container ({@link ProbeContainer}), started once and
 * removed with the stack: a line to its attached shell, or an exec when the shell cannot take it.
 */
@API(status = API.Status.INTERNAL)
public final class HttpProbe implements AutoCloseable {

    private static final int PROBE_TIMEOUT_SECONDS = 15;
    /** What a command killed by busybox's {@code timeout -s KILL} exits with (128 + 9). */
    private static final long TIMED_OUT = 137;
    /** How long past its own timeout the exec's end is awaited (the kill, the exec's end reaching us). */
    private static final Duration EXEC_GRACE = Duration.ofSeconds(5);
    /** Between two GETs of a wait: a probe costs milliseconds, so the app's first answer is seen within this. */
    static final Duration RETRY_PAUSE = Duration.ofMillis(250);
    private static final Pattern PORT_LABEL = Pattern.compile("traefik\\.http\\.services\\.[^.]+\\.loadbalancer\\.server\\.port");
    private static final Pattern STATUS = Pattern.compile("HTTP/\\d(?:\\.\\d)? (\\d{3})");

    /** Where the proxy would send the app's traffic: a service of {@code stack}, on {@code port}. */
    public record Target(String stack, String service, int port) {
        public String url(String path) {
            return "http://tasks." + service + ":" + port + (path.startsWith("/") ? path : "/" + path);
        }
    }

    /** One answer: the status (or -1), the response headers or what went wrong, and the body. */
    public record Answer(int status, String detail, String body) {
    }

    private final DockerClient client;
    private final String image;
    /** The network the probe containers join: the run's own, the one its app is reached on. */
    private final String network;
    private final Duration timeout;
    /** Each stack's probe container, started once (the app's stack: one per run); guarded by itself. */
    private final Map<String, ProbeContainer> containers = new HashMap<>();
    /** Set by {@link #close}: no probe container starts after the teardown began; guarded by {@link #containers}. */
    private boolean closed;

    /**
     * @param image what the probe containers run (busybox's wget and nc: {@code ccci.probe-image})
     * @param network the network they join: the run's ({@link RunNetwork}), which its app is reached on
     */
    public HttpProbe(DockerClient client, String image, String network) {
        this(client, image, network, Duration.ofSeconds(PROBE_TIMEOUT_SECONDS));
    }

    /** @param timeout how long one probe may take before it counts as no answer */
    HttpProbe(DockerClient client, String image, String network, Duration timeout) {
        this.client = client;
        this.image = image;
        this.network = network;
        this.timeout = timeout;
    }

    /** The network the probes (and the browser) run on: the run's. */
    public String network() {
        return network;
    }

    /** The stack's service with {@code traefik.enable=true} and a load-balancer port label. */
    public Optional<Target> target(String stack) {
        for (Service service : client.listServicesCmd().withLabelFilter(StackLabels.of(stack)).exec()) {
            Map<String, String> labels = service.getSpec().getLabels();
            if (labels == null || !"true".equals(labels.get("traefik.enable"))) {
                continue;
            }
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (PORT_LABEL.matcher(label.getKey()).matches()) {
                    return Optional.of(new Target(stack, service.getSpec().getName(),
                            port(service.getSpec().getName(), label.getKey(), label.getValue())));
                }
            }
        }
        return Optional.empty();
    }

    /** A port label's value as a port, or one sentence naming the service, the label and the fix. */
    static int port(String service, String label, String value) {
        String text = value == null ? "" : value.trim();
        if (text.matches("[0-9]{1,5}")) {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        }
        throw new IllegalStateException("service " + service + " has label " + label + "=" + value + ", which is not a"
                + " port number: set it to the port the service listens on (1-65535), for example " + label + "=80.");
    }

    /**
     * Starts the stack's probe container now, on a thread of its own, so that the first probe
     * finds it running: called once the stack is deployed (its start then overlaps the
     * convergence wait). Probing a stack without this starts it at the first probe.
     */
    public void prepare(String stack) {
        container(stack);
    }

    private ProbeContainer container(String stack) {
        synchronized (containers) {
            if (closed) {
                throw new IllegalStateException("the run's probes are over (its teardown has begun): " + stack
                        + " is not probed any more");
            }
            return containers.computeIfAbsent(stack, s -> ProbeContainer.start(client, image, s, network));
        }
    }

    /**
     * No probe after this: every probe container's start is awaited (bounded), so the stacks'
     * teardown that follows finds and removes each (they are labelled with their stack).
     */
    @Override
    public void close() {
        List<ProbeContainer> started;
        synchronized (containers) {
            closed = true;
            started = List.copyOf(containers.values());
        }
        for (ProbeContainer container : started) {
            container.awaitStart();
            container.closeShell();
        }
    }

    /** One GET of {@code path} with {@code Host: domain}; redirects are not followed. */
    public Answer get(Target target, String domain, String path) throws InterruptedException {
        // No -T: busybox 1.35's wget crashes (SIGSEGV) with it; busybox's timeout bounds the probe instead.
        ProbeContainer.Ran ran = container(target.stack()).run(bounded(timeout, List.of("wget", "-S", "-O", "-", "--header",
                "Host: " + domain, target.url(path))), timeout.plus(EXEC_GRACE));
        if (ran.exit() == null || ran.exit() == TIMED_OUT) {
            return new Answer(-1, "no answer within " + timeout.toSeconds() + " s", "");
        }
        Matcher m = STATUS.matcher(ran.stderr());
        String detail = ran.stderr().strip();
        return m.find() ? new Answer(Integer.parseInt(m.group(1)), detail, ran.stdout())
                : new Answer(-1, detail.isEmpty() ? "no answer" : detail, ran.stdout());
    }

    /**
     * {@code stableConnects} TCP connects in a row, one a second, to the service's tasks on
     * {@code port}, from the run's network; true when every one connected. The seconds are kept
     * here, each connect a line of its own begun a whole second after the one before it began (a
     * connect that took longer is followed at once): N connects take N-1 seconds and one connect,
     * not N-1 seconds and N connects, N-1 sleeps and a shell, each a process under gVisor.
     */
    public boolean tcp(Target target, int port, int stableConnects) throws InterruptedException {
        List<String> connect = bounded(timeout, List.of("nc", "-w", "2", "tasks." + target.service(), String.valueOf(port)));
        long first = System.nanoTime();
        for (int i = 0; i < stableConnects; i++) {
            long due = first + TimeUnit.SECONDS.toNanos(i) - System.nanoTime();
            if (due > 0) {
                TimeUnit.NANOSECONDS.sleep(due);
            }
            if (!container(target.stack()).run(connect, timeout.plus(EXEC_GRACE)).ok()) {
                return false;
            }
        }
        return true;
    }

    /** {@code command}, killed by busybox's {@code timeout} after {@code bound}: the engine has no kill for an exec. */
    private static List<String> bounded(Duration bound, List<String> command) {
        List<String> bounded = new ArrayList<>(List.of("busybox", "timeout", "-s", "KILL",
                String.valueOf(Math.max(1, bound.toSeconds()))));
        bounded.addAll(command);
        return bounded;
    }

    /** GETs until a status in {@code ok} answers or {@code timeout} passes; returns the last answer. */
    public Answer await(Target target, String domain, String path, List<Integer> ok, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Answer answer = get(target, domain, path);
        while (!ok.contains(answer.status()) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE.toMillis());
            answer = get(target, domain, path);
        }
        return answer;
    }
}
