package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Service;
import net.commoninternet.ccci.extensions.lifetime.CappedOutput;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Real HTTP against a deployed app, sent the way the production proxy reaches it: from a
 * container on the attachable {@code proxy} network, to the service its traefik labels name,
 * on their {@code loadbalancer.server.port}, with the app's domain as Host. Swarm VIPs and
 * published ports are not used: they do not route on hosts without IPVS (see ENVIRONMENT.md),
 * and recipes publish no ports. The service is addressed as {@code tasks.<service>}.
 */
@API(status = API.Status.INTERNAL)
public final class HttpProbe {

    static final String PROXY_NETWORK = "proxy";

    private static final int PROBE_TIMEOUT_SECONDS = 15;
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

    /** @param image what the probe containers run (busybox's wget and nc: {@code ccci.probe-image}) */
    public HttpProbe(DockerClient client, String image) {
        this.client = client;
        this.image = image;
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

    /** One GET of {@code path} with {@code Host: domain}; redirects are not followed. */
    public Answer get(Target target, String domain, String path) throws InterruptedException {
        // No -T: busybox 1.35's wget crashes (SIGSEGV) with it; the container wait bounds the probe.
        List<String> command = List.of("wget", "-S", "-O", "-", "--header", "Host: " + domain, target.url(path));
        String id = startProbe(target.stack(), command);
        try {
            if (exitWithin(id, PROBE_TIMEOUT_SECONDS) == null) {
                return new Answer(-1, "no answer within " + PROBE_TIMEOUT_SECONDS + " s", "");
            }
            StringBuilder headers = new StringBuilder();
            StringBuilder body = new StringBuilder();
            logs(id, headers, body);
            Matcher m = STATUS.matcher(headers);
            String detail = headers.toString().strip();
            return m.find() ? new Answer(Integer.parseInt(m.group(1)), detail, body.toString())
                    : new Answer(-1, detail.isEmpty() ? "no answer" : detail, body.toString());
        } finally {
            client.removeContainerCmd(id).withForce(true).exec();
        }
    }

    /**
     * {@code stableConnects} TCP connects in a row, one a second, to the service's tasks on
     * {@code port}, from the proxy network; true when every one connected.
     */
    public boolean tcp(Target target, int port, int stableConnects) throws InterruptedException {
        String script = "i=0; while [ $i -lt " + stableConnects + " ]; do"
                + " nc -w 2 tasks." + target.service() + " " + port + " </dev/null >/dev/null 2>&1 || exit 1;"
                + " i=$((i+1)); [ $i -lt " + stableConnects + " ] && sleep 1; done; exit 0";
        String id = startProbe(target.stack(), List.of("sh", "-c", script));
        try {
            Integer exit = exitWithin(id, PROBE_TIMEOUT_SECONDS + 3L * stableConnects);
            return exit != null && exit == 0;
        } finally {
            client.removeContainerCmd(id).withForce(true).exec();
        }
    }

    /** A probe container on the proxy network, labelled so the stack's teardown removes it too; started. */
    private String startProbe(String stack, List<String> command) {
        String id = client.createContainerCmd(image)
                .withCmd(command)
                .withLabels(Map.of(StackLabels.PROBE, stack))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(PROXY_NETWORK))
                .exec().getId();
        try {
            client.startContainerCmd(id).exec();
        } catch (RuntimeException e) {
            client.removeContainerCmd(id).withForce(true).exec();
            throw e;
        }
        return id;
    }

    /**
     * The container's exit status, or null if it did not exit within {@code seconds}. The wait's
     * stream is closed either way: left open, it is still being read when the run closes its
     * engine connection, and docker-java logs that as an ERROR at the end of every run.
     */
    private Integer exitWithin(String id, long seconds) {
        try (WaitContainerResultCallback wait = client.waitContainerCmd(id).start()) {
            return wait.awaitStatusCode(seconds, TimeUnit.SECONDS);
        } catch (com.github.dockerjava.api.exception.DockerClientException e) {
            return null;
        } catch (java.io.IOException e) {
            return null; // closing a finished wait
        }
    }

    /** GETs until a status in {@code ok} answers or {@code timeout} passes; returns the last answer. */
    public Answer await(Target target, String domain, String path, List<Integer> ok, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Answer answer = get(target, domain, path);
        while (!ok.contains(answer.status()) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(500);
            answer = get(target, domain, path);
        }
        return answer;
    }

    /** wget writes the body to stdout and the status line and headers to stderr; each is capped as a child's output is. */
    private void logs(String id, StringBuilder stderr, StringBuilder stdout) throws InterruptedException {
        CappedOutput err = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        CappedOutput out = CappedOutput.sink(ChildProcesses.HEAD_BYTES, ChildProcesses.TAIL_BYTES);
        client.logContainerCmd(id).withStdOut(true).withStdErr(true).withFollowStream(false)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        (frame.getStreamType() == com.github.dockerjava.api.model.StreamType.STDOUT ? out : err)
                                .append(frame.getPayload(), frame.getPayload().length);
                    }
                }).awaitCompletion(30, TimeUnit.SECONDS);
        stderr.append(err.text());
        stdout.append(out.text());
    }
}
