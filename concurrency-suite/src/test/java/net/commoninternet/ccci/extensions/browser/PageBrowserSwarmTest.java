package net.commoninternet.ccci.extensions.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
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
 * The page's pictures on the real engine: one warm chromium in its own container on the stack's own
 * network ({@link RunNetwork}, as a run deploys it; under the engine's default runtime), started
 * beside the wait, renders a stack's page,
 * asked for by the run's domain, at each width given; each picture asks the app again (a page the
 * app says to cache for an hour is not taken from the browser's cache: the upgrade's picture is of
 * the upgraded app), and from the app's new tasks once an update replaced them (the old tasks'
 * addresses are forgotten); a page that does not answer is one line naming chromium's network error and
 * no picture; after the last picture it was prepared for, or once closed, chromium exits with its pipe
 * (a later picture gets a browser of its own), and the stack's teardown leaves nothing. The browser
 * renders the run's own origin only: a page that redirects or navigates elsewhere is no picture and
 * says where it went, and a frame of another origin is refused and named in the picture's caption.
 */
@RealEngine
class PageBrowserSwarmTest {

    private static final int FIRST = 0x1f6f3f;
    private static final int LATER = 0x1f3f6f;

    private final String stack = "cccishot_" + Long.toHexString(System.nanoTime());
    private final String network = RunNetwork.of(stack).name();
    private final DockerEngine docker = DockerEngine.connect();

    @AfterEach
    void removeTheStack() throws Exception {
        try {
            new StackTeardown(docker.client()).teardown(stack);
            assertThat(browsers(true)).as("the browser's containers after the teardown").isEmpty();
        } finally {
            docker.close();
        }
    }

