package net.commoninternet.ccci.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** How many resources (styles, scripts, images, fonts) the page loaded besides itself. */
    public long resourcesLoaded() {
        return ((Number) driver.executeScript("return performance.getEntriesByType('resource').length")).longValue();
    }

    /** A PNG of what the browser shows now. */
    public void screenshot(Path png) throws IOException {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.createDirectories(png.getParent());
        Files.copy(shot.toPath(), png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
