package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.HostConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A picture of the app's page as a person's browser renders it: Debian's chromium, headless, in a
 * container of its own ({@link #IMAGE}, built by scripts/setup-local-swarm) on the {@code proxy}
 * network, confined like a recipe's container (the engine's default runtime, no mount, the egress
 * rules; it runs nothing of the host's). It reaches the app's service by its {@code tasks.} name,
 * with the run's domain mapped to it ({@code --host-resolver-rules}), so the page is asked for by its
 * own host name and port, as traefik would hand it on. The container carries the stack's probe
 * label: a teardown (the run's, or a janitor's after a crash) removes one a run left.
 *
 * <p>A page that does not render is said in one line, taken from chromium's own report (the
 * network error of the navigation), and no picture is kept: an error page's picture would look like
 * the app's.
 */
@API(status = API.Status.INTERNAL)
public final class PageScreenshot {

    private static final Logger LOG = LoggerFactory.getLogger(PageScreenshot.class);

    /** The browser's image, built by scripts/setup-local-swarm from the host's chromium. */
    public static final String IMAGE = "ccci.local/chromium:1";
    /** Where chromium writes the picture; the image's entrypoint then prints it, base64, on stdout. */
    private static final String OUT = "/shot/page.png";
    /** A picture larger than this is not kept (a page of 1280 px width is a few hundred KiB). */
    private static final long MAX_BYTES = 32L << 20;

    /** What a try left: the picture, or why there is none (one line). */
    public record Shot(Optional<Path> png, String why) {
        static Shot of(Path png) {
            return new Shot(Optional.of(png), "");
        }

        static Shot none(String why) {
            return new Shot(Optional.empty(), why);
        }
    }

    /** What to take: the page at {@code path} of the service {@code service} (its full swarm name), as {@code domain:port}. */
    public record Page(String stack, String service, String domain, int port, String path) {
        public String url() {
            return "http://" + domain + ":" + port + (path.startsWith("/") ? path : "/" + path);
        }
    }

    private final DockerClient client;

    public PageScreenshot(DockerClient client) {
        this.client = client;
    }

    /** The page, rendered at {@code width} px wide, into {@code png}; at most {@code bound}. */
    public Shot take(Page page, int width, Path png, Duration bound) throws InterruptedException {
        List<String> args = new ArrayList<>(List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--user-data-dir=/tmp/profile", "--host-resolver-rules=MAP " + page.domain() + " tasks."
                        + page.service(), "--window-size=" + width + "," + Math.max(600, width * 3 / 4), "--screenshot=" + OUT,
                page.url()));
        String id;
        try {
            id = client.createContainerCmd(IMAGE).withCmd(args).withLabels(Map.of(StackLabels.PROBE, page.stack()))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode(HttpProbe.PROXY_NETWORK)).exec().getId();
        } catch (RuntimeException e) {
            return Shot.none("the browser's container could not be made (" + DockerEngine.engineSays(e) + "): "
                    + IMAGE + " is built by scripts/setup-local-swarm");
        }
        try {
            client.startContainerCmd(id).exec();
            Integer exit;
            try (WaitContainerResultCallback wait = client.waitContainerCmd(id).exec(new WaitContainerResultCallback())) {
                exit = wait.awaitStatusCode(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RuntimeException timedOut) {
                return Shot.none("the page " + page.url() + " did not render within " + bound.toSeconds() + " s");
            }
            Streams streams = streamsOf(id);
            Optional<String> failed = navigationError(streams.stderr());
            if (failed.isPresent() || exit == null || exit != 0) {
                return Shot.none("the page " + page.url() + " did not render: " + failed.orElse("chromium exited " + exit
                        + lastLine(streams.stderr())));
            }
            byte[] picture = Base64.getMimeDecoder().decode(streams.stdout());
            if (picture.length == 0) {
                return Shot.none("the page " + page.url() + " rendered, but chromium wrote no picture" + lastLine(streams.stderr()));
            }
            Files.createDirectories(png.getParent());
            Files.write(png, picture);
            return Shot.of(png);
        } catch (IOException | RuntimeException e) {
            return Shot.none("the picture of " + page.url() + " could not be taken: " + e.getMessage());
        } finally {
            try {
                client.removeContainerCmd(id).withForce(true).exec();
            } catch (RuntimeException gone) {
                LOG.debug("the browser's container {} was already gone: {}", id, gone.getMessage());
            }
        }
    }

    /** Chromium's line for a failed navigation ({@code net::ERR_...}), if its log has one. */
    static Optional<String> navigationError(String log) {
        return log.lines().filter(l -> l.contains("net::ERR_")).findFirst()
                .map(l -> l.substring(l.indexOf("net::ERR_")).split("[\\s,;)]")[0]);
    }

    private static String lastLine(String log) {
        List<String> lines = log.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.contains("dbus")).toList();
        return lines.isEmpty() ? "" : " (" + lines.get(lines.size() - 1) + ")";
    }

    /** What the exited container printed: the picture (base64) on stdout, chromium's own lines on stderr. */
    private record Streams(String stdout, String stderr) {
    }

    /** The container's two streams, each bounded: a picture beyond {@link #MAX_BYTES} is not read at all. */
    private Streams streamsOf(String id) throws InterruptedException, IOException {
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        long[] bytes = new long[1];
        try (var logs = client.logContainerCmd(id).withStdOut(true).withStdErr(true)
                .exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Frame>() {
                    @Override
                    public void onNext(com.github.dockerjava.api.model.Frame frame) {
                        bytes[0] += frame.getPayload().length;
                        if (bytes[0] <= MAX_BYTES * 4 / 3 + (1 << 20)) {
                            (frame.getStreamType() == com.github.dockerjava.api.model.StreamType.STDOUT ? out : err)
                                    .append(new String(frame.getPayload(), StandardCharsets.US_ASCII));
                        }
                    }
                })) {
            if (!logs.awaitCompletion(30, TimeUnit.SECONDS)) {
                throw new IOException("the browser's output did not end within 30 s");
            }
        }
        if (bytes[0] > MAX_BYTES * 4 / 3 + (1 << 20)) {
            throw new IOException("the picture is larger than " + (MAX_BYTES >> 20) + " MiB");
        }
        return new Streams(out.toString(), err.toString());
    }
}