    @Test
    void oneWarmBrowserRendersThePageByItsDomainAtEachWidthFreshEachTimeAndAPageThatDoesNotAnswerSaysWhy(@TempDir Path dir)
            throws Exception {
        deploy(dir);
        PageBrowser browser = new PageBrowser(docker.client(), network);
        try (HttpProbe http = new HttpProbe(docker.client(), LocalImages.BUSYBOX, network)) {
            browser.prepare(stack, "shot.example.org", http, 4);
            awaitConverged();

            int[] widths = {360, 1280};
            int[] colours = {FIRST, LATER};
            for (int i = 0; i < widths.length; i++) {
                Path png = dir.resolve("page-" + widths[i] + ".png");
                PageBrowser.Shot shot = browser.take(new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080,
                        "/cgi-bin/page"), widths[i], png, Duration.ofMinutes(2));

                assertThat(shot.png()).as(shot.why()).contains(png);
                BufferedImage image = ImageIO.read(png.toFile());
                assertThat(image.getWidth()).isEqualTo(widths[i]);
                assertThat(image.getRGB(widths[i] - 5, image.getHeight() - 5) & 0xffffff)
                        .as("the page's own background in its answer %d", i + 1).isEqualTo(colours[i]);
            }
            // as an upgrade does: new tasks, new addresses; the picture is the new task's first answer
            Process update = new ProcessBuilder("/usr/local/bin/docker", "service", "update", "--force", "--detach=true",
                    stack + "_web").redirectErrorStream(true).start();
            assertThat(update.waitFor()).as(new String(update.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
            // and as the upgrade does, the next picture's context is opened while swarm rolls the update out
            browser.openAhead(stack);
            awaitConverged();
            Path replaced = dir.resolve("replaced.png");
            PageBrowser.Shot shot = browser.take(new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080,
                    "/cgi-bin/page"), 1280, replaced, Duration.ofMinutes(2));
            assertThat(shot.png()).as(shot.why()).contains(replaced);
            BufferedImage image = ImageIO.read(replaced.toFile());
            assertThat(image.getRGB(1275, image.getHeight() - 5) & 0xffffff).as("the new task's first answer").isEqualTo(FIRST);
            assertThat(browsers(false)).as("one browser for the run's pictures").hasSize(1);

            PageBrowser.Shot refused = browser.take(new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8081, "/"),
                    1280, dir.resolve("refused.png"), Duration.ofMinutes(2));
            assertThat(refused.png()).isEmpty();
            assertThat(refused.why()).isEqualTo("the page http://shot.example.org:8081/ did not render: net::ERR_CONNECTION_REFUSED");
            assertThat(dir.resolve("refused.png")).doesNotExist();
            awaitNoRunningBrowser("the fourth picture was the last one prepared for: chromium exits after it");
            assertThat(browsers(true)).as("the stopped browser, left for the stack's teardown").hasSize(1);

            Path late = dir.resolve("late.png");
            PageBrowser.Shot unplanned = browser.take(new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080,
                    "/cgi-bin/page"), 1280, late, Duration.ofMinutes(2));
            assertThat(unplanned.png()).as("a picture beyond those prepared for: a browser of its own. " + unplanned.why())
                    .contains(late);
        } finally {
            browser.close();
        }
        awaitNoRunningBrowser("running browsers once the pipe is closed: chromium exits with it");
        assertThat(browsers(true)).as("the stopped browsers, left for the stack's teardown").hasSize(2);
        assertThat(browser.take(new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080, "/"), 1280,
                dir.resolve("late.png"), Duration.ofSeconds(5)).why()).contains("teardown has begun");
    }

    /** The stack: one routed service whose page changes colour after its first answer and says to cache it for an hour. */
    private void deploy(Path dir) throws Exception {
        // the page's colour changes after its first answer, and the app says to keep it for an hour
        deployWith(dir, "[\"httpd\", \"-f\", \"-p\", \"8080\", \"-h\", \"/www\"]", Map.of("/www/cgi-bin/page", """
                #!/bin/sh
                n=$(cat /tmp/n 2>/dev/null || echo 0); n=$((n+1)); echo "$n" > /tmp/n
                if [ "$n" = 1 ]; then c=%06x; else c=%06x; fi
                printf 'Content-Type: text/html\\r\\nCache-Control: max-age=3600\\r\\n\\r\\n'
                printf '<html><body style="margin:0;background:#%%s"><h1>answer %%s for %%s</h1></body></html>' "$c" "$n" "$HTTP_HOST"
                """.formatted(FIRST, LATER)));
    }

    /**
     * The stack's one routed service on the stack's own network, as a run deploys it, running
     * {@code command}, with each of {@code files} (its path in the container, its text) as a config
     * mounted executable.
     */
    private void deployWith(Path dir, String command, Map<String, String> files) throws Exception {
        RunNetwork.of(stack).create(docker.client());
        StringBuilder mounts = new StringBuilder();
        StringBuilder configs = new StringBuilder();
        int n = 0;
        for (Map.Entry<String, String> file : new java.util.TreeMap<>(files).entrySet()) {
            String name = "file" + n++;
            Files.writeString(dir.resolve(name), file.getValue(), StandardCharsets.UTF_8);
            mounts.append("      - source: ").append(name).append("\n        target: ").append(file.getKey())
                    .append("\n        mode: 0555\n");
            configs.append("  ").append(name).append(":\n    file: ./").append(name).append("\n");
        }
        Path compose = dir.resolve("compose.yml");
        Files.writeString(compose, """
                version: "3.8"
                services:
                  web:
                    image: %s
                    command: %s
                    networks: [proxy]
                    configs:
                %s    deploy:
                      endpoint_mode: dnsrr
                      labels:
                        # the routed service: the one the run's browser is prepared for
                        - "traefik.enable=true"
                        - "traefik.http.services.web.loadbalancer.server.port=8080"
                configs:
                %snetworks:
                  proxy:
                    external: true
                    name: %s
                """.formatted(LocalImages.BUSYBOX, command, mounts, configs, network), StandardCharsets.UTF_8);
        Process deploy = new ProcessBuilder("/usr/local/bin/docker", "stack", "deploy", "--detach=true", "--resolve-image",
                "never", "-c", compose.toString(), stack).redirectErrorStream(true).start();
        assertThat(deploy.waitFor()).as(new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }

    /**
     * The app serves its own origin on 8080 and another page on 8081 of the same host name (another
     * origin the browser reaches: without the browser's own refusal, each picture below was of
     * that page, green). A redirect there and a script's change of {@code location} there are no
     * picture, each one line naming where the page went; a page with a frame of it is pictured, its
     * own colour, the frame refused and named in the caption; a page of its own origin alone has
     * no caption.
     */
    @Test
    void thePageOfAnotherOriginIsNeverPicturedAndWhatWasRefusedIsSaid(@TempDir Path dir) throws Exception {
        String elsewhere = "http://shot.example.org:8081/";
        String html = "#!/bin/sh\nprintf 'Content-Type: text/html\\r\\n\\r\\n'\nprintf '%s'\n";
        deployWith(dir, "[\"sh\", \"-c\", \"httpd -p 8081 -h /other && exec httpd -f -p 8080 -h /www\"]", Map.of(
                "/other/index.html", "<html><body style=\"margin:0;background:#00ff00\"><h1>another origin</h1></body></html>",
                "/www/cgi-bin/redirect", "#!/bin/sh\nprintf 'Status: 302 Found\\r\\nLocation: " + elsewhere + "\\r\\n\\r\\n'\n",
                "/www/cgi-bin/script", html.formatted("<html><body style=\"background:#%06x\"><script>location.href=\""
                        .formatted(FIRST) + elsewhere + "\"</script></body></html>"),
                "/www/cgi-bin/framed", html.formatted(("<html><body style=\"margin:0;background:#%06x\"><iframe src=\""
                        + elsewhere + "\" style=\"border:0;width:100%%%%;height:300px\"></iframe></body></html>").formatted(FIRST)),
                "/www/cgi-bin/own", html.formatted("<html><body style=\"margin:0;background:#%06x\"><img src=\"/cgi-bin/own\">"
                        .formatted(LATER) + "</body></html>")));
        PageBrowser browser = new PageBrowser(docker.client(), network);
        try (HttpProbe http = new HttpProbe(docker.client(), LocalImages.BUSYBOX, network)) {
            browser.prepare(stack, "shot.example.org", http, 4);
            awaitConverged();

            for (String path : List.of("/cgi-bin/redirect", "/cgi-bin/script")) {
                Path png = dir.resolve(path.replace('/', '-') + ".png");
                PageBrowser.Shot shot = browser.take(page(path), 1280, png, Duration.ofMinutes(2));
                assertThat(shot.png()).as("a picture of the page behind %s: %s", path, shot.why()).isEmpty();
                assertThat(png).doesNotExist();
                assertThat(shot.why()).isEqualTo("the page http://shot.example.org:8080" + path + " navigated to " + elsewhere
                        + ", which is not the run's own origin (http://shot.example.org:8080): the browser refused it and"
                        + " kept no picture");
            }
            Path framed = dir.resolve("framed.png");
            PageBrowser.Shot shot = browser.take(page("/cgi-bin/framed"), 1280, framed, Duration.ofMinutes(2));
            assertThat(shot.png()).as(shot.why()).contains(framed);
            BufferedImage image = ImageIO.read(framed.toFile());
            assertThat(image.getRGB(640, 100) & 0xffffff).as("where the frame is: not the other origin's page")
                    .isNotEqualTo(0x00ff00);
            assertThat(image.getRGB(640, image.getHeight() - 5) & 0xffffff).as("the page's own").isEqualTo(FIRST);
            assertThat(shot.why()).isEqualTo("the browser refused 1 request of the page to other origins than the run's own"
                    + " (http://shot.example.org:8080): " + elsewhere);

            PageBrowser.Shot own = browser.take(page("/cgi-bin/own"), 1280, dir.resolve("own.png"), Duration.ofMinutes(2));
            assertThat(own.png()).as(own.why()).isPresent();
            assertThat(own.why()).as("a page of the run's own origin alone has no caption").isEmpty();
        } finally {
            browser.close();
        }
    }

    private PageBrowser.Page page(String path) {
        return new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080, path);
    }

    @Test
    void aWarmBrowserThatStopsAnsweringIsLetGoAndAFreshOneTakesThePicture(@TempDir Path dir) throws Exception {
        deploy(dir);
        PageBrowser browser = new PageBrowser(docker.client(), network);
        try (HttpProbe http = new HttpProbe(docker.client(), LocalImages.BUSYBOX, network)) {
            browser.prepare(stack, "shot.example.org", http, 2);
            awaitConverged();
            PageBrowser.Page page = new PageBrowser.Page(stack, stack + "_web", "shot.example.org", 8080, "/cgi-bin/page");
            PageBrowser.Shot first = browser.take(page, 1280, dir.resolve("first.png"), Duration.ofMinutes(2));
            assertThat(first.png()).as(first.why()).isPresent();
            // the warm browser stops answering, as the stalled captures did: frozen by the engine
            String warm = browsers(false).get(0).getId();
            docker.client().pauseContainerCmd(warm).exec();

            Path png = dir.resolve("second.png");
            PageBrowser.Shot second = browser.take(page, 1280, png, Duration.ofMinutes(2));

            assertThat(second.png()).as(second.why()).contains(png);
            assertThat(ImageIO.read(png.toFile()).getRGB(1275, 5) & 0xffffff).as("the page's second answer").isEqualTo(LATER);
            docker.client().unpauseContainerCmd(warm).exec();
            assertThat(browsers(true)).as("the stalled browser and the fresh one").hasSize(2);
        } finally {
            browser.close();
        }
        awaitNoRunningBrowser("running browsers once closed, the stalled one's pipe closed when it was let go");
    }

    private void awaitConverged() throws InterruptedException {
        SwarmConvergence.Report report = new SwarmConvergence(docker).await(stack, Duration.ofMinutes(2));
        assertThat(report.converged()).as(report.problems().toString()).isTrue();
    }

    private void awaitNoRunningBrowser(String why) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!browsers(false).isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(browsers(false)).as(why).isEmpty();
    }

    private List<Container> browsers(boolean all) {
        return docker.client().listContainersCmd().withShowAll(all).withLabelFilter(Map.of(StackLabels.PROBE, stack)).exec()
                .stream().filter(c -> PageBrowser.IMAGE.equals(c.getImage())).toList();
    }
}
