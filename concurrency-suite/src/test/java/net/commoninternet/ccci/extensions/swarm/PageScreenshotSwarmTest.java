package net.commoninternet.ccci.extensions.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.imageio.ImageIO;
import net.commoninternet.ccci.testing.LocalImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's picture on the real engine: chromium in its own container on the proxy network (under
 * the engine's default runtime) renders a stack's page, asked for by the run's domain, at the width
 * given; a page that does not answer is one line naming chromium's network error and no picture;
 * the browser's container is gone either way.
 */
class PageScreenshotSwarmTest {

    private final String stack = "cccishot_" + Long.toHexString(System.nanoTime());
    private final DockerEngine docker = DockerEngine.connect();

    @AfterEach
    void removeTheStack() throws Exception {
        try {
            new StackTeardown(docker.client()).teardown(stack);
        } finally {
            docker.close();
        }
    }

    @Test
    void thePageIsRenderedByItsDomainAtTheWidthGivenAndAPageThatDoesNotAnswerSaysWhy(@TempDir Path dir) throws Exception {
        Path compose = dir.resolve("compose.yml");
        // the page says which host it was asked for: the picture is of the page for the run's domain
        Files.writeString(compose, """
                version: "3.8"
                services:
                  web:
                    image: %s
                    command: ["sh", "-c", "mkdir -p /www && printf '<html><body style=margin:0;background:#1f6f3f><h1>shot</h1></body></html>' > /www/index.html && exec httpd -f -p 8080 -h /www"]
                    networks: [proxy]
                    deploy:
                      endpoint_mode: dnsrr
                networks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX), StandardCharsets.UTF_8);
        Process deploy = new ProcessBuilder("/usr/local/bin/docker", "stack", "deploy", "--detach=true", "--resolve-image",
                "never", "-c", compose.toString(), stack).redirectErrorStream(true).start();
        assertThat(deploy.waitFor()).as(new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        SwarmConvergence.Report report = new SwarmConvergence(docker).await(stack, Duration.ofMinutes(2));
        assertThat(report.converged()).as(report.problems().toString()).isTrue();
        PageScreenshot browser = new PageScreenshot(docker.client());

        for (int width : new int[] {360, 1280}) {
            Path png = dir.resolve("page-" + width + ".png");
            PageScreenshot.Shot shot = browser.take(new PageScreenshot.Page(stack, stack + "_web", "shot.example.org", 8080, "/"),
                    width, png, Duration.ofMinutes(2));

            assertThat(shot.png()).as(shot.why()).contains(png);
            BufferedImage image = ImageIO.read(png.toFile());
            assertThat(image.getWidth()).isEqualTo(width);
            assertThat(image.getRGB(width - 5, image.getHeight() - 5) & 0xffffff).as("the page's own background").isEqualTo(0x1f6f3f);
        }

        PageScreenshot.Shot refused = browser.take(new PageScreenshot.Page(stack, stack + "_web", "shot.example.org", 8081, "/"),
                1280, dir.resolve("refused.png"), Duration.ofMinutes(2));
        assertThat(refused.png()).isEmpty();
        assertThat(refused.why()).isEqualTo("the page http://shot.example.org:8081/ did not render: net::ERR_CONNECTION_REFUSED");
        assertThat(dir.resolve("refused.png")).doesNotExist();
        assertThat(docker.client().listContainersCmd().withShowAll(true).withLabelFilter(Map.of(StackLabels.PROBE, stack)).exec())
                .as("the browser's containers").isEmpty();
    }
}
