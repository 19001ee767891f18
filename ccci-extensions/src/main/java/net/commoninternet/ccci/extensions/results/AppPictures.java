package net.commoninternet.ccci.extensions.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.Store;
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
 * {@code screenshots/<tier>.txt}, its one line of why; beside a picture, that file is its caption
 * (what the browser refused of the page: anything of another origin than the run's own). Written
 * against the SPI alone.
 *
 * <p>The picture is begun once the tier's operation ended ({@link RunExtension.BeforeChecks}) and
 * taken beside its checks, of the state the operation left as the checks see it (a picture is
 * about 0.4 s of the browser's work, off the tier's path); after a failed operation it is taken
 * when the tier ends. Either way it is in before the tier's service logs are read.
 *
 * <p>Evidence, never a judge: the tier's verdict is what its operation and checks made it.
 */
@API(status = API.Status.INTERNAL)
public final class AppPictures implements RunExtension.BeforeChecks, RunExtension.AfterTier {

    private static final Logger LOG = LoggerFactory.getLogger(AppPictures.class);

    /** The tiers after which the page is pictured: the app as installed, and as upgraded. */
    public static final Set<Tier> PICTURED = Set.of(Tier.INSTALL, Tier.UPGRADE);
    /** A desktop's width. */
    static final int WIDTH = 1280;
    /** How long one picture may take, the browser's start included. */
    private static final Duration BOUND = Duration.ofSeconds(90);

    /** The picture begun beside the tier's checks, per tier. */
    private static final Store.Key<Begun> BEGUN = Store.Key.of("the app's picture begun beside the checks", Begun.class);

    /** A picture under way: of which tier, since when, its outcome to come, and when it came. */
    private record Begun(Tier tier, long started, CompletableFuture<Optional<Probes.Picture>> picture, AtomicLong ended) {
        Begun {
            picture.whenComplete((p, e) -> ended.set(System.nanoTime()));
        }
    }

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
    public void beforeChecks(TierContext tier) {
        if (PICTURED.contains(tier.tier())) {
            long started = System.nanoTime();
            tier.store().put(BEGUN, new Begun(tier.tier(), started, tier.live().probes().pictureAhead(tier.keys().screenshotPath(),
                    WIDTH, picture(tier.runDir(), tier.tier()), BOUND), new AtomicLong()));
        }
    }

    @Override
    public void afterTier(TierContext tier, Throwable failure) {
        if (!PICTURED.contains(tier.tier())) {
            return;
        }
        Path png = picture(tier.runDir(), tier.tier());
        Optional<Begun> begun = tier.store().find(BEGUN).filter(b -> b.tier() == tier.tier());
        long started = begun.map(Begun::started).orElseGet(System::nanoTime);
        try {
            Optional<Probes.Picture> picture = begun.isPresent() ? awaited(begun.get())
                    : tier.live().probes().picture(tier.keys().screenshotPath(), WIDTH, png, BOUND);
            if (picture.isEmpty()) {
                keep(tier, "no service of the app is routed (traefik.enable=true and a loadbalancer.server.port): nothing to"
                        + " picture");
            } else if (picture.get().png().isPresent()) {
                long ended = begun.map(b -> b.ended().get()).filter(t -> t != 0).orElseGet(System::nanoTime);
                LOG.info("picture of {} after {} in {} ms{}: {}", picture.get().url(), tier.tier().id(),
                        (ended - started) / 1_000_000, begun.isPresent() ? " (beside the checks)" : "", png);
                tier.attach(png, "image/png");
                if (!picture.get().why().isEmpty()) {
                    // what the browser refused of the page (another origin's): the picture's caption
                    keep(tier, tier.redact(picture.get().why()));
                }
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

    /** The picture begun beside the checks, once it is taken: what stopped it is thrown as it was. */
    private static Optional<Probes.Picture> awaited(Begun begun) throws Exception {
        try {
            return begun.picture().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static void keep(TierContext tier, String why) throws IOException {
        LOG.info("{} after {}: {}", Files.exists(picture(tier.runDir(), tier.tier())) ? "the picture" : "no picture",
                tier.tier().id(), why);
        Path file = why(tier.runDir(), tier.tier());
        Files.createDirectories(file.getParent());
        Files.writeString(file, why + "\n", StandardCharsets.UTF_8);
    }
}
