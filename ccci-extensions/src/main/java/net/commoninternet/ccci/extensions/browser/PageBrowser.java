package net.commoninternet.ccci.extensions.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.probe.ProbeContainer;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.waits.Waits;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pictures of the app's page as a person's browser renders it: Debian's chromium headless shell
 * (the same chromium, without the browser's own layers), in a container of its own ({@link #IMAGE}, built by scripts/setup-local-swarm) on the run's
 * network alone ({@code RunNetwork}: nothing of another run, or of a warm app, is on it), confined
 * like a recipe's container (the engine's default runtime, no mount, a memory bound, the egress
 * rules; it runs nothing of the host's). It reaches the app's service by its {@code tasks.} name,
 * with the run's domain mapped to it and every other name to none ({@code --host-resolver-rules}),
 * so the page is asked for by its own host name and port, as traefik would hand it on.
 *
 * <p>It renders the run's own origin only ({@link OwnOrigin}): every request of the page is paused
 * ({@code Fetch.enable}) and goes on only if it is for the app's own scheme, domain and port. A
 * navigation of the page elsewhere (a redirect, a link, a script's change of {@code location}) is
 * refused and the picture is not kept, with one line saying where the page went; a sub-resource or
 * frame of another origin is refused and the picture, without it, says so in its caption.
 *
 * <p>One browser per app, kept warm for the run: {@link #prepare} starts it while the swarm
 * converges (its start costs about a second of CPU under gVisor's ptrace platform), and each
 * picture is then a navigation and a capture over the DevTools protocol ({@link DevToolsPipe}:
 * the container's stdin and stdout, no port). Each picture is taken in a browser context of its
 * own, made for it and disposed after it: its own cache, cookies, storage, connections and name
 * lookups, so the upgrade's picture is of the upgraded app (its new tasks, at their new
 * addresses), never of what the install's left in the browser. The container carries the stack's probe label: a
 * teardown (the run's, or a janitor's after a crash) removes it; chromium exits when its pipe
 * closes ({@link #close}, or this process's death).
 *
 * <p>A page that does not render is said in one line, taken from chromium's own report (the
 * navigation's network error), and no picture is kept: an error page's picture would look like
 * the app's.
 *
 * <p>Resource: the app's browser container and its pipe. Invariant: no browser starts after
 * {@link #close}, and close waits (bounded) for every create under way, so the stack's teardown
 * that follows sees each container. Scope: one run; pictures of one browser are taken one at a
 * time.
 */
@API(status = API.Status.INTERNAL)
public final class PageBrowser implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PageBrowser.class);

    /** The browser's image, built by scripts/setup-local-swarm from the host's chromium. */
    public static final String IMAGE = "ccci.local/chromium-headless-shell:1";
    /** A picture larger than this is not kept (a page of 1280 px width is a few hundred KiB). */
    private static final long MAX_BYTES = 32L << 20;
    /** A browser's memory (the engine's cgroup bound): a page is a few hundred MiB at most. */
    private static final long MEMORY_BYTES = 2L << 30;
    /** How long one call of a picture (a clear, the navigation's start, the capture) may take: a few hundred ms when it works. */
    private static final Duration CAPTURE_LIMIT = Duration.ofSeconds(15);
    /** How long a picture's context may take to go: a few ms. */
    private static final Duration DISPOSE_LIMIT = Duration.ofSeconds(5);
    /** How long a browser's create, start and first page may take. */
    private static final Duration START_LIMIT = Duration.ofSeconds(90);
    /** Creates tried while the engine says the overlay is not found (it instantiates it again at once). */
    private static final int CREATE_ATTEMPTS = 5;
    /** The width a browser's first page has before any picture asks for its own. */
    private static final int FIRST_WIDTH = 1280;
    /** Chromium reads the protocol on fd 3 and writes it on fd 4: the container's stdin and stdout; its log goes to stderr. */
    static final String PIPED = "exec /usr/lib/chromium/chromium-headless-shell \"$@\" 3<&0 4>&1 1>&2";

    /**
     * What a try left: the picture, or why there is none (one line), or with a picture its caption
     * (what of the page the browser refused); stalled: a fresh browser may try again.
     */
    public record Shot(Optional<Path> png, String why, boolean stalled) {
        static Shot none(String why) {
            return new Shot(Optional.empty(), why, false);
        }
    }

    /** What to take: the page at {@code path} of the service {@code service} (its full swarm name), as {@code domain:port}. */
    public record Page(String stack, String service, String domain, int port, String path) {
        public String url() {
            return "http://" + origin() + (path.startsWith("/") ? path : "/" + path);
        }

        String origin() {
            return domain + ":" + port;
        }

        Site site() {
            return new Site(stack, service, domain);
        }
    }

    /** What one browser is for: its domain is mapped to the service's tasks. */
    private record Site(String stack, String service, String domain) {
    }

    /**
     * A browser's pipe, once its start is over, and the fresh context its next picture is taken in:
     * the first one opened while the browser warms, a later one opened ahead when the run says the
     * engine is busy and the CPU is not ({@link #openAhead(String)}: its renderer's start, about 0.2
     * s under gVisor, is then off the next picture's path), else at the picture. Guarded by itself:
     * pictures of one browser are taken one at a time.
     */
    private static final class Tab {
        private final DevToolsPipe pipe;
        private CompletableFuture<Context> next;

        Tab(DevToolsPipe pipe, Context first) {
            this.pipe = pipe;
            this.next = CompletableFuture.completedFuture(first);
        }

        DevToolsPipe pipe() {
            return pipe;
        }

        /**
         * The next picture's context opened on a thread of its own, for a picture still to come; one
         * whose open fails is opened again by {@link #take}, and one nobody takes goes with the browser.
         */
        void openAhead() {
            if (next != null || pipe.broken()) {
                return;
            }
            CompletableFuture<Context> ahead = new CompletableFuture<>();
            next = ahead;
            Thread opener = new Thread(() -> {
                try {
                    ahead.complete(Context.open(pipe, System.nanoTime() + CAPTURE_LIMIT.toNanos()));
                } catch (IOException | RuntimeException e) {
                    ahead.completeExceptionally(e);
                } catch (InterruptedException e) {
                    ahead.completeExceptionally(e);
                    Thread.currentThread().interrupt();
                }
            }, "ccci-browser-context");
            opener.setDaemon(true);
            opener.start();
        }

        /**
         * The context for a picture: the one opened ahead (waited for until {@code deadline}), else a
         * new one; an open ahead that is still under way at the deadline leaves the new one no time,
         * so a stalled browser reads as one ({@link DevToolsPipe.NoAnswer}).
         */
        Context take(long deadline) throws IOException, InterruptedException {
            CompletableFuture<Context> ahead = next;
            next = null;
            if (ahead != null) {
                try {
                    return ahead.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    LOG.debug("the context opened ahead is not there ({}): a new one is opened", e.toString());
                }
            }
            return Context.open(pipe, deadline);
        }
    }

    /**
     * A browser context of one picture and its one blank tab's session, laid out at the first
     * width: nothing of another picture's page (cache, cookies, storage, sockets, name lookups)
     * reaches it, and it is disposed with all of that once its picture is taken.
     */
    private record Context(String id, String target, String session) {
        static Context open(DevToolsPipe pipe, long deadline) throws IOException, InterruptedException {
            String id = pipe.call("Target.createBrowserContext", Map.of("disposeOnDetach", true), null, left(deadline))
                    .path("browserContextId").asText();
            String target = pipe.call("Target.createTarget", Map.of("url", "about:blank", "browserContextId", id), null,
                    left(deadline)).path("targetId").asText();
            String session = pipe.call("Target.attachToTarget", Map.of("targetId", target, "flatten", true), null,
                    left(deadline)).path("sessionId").asText();
            pipe.call("Page.enable", Map.of(), session, left(deadline));
            // every request of the page paused for its picture's gate (OwnOrigin); none is made before the gate is set
            pipe.call("Fetch.enable", Map.of("patterns", List.of(Map.of("urlPattern", "*"))), session, left(deadline));
            pipe.call("Emulation.setDeviceMetricsOverride", metrics(FIRST_WIDTH), session, left(deadline));
            return new Context(id, target, session);
        }

        /** The page at {@code width}, loaded within the picture's bound, as a PNG at {@code png}. */
        Shot picture(DevToolsPipe pipe, Page page, int width, Path png, Bound bound) throws IOException, InterruptedException {
            long deadline = bound.deadline();
            pipe.call("Emulation.setDeviceMetricsOverride", metrics(width), session, step(deadline));
            pipe.clearEvents();
            OwnOrigin gate = new OwnOrigin(page.url(), target);
            pipe.gate(session, gate);
            JsonNode navigated = pipe.call("Page.navigate", Map.of("url", page.url()), session, step(deadline));
            String error = navigated.path("errorText").asText("");
            if (gate.navigationRefused().isPresent()) {
                return Shot.none(gate.navigationSentence(page.url()));
            }
            if (!error.isEmpty()) {
                return Shot.none("the page " + page.url() + " did not render: " + error);
            }
            if (!pipe.awaitEvent("Page.loadEventFired", session, deadline)) {
                return Shot.none(gate.navigationRefused().isPresent() ? gate.navigationSentence(page.url())
                        : "the page " + page.url() + " did not render within " + bound.length().toSeconds() + " s");
            }
            JsonNode shot = pipe.call("Page.captureScreenshot", Map.of("format", "png"), session, step(deadline));
            // a navigation elsewhere refused before the capture came back: what it shows is chromium's error page
            if (gate.navigationRefused().isPresent()) {
                return Shot.none(gate.navigationSentence(page.url()));
            }
            byte[] picture = Base64.getDecoder().decode(shot.path("data").asText(""));
            if (picture.length == 0) {
                return Shot.none("the page " + page.url() + " rendered, but chromium gave no picture");
            }
            if (picture.length > MAX_BYTES) {
                return Shot.none("the picture of " + page.url() + " is larger than " + (MAX_BYTES >> 20) + " MiB");
            }
            Files.createDirectories(png.getParent());
            Files.write(png, picture);
            return new Shot(Optional.of(png), gate.caption(), false);
        }

        /** Gone with its page, cache and storage; a browser that does not answer exits with its pipe anyway. */
        void dispose(DevToolsPipe pipe) throws InterruptedException {
            pipe.ungate(session);
            try {
                pipe.call("Target.disposeBrowserContext", Map.of("browserContextId", id), null, DISPOSE_LIMIT);
            } catch (IOException e) {
                LOG.debug("a picture's browser context was not disposed: {}", e.getMessage());
            }
        }
    }

    /** One browser: its container's create (what a teardown must wait for) and its whole start. */
    private record Warm(CompletableFuture<String> created, CompletableFuture<Tab> tab, AtomicInteger left) {
    }

    private final DockerClient client;
    /** The network the browsers join: the run's own, which its app is reached on. */
    private final String network;
    /** Guarded by itself: every browser of the run, and whether {@link #close} came. */
    private final Map<Site, Warm> browsers = new HashMap<>();
    private boolean closed;

    /** @param network the network the browsers join: the run's ({@code RunNetwork}), which its app is reached on */
    public PageBrowser(DockerClient client, String network) {
        this.client = client;
        this.network = network;
    }

    /**
     * Starts the browser for {@code stack}'s routed service (the one {@link HttpProbe#target}
     * names) under {@code domain}, on a thread of its own: called once every task of the stack has
     * started (its start beside the app's own sandboxes' took their CPU; {@link
     * SwarmConvergence#await(String, java.time.Duration, Runnable)}), so it overlaps their
     * healthchecks, the stability window, the ready probe and the install's checks. Nothing starts
     * when no service is routed. Once it
     * took {@code pictures} pictures its chromium exits (an idle headless shell costs little, but
     * nothing is gained by keeping it); a later picture starts a browser of its own.
     */
    public void prepare(String stack, String domain, HttpProbe http, int pictures) {
        Thread starter = new Thread(() -> {
            try {
                http.target(stack).ifPresent(t -> browser(new Site(stack, t.service(), domain)).left().set(pictures));
            } catch (RuntimeException e) {
                LOG.info("no browser was started ahead of the pictures of {} (a picture starts its own): {}", stack,
                        DockerEngine.engineSays(e));
            }
        }, "ccci-browser-" + stack);
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * The next picture's context, opened now on a thread of its own, for each browser of {@code stack}
     * that is warm and still has a picture to take: called where the run waits on the engine (the
     * upgrade's rollout), so that its renderer's start neither slows what runs between two tiers nor
     * lands on the next picture's path. Nothing when no such browser is there.
     */
    public void openAhead(String stack) {
        List<Warm> warm;
        synchronized (browsers) {
            warm = browsers.entrySet().stream().filter(e -> e.getKey().stack().equals(stack)).map(Map.Entry::getValue).toList();
        }
        for (Warm w : warm) {
            Tab tab = w.tab().isDone() && !w.tab().isCompletedExceptionally() ? w.tab().join() : null;
            if (tab != null && w.left().get() > 0) {
                synchronized (tab) {
                    tab.openAhead();
                }
            }
        }
    }

    /**
     * The page, rendered at {@code width} px wide, into {@code png}; at most {@code bound}, the
     * browser's start included. A warm browser that stalls (seen twice in about thirty upgrade
     * pictures: the page loaded, the capture never came back) is let go after {@link
     * #CAPTURE_LIMIT}, and a browser of its own takes the picture again within what is left of the
     * bound.
     */
    public Shot take(Page page, int width, Path png, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Shot shot = take(page, width, png, new Bound(deadline, bound));
        if (shot.stalled() && deadline - System.nanoTime() > CAPTURE_LIMIT.toNanos()) {
            LOG.info("the browser's capture of {} stalled for {} s: a browser of its own takes the picture again", page.url(),
                    CAPTURE_LIMIT.toSeconds());
            shot = take(page, width, png, new Bound(deadline, bound));
        }
        return shot.stalled() ? Shot.none(shot.why()) : shot;
    }

    private Shot take(Page page, int width, Path png, Bound bound) throws InterruptedException {
        long deadline = bound.deadline();
        Warm warm;
        try {
            warm = browser(page.site());
        } catch (IllegalStateException e) {
            return Shot.none(e.getMessage());
        }
        Tab tab;
        try {
            tab = warm.tab().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Shot.none("the browser for " + page.url() + " did not start within " + bound.length().toSeconds() + " s");
        } catch (ExecutionException e) {
            return Shot.none(e.getCause().getMessage());
        }
        synchronized (tab) {
            boolean stalled = false;
            try {
                return picture(tab, page, width, png, bound);
            } catch (CaptureStalled e) {
                stalled = true;
                return new Shot(Optional.empty(), "the picture of " + page.url() + " could not be taken: " + e.getMessage(),
                        true);
            } catch (IOException e) {
                String log = tab.pipe().lastLogLine();
                return Shot.none("the picture of " + page.url() + " could not be taken: " + e.getMessage()
                        + (log.isEmpty() ? "" : " (chromium: " + log + ")"));
            } finally {
                if (warm.left().decrementAndGet() == 0 || stalled) {
                    done(page.site(), warm, tab);
                }
            }
        }
    }

    /** A call of a picture that did not come back in time, the pipe still open: a stalled browser. */
    private static final class CaptureStalled extends IOException {
        CaptureStalled(String message) {
            super(message);
        }
    }

    /** A picture's bound: its deadline (System.nanoTime) and its length, for the sentence. */
    private record Bound(long deadline, Duration length) {
    }

    /**
     * One picture from a warm browser. Each call to it is bounded by {@link #CAPTURE_LIMIT} (a few
     * hundred ms when it works): a call that outlives it, the pipe still open, means a stalled
     * browser ({@link CaptureStalled}); the page's own load is bounded by the picture's bound only.
     */
    private static Shot picture(Tab tab, Page page, int width, Path png, Bound bound) throws IOException, InterruptedException {
        try {
            return pictureSteps(tab, page, width, png, bound);
        } catch (DevToolsPipe.NoAnswer e) {
            if (tab.pipe().broken() || System.nanoTime() >= bound.deadline()) {
                throw e;
            }
            throw new CaptureStalled(e.getMessage());
        }
    }

    private static Shot pictureSteps(Tab tab, Page page, int width, Path png, Bound bound)
            throws IOException, InterruptedException {
        long deadline = bound.deadline();
        DevToolsPipe pipe = tab.pipe();
        // A context of its own: an upgrade replaces the app's tasks, and their addresses; the lookup of
        // tasks.<service> that an earlier page cached (the embedded DNS says 600 s), its kept-alive
        // connections, HTTP cache, cookies and storage are another context's.
        Context context = tab.take(Math.min(deadline, System.nanoTime() + CAPTURE_LIMIT.toNanos()));
        Shot shot = context.picture(pipe, page, width, png, bound);
        // a picture that failed on the pipe leaves its context to the browser's exit
        context.dispose(pipe);
        return shot;
    }

    private static Map<String, Object> metrics(int width) {
        return Map.of("width", width, "height", Math.max(600, width * 3 / 4), "deviceScaleFactor", 1, "mobile", false);
    }

    /** One call's bound within a picture: {@link #CAPTURE_LIMIT}, or what is left of the picture's. */
    private static Duration step(long deadline) {
        return left(Math.min(deadline, System.nanoTime() + CAPTURE_LIMIT.toNanos()));
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    /** The last picture {@code warm} was prepared for is taken: its chromium exits, and a later picture starts a browser of its own. */
    private void done(Site site, Warm warm, Tab tab) {
        synchronized (browsers) {
            browsers.remove(site, warm);
        }
        tab.pipe().close();
    }

    /** The site's browser, started at its first ask. */
    private Warm browser(Site site) {
        synchronized (browsers) {
            if (closed) {
                throw new IllegalStateException("the run's pictures are over (its teardown has begun): " + site.domain()
                        + " is not pictured any more");
            }
            return browsers.computeIfAbsent(site, this::start);
        }
    }

    private Warm start(Site site) {
        // pictures still to take before its chromium exits: unknown (-1) unless prepared
        Warm warm = new Warm(new CompletableFuture<>(), new CompletableFuture<>(), new AtomicInteger(-1));
        Thread starter = new Thread(() -> {
            try {
                warm.tab().complete(open(site, warm.created()));
            } catch (IOException | RuntimeException e) {
                warm.created().complete(null);
                warm.tab().completeExceptionally(e instanceof IOException ? e : new IOException("the browser's container"
                        + " could not be started (" + DockerEngine.engineSays((RuntimeException) e) + "): " + IMAGE
                        + " is built by scripts/setup-local-swarm", e));
            } catch (InterruptedException e) {
                warm.created().complete(null);
                warm.tab().completeExceptionally(new IOException("the browser's start was interrupted"));
            }
        }, "ccci-browser-start-" + site.stack());
        starter.setDaemon(true);
        starter.start();
        return warm;
    }

    /** Creates, attaches and starts the browser, and opens its first picture's context: blank, laid out, its renderer running. */
    private Tab open(Site site, CompletableFuture<String> created) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        String id = create(site);
        created.complete(id);
        DevToolsPipe pipe = DevToolsPipe.attach(client, id, MAX_BYTES * 4 / 3 + (1 << 20));
        try {
            client.startContainerCmd(id).exec();
            Tab tab = new Tab(pipe, Context.open(pipe, deadline));
            LOG.debug("the browser for {} is warm (container {})", site.domain(), id);
            return tab;
        } catch (IOException | RuntimeException e) {
            pipe.close();
            throw e;
        }
    }

    private String create(Site site) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("-c", PIPED, "browser", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=/tmp/profile",
                // the run's domain is its routed service's tasks; no other name resolves (a second layer under the
                // origin gate: a request the gate cannot see, a pop-up's say, finds no host)
                "--host-resolver-rules=MAP " + site.domain() + " tasks." + site.service() + ", MAP * ~NOTFOUND",
                "--remote-debugging-pipe",
                // the network service in the browser's own process, not a process of its own: under gVisor its
                // start cost 0.5-0.65 s of CPU of the browser's 3.5-3.8 s (measured at its warm-up)
                "--enable-features=NetworkServiceInProcess2"));
        for (int attempt = 1; ; attempt++) {
            try {
                // stdin once: when this process's attach ends, however it ends, the container's stdin closes and chromium exits
                return client.createContainerCmd(IMAGE).withEntrypoint("/bin/sh").withCmd(command)
                        .withStdinOpen(true).withStdInOnce(true).withAttachStdin(true).withAttachStdout(true)
                        .withAttachStderr(true).withLabels(Map.of(StackLabels.PROBE, site.stack()))
                        .withHostConfig(HostConfig.newHostConfig().withNetworkMode(network)
                                .withMemory(MEMORY_BYTES))
                        .exec().getId();
            } catch (RuntimeException e) {
                if (!ProbeContainer.overlayGoneForAMoment(e) || attempt >= CREATE_ATTEMPTS) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(100L * attempt);
            }
        }
    }

    /**
     * No picture after this: every browser's create under way is awaited (bounded), so the stack's
     * teardown that follows finds and removes each container, and every pipe is closed.
     */
    @Override
    public void close() {
        List<Warm> started;
        synchronized (browsers) {
            closed = true;
            started = List.copyOf(browsers.values());
        }
        for (Warm warm : started) {
            if (!Waits.awaitEnd(warm.created(), START_LIMIT)) {
                LOG.debug("a browser's create did not end within {} s", START_LIMIT.toSeconds());
            }
            warm.tab().thenAccept(tab -> tab.pipe().close());
        }
    }
}
