package net.commoninternet.ccci.extensions.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.TierContext;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After the install and after the upgrade, a picture of the app's page as a browser renders it:
 * the recipe's {@code SCREENSHOT} path, else its health path, {@link #WIDTH} px wide
 * ({@link Probes#picture}). It goes to {@code <run dir>/screenshots/<tier>.png}, is attached to the
 * tier's node, and report.html shows the two side by side: a picture says "the upgrade broke the
 * stylesheet" faster than any status code. A page that does not render leaves
 * {@code screenshots/<tier>.txt}, its one line of why. Written against the SPI alone.
 *
 * <p>Evidence, never a judge: the tier's verdict is what its operation and checks made it.
 */
@API(status = API.Status.INTERNAL)
public final class AppPictures implements RunExtension.AfterTier {

    private static final Logger LOG = LoggerFactory.getLogger(AppPictures.class);

    /** The tiers after which the page is pictured: the app as installed, and as upgraded. */
    public static final Set<Tier> PICTURED = Set.of(Tier.INSTALL, Tier.UPGRADE);
    /** A desktop's width. */
    static final int WIDTH = 1280;
    /** How long one picture may take, the browser's start included. */
    private static final Duration BOUND = Duration.ofSeconds(90);

    /** The picture of {@code tier}'s page in the run's folder, and the file saying why there is none. */
    static Path picture(Path runDir, Tier tier) {
        return runDir.resolve("screenshots").resolve(tier.id() + ".png");
    }

    static Path why(Path runDir, Tier tier) {
        return runDir.resolve("screenshots").resolve(tier.id() + ".txt");
    }

    /** Before the tier's service logs are read: the browser's requests land in the tier's own log window. */
    @Override
    public int order() {
        return -10;
    }

    @Override
    public void afterTier(TierContext tier, Throwable failure) {
        if (!PICTURED.contains(tier.tier())) {
            return;
        }
        Path png = picture(tier.runDir(), tier.tier());
        long started = System.nanoTime();
        try {
            Optional<Probes.Picture> picture = tier.live().probes().picture(tier.keys().screenshotPath(), WIDTH, png, BOUND);
            if (picture.isEmpty()) {
                keep(tier, "no service of the app is routed (traefik.enable=true and a loadbalancer.server.port): nothing to"
                        + " picture");
            } else if (picture.get().png().isPresent()) {
                LOG.info("picture of {} after {} in {} ms: {}", picture.get().url(), tier.tier().id(),
                        (System.nanoTime() - started) / 1_000_000, png);
                tier.attach(png, "image/png");
            } else {
                keep(tier, tier.redact(picture.get().why()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("no picture after {}: the run was interrupted", tier.tier().id());
        } catch (Exception e) {
            LOG.warn("no picture after {} (the verdict stands): {}", tier.tier().id(), e.toString());
        }
    }

    private static void keep(TierContext tier, String why) throws IOException {
        LOG.info("no picture after {}: {}", tier.tier().id(), why);
        Path file = why(tier.runDir(), tier.tier());
        Files.createDirectories(file.getParent());
        Files.writeString(file, why + "\n", StandardCharsets.UTF_8);
    }
}
