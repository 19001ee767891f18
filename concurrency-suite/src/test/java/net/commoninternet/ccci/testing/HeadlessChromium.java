package net.commoninternet.ccci.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver (both installed by
 * scripts/setup-local-swarm): a page as a person's browser shows it. Started with the flags this
 * closed network needs (no background networking, no component updates, no sync) and a fresh
 * profile of its own.
 */
public final class HeadlessChromium implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    public static HeadlessChromium start(Path profile) throws IOException {
        for (Path binary : new Path[] {CHROMIUM, CHROMEDRIVER}) {
            if (!Files.isExecutable(binary)) {
                throw new AssertionError(binary + " is missing: run scripts/setup-local-swarm, which installs Debian's"
                        + " chromium and chromium-driver.");
            }
        }
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createDirectories(profile), "--window-size=1280,1600");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new HeadlessChromium(new ChromeDriver(service, options));
    }

    /** Opens {@code page} and returns its visible text, as the browser renders it. */
    public String visibleText(Path page) {
        driver.get(page.toUri().toString());
        return driver.findElement(By.tagName("body")).getText();
    }

    /**
     * Makes the browser a screen {@code width} CSS pixels wide, as a phone's (360) or a laptop's
     * (1280): a mobile viewport, so a page without {@code <meta name="viewport">} is laid out 980 px
     * wide and scaled down, as a phone does, instead of at the screen's width. Then reloads.
     */
    public void screen(int width) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", 800,
                "deviceScaleFactor", 1, "mobile", width < 600));
        driver.navigate().refresh();
    }

    /** The href, as written, of each element of the current page {@code cssSelector} selects. */
    public List<String> hrefsOf(String cssSelector) {
        return driver.findElements(By.cssSelector(cssSelector)).stream().map(e -> e.getDomAttribute("href")).toList();
    }

    /** The text the current page shows in the element {@code cssSelector} selects, opening every {@code <details>} first. */
    public String textOf(String cssSelector) {
        driver.executeScript("document.querySelectorAll('details').forEach(d => d.open = true)");
        return driver.findElement(By.cssSelector(cssSelector)).getText();
    }

    /**
     * What of the current page does not fit the screen's width: the page itself (it scrolls
     * sideways), each table wider than the box it sits in (named by its caption), and each
     * scrolling region ({@code .scroll}) whose content is wider than it. The viewport's own width comes first, so a page the phone scaled down (no viewport) shows.
     */
    @SuppressWarnings("unchecked")
    public List<String> widerThanTheScreen() {
        return (List<String>) driver.executeScript("const root = document.documentElement, out = [];"
                + "out.push('viewport ' + window.innerWidth + ' px');"
                + "if (root.scrollWidth > root.clientWidth) out.push('the page, ' + root.scrollWidth + ' px wide');"
                + "document.querySelectorAll('table').forEach(t => { if (t.getBoundingClientRect().width > t.parentElement.clientWidth + 1)"
                + " out.push('table ' + (t.caption ? t.caption.textContent : '?') + ', ' + Math.round(t.getBoundingClientRect().width) + ' px'); });"
                + "document.querySelectorAll('.scroll').forEach(r => { if (r.scrollWidth > r.clientWidth + 1)"
                + " out.push('region ' + r.getAttribute('aria-label') + ' scrolls: ' + r.scrollWidth + ' px in ' + r.clientWidth); });"
                + "return out;");
    }

    /** The widths a report is checked at: a phone's and a laptop's. */
    public static final List<Integer> SCREENS = List.of(360, 1280);

    /**
     * The page shown now, at each of {@link #SCREENS}: nothing wider than the screen, no serious or
     * critical axe-core violation, and a full-page screenshot kept as {@code <name>-<width>.png} in
     * {@code screenshots}.
     */
    public void assertReadableOnEveryScreen(String name, Path screenshots) throws IOException {
        for (int width : SCREENS) {
            screen(width);
            org.assertj.core.api.Assertions.assertThat(widerThanTheScreen()).as("%s at %d px", name, width)
                    .containsExactly("viewport " + width + " px");
            List<Axe.Violation> violations = Axe.check(this);
            org.assertj.core.api.Assertions.assertThat(violations).as("%s at %d px: %s", name, width, violations)
                    .noneMatch(Axe.Violation::seriousOrWorse);
            fullPageScreenshot(screenshots.resolve(name + "-" + width + ".png"));
        }
    }

    /** Runs {@code script} in the page (its {@code arguments}: {@code args}) and returns what it returns. */
    public Object script(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Runs {@code script}, which calls its last argument back with the result, and waits for it. */
    public Object asyncScript(String script, Object... args) {
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        return driver.executeAsyncScript(script, args);
    }

    /** A PNG of the whole page, top to bottom, at the current screen's width. */
    public void fullPageScreenshot(Path png) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png",
                "captureBeyondViewport", true, "fromSurface", true));
        Files.createDirectories(png.getParent());
        Files.write(png, Base64.getDecoder().decode((String) shot.get("data")));
    }

    /** How many resources (styles, scripts, images, fonts) the page loaded besides itself. */
    public long resourcesLoaded() {
        return ((Number) driver.executeScript("return performance.getEntriesByType('resource').length")).longValue();
    }

    /** A PNG of what the browser shows now. */
    public void screenshot(Path png) throws IOException {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(png.getParent());
        Files.copy(shot.toPath(), png, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
