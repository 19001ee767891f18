package net.commoninternet.ccci.extensions.deployment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.probe.AppProbes;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.browser.PageBrowser;
import net.commoninternet.ccci.spi.Probes;

/** The run's probes of its app: the HTTP probe's and the recipe's own ({@link AppProbes}), from its probe container. */
final class LiveProbes implements Probes {

    private final Deployment deployment;
    /** The READY_PROBE's verdict, awaited once for the run; null until then. Guarded by this. */
    private Outcome readiness;

    LiveProbes(Deployment deployment) {
        this.deployment = deployment;
    }

    @Override
    public Optional<Answer> awaitHttp(String path, List<Integer> ok, Duration timeout) throws InterruptedException {
        HttpProbe http = deployment.tools().http();
        Optional<HttpProbe.Target> target = http.target(deployment.deployed().stack());
        if (target.isEmpty()) {
            return Optional.empty();
        }
        HttpProbe.Answer answer = http.await(target.get(), deployment.deployed().domain(), path, ok, timeout);
        return Optional.of(new Answer(target.get().url(path), answer.status(), answer.detail()));
    }

    @Override
    public Optional<Picture> picture(String path, int width, Path png, Duration timeout) throws InterruptedException {
        Optional<HttpProbe.Target> target = deployment.tools().http().target(deployment.deployed().stack());
        if (target.isEmpty()) {
            return Optional.empty();
        }
        PageBrowser.Page page = new PageBrowser.Page(deployment.deployed().stack(), target.get().service(),
                deployment.deployed().domain(), target.get().port(), path);
        PageBrowser.Shot shot = deployment.tools().browser().take(page, width, png, timeout);
        return Optional.of(new Picture(page.url(), shot.png(), shot.why()));
    }

    @Override
    public CompletableFuture<Optional<Picture>> pictureAhead(String path, int width, Path png, Duration timeout) {
        CompletableFuture<Optional<Picture>> picture = new CompletableFuture<>();
        deployment.tools().threads().start("ccci-picture", () -> {
            try {
                picture.complete(picture(path, width, png, timeout));
            } catch (InterruptedException | RuntimeException | Error e) {
                picture.completeExceptionally(e);
            }
        });
        return picture;
    }

    @Override
    public Outcome await(CiKeys.Probe probe, Duration timeout) throws InterruptedException {
        return of(app().await(probe, timeout));
    }

    @Override
    public Outcome retry(CiKeys.Probe probe, int attempts) throws InterruptedException {
        return of(app().retry(probe, attempts));
    }

    /**
     * Awaited once for the run: the lifecycle awaits it before the tiers and INSTALL's
     * {@code ready-probe} check gives that verdict, rather than waiting for the probe a second time.
     * The probe the run began beside the convergence ({@link Deployment#readinessBegun}), if it did,
     * is that one wait.
     */
    @Override
    public synchronized Outcome readiness(CiKeys.Probe probe, Duration timeout) throws InterruptedException {
        if (readiness == null) {
            Optional<CompletableFuture<Outcome>> begun = deployment.readinessBegun();
            readiness = begun.isPresent() ? awaited(begun.get()) : await(probe, timeout);
        }
        return readiness;
    }

    /** The outcome of a probe begun on another thread; what stopped it is thrown as it was. */
    private static Outcome awaited(CompletableFuture<Outcome> begun) throws InterruptedException {
        try {
            return begun.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof InterruptedException stopped) {
                throw stopped;
            }
            if (e.getCause() instanceof RuntimeException failed) {
                throw failed;
            }
            throw new IllegalStateException("the READY_PROBE failed: " + e.getCause(), e.getCause());
        }
    }

    private AppProbes app() {
        return new AppProbes(deployment.tools().http(), deployment.exec(), deployment.deployed().stack(),
                deployment.deployed().domain(), deployment.prepared().keys().healthOk());
    }

    private static Outcome of(AppProbes.Outcome outcome) {
        return new Outcome(outcome.ok(), outcome.detail());
    }
}
