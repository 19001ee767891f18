package net.commoninternet.ccci.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import net.commoninternet.ccci.api.CiKeys;
import org.apiguardian.api.API;

/**
 * Probes of the live app, each from the app's probe container on the run's own network (which the
 * app joins in place of the shared proxy network), the way the production proxy reaches it.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface Probes {

    /** One probe's outcome, with what was seen. */
    record Outcome(boolean ok, String detail) {
    }

    /**
     * The last answer of an HTTP wait.
     *
     * @param url where the request went ({@code http://tasks.<service>:<port><path>})
     * @param status the HTTP status, -1 when nothing answered
     * @param detail the status, or why nothing answered
     */
    record Answer(String url, int status, String detail) {
    }

    /**
     * GETs {@code path} with the app's domain as Host until the answer is one of {@code ok} or
     * {@code timeout} ends; empty when no service of the app is routed (no {@code traefik.enable=true}
     * with a {@code loadbalancer.server.port}).
     */
    Optional<Answer> awaitHttp(String path, List<Integer> ok, Duration timeout) throws InterruptedException;

    /** Every HTTP status: what {@link #firstAnswer} waits for. */
    List<Integer> ANY_STATUS = java.util.stream.IntStream.rangeClosed(100, 599).boxed().toList();

    /**
     * GETs {@code path} as {@link #awaitHttp} does until anything answers (any HTTP status) or
     * {@code timeout} ends: the app's first answer, for a check to judge as it is. A wait for an OK
     * status would pass over the error statuses a flaky app answers first, and call it green.
     */
    default Optional<Answer> firstAnswer(String path, Duration timeout) throws InterruptedException {
        return awaitHttp(path, ANY_STATUS, timeout);
    }

    /** Repeats {@code probe} until it passes or {@code timeout} ends; the last outcome. */
    Outcome await(CiKeys.Probe probe, Duration timeout) throws InterruptedException;

    /** Up to {@code attempts} tries of {@code probe}, a pause apart: the first pass or the last failure. */
    Outcome retry(CiKeys.Probe probe, int attempts) throws InterruptedException;

    /**
     * A picture of the page at {@code path} as a person's browser renders it, {@code width} px
     * wide, into {@code png}: a real headless browser in a container of its own on the run's
     * network, confined like the app's containers, asks for it by the app's domain and renders that
     * origin alone (a navigation elsewhere is no picture; what else it refused is the picture's
     * {@code why}, its caption). Empty when no service of the app is routed.
     */
    Optional<Picture> picture(String path, int width, Path png, Duration timeout) throws InterruptedException;

    /**
     * {@link #picture}, begun now on a thread of the run's own (its lines are the run's), beside
     * whatever the caller does next; the future ends with the picture, or with what stopped it.
     */
    CompletableFuture<Optional<Picture>> pictureAhead(String path, int width, Path png, Duration timeout);

    /**
     * A picture's outcome: the page's address, the file (empty if the page did not render), and
     * why there is none, in one line; beside a file, its caption (what the browser refused of the
     * page), or empty.
     */
    record Picture(String url, Optional<Path> png, String why) {
    }

    /**
     * The recipe's {@code READY_PROBE} verdict, awaited once for the run: the lifecycle awaits it
     * before the tiers, and a later call gives that verdict rather than waiting a second time.
     */
    Outcome readiness(CiKeys.Probe probe, Duration timeout) throws InterruptedException;
}
