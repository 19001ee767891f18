package net.commoninternet.ccci.extensions.browser;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What one picture's page may ask the browser for: its own origin only, the scheme, host and port
 * the run asked for (the app's domain, which the browser maps to the app's routed service alone).
 * Every other request of the page is refused, whoever makes it: a redirect, a link followed, a
 * script's change of {@code location}, a frame, an image, a script, a style sheet, a fetch. A page
 * need not be hostile to ask for another origin (a font from a CDN); the picture must be of the
 * run's own app, never of what another origin answers, so its every byte comes from the app.
 * Requests that never leave the browser ({@code data:}, {@code blob:}, {@code about:}) are the page's
 * own.
 *
 * <p>Each refusal is remembered for the picture's caption: a refused navigation of the page itself
 * (its main frame) means there is no picture of the app to keep (chromium shows its own error page
 * in its place); a refused sub-resource or frame leaves the app's page, without it.
 *
 * <p>Called on the browser pipe's reader thread ({@link DevToolsPipe#gate}) and read by the
 * picture's thread: guarded by this.
 */
final class OwnOrigin implements Predicate<JsonNode> {

    /** The refused addresses a caption names; the rest are counted. */
    private static final int NAMED = 3;
    /** An address is cut at this length in a caption. */
    private static final int URL_CHARS = 160;

    private final String origin;
    private final String scheme;
    private final String host;
    private final int port;
    private final String mainFrame;
    private final List<String> refused = new ArrayList<>();
    private int count;
    private String navigation;

    /** The origin of {@code pageUrl}; {@code mainFrame} is the id of the picture's page's main frame (its target's). */
    OwnOrigin(String pageUrl, String mainFrame) {
        URI page = URI.create(pageUrl);
        this.scheme = page.getScheme().toLowerCase(Locale.ROOT);
        this.host = page.getHost().toLowerCase(Locale.ROOT);
        this.port = port(page);
        this.origin = scheme + "://" + host + ":" + port;
        this.mainFrame = mainFrame;
    }

    /** The run's origin, as a caption says it. */
    String origin() {
        return origin;
    }

    /** Whether {@code url} is of the run's own origin, or never leaves the browser. */
    boolean own(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("data:") || lower.startsWith("blob:") || lower.startsWith("about:")) {
            return true;
        }
        try {
            URI uri = new URI(url);
            return uri.getScheme() != null && uri.getHost() != null && scheme.equals(uri.getScheme().toLowerCase(Locale.ROOT))
                    && host.equals(uri.getHost().toLowerCase(Locale.ROOT)) && port == port(uri);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /** A paused request ({@code Fetch.requestPaused}'s parameters): true if it may go on; a refusal is remembered. */
    @Override
    public synchronized boolean test(JsonNode paused) {
        String url = paused.path("request").path("url").asText("");
        if (own(url)) {
            return true;
        }
        String shown = url.length() > URL_CHARS ? url.substring(0, URL_CHARS) + "..." : url;
        if ("Document".equals(paused.path("resourceType").asText()) && mainFrame.equals(paused.path("frameId").asText())
                && navigation == null) {
            navigation = shown;
        }
        if (refused.size() < NAMED && !refused.contains(shown)) {
            refused.add(shown);
        }
        count++;
        return false;
    }

    /** The first navigation of the page itself to another origin, refused: then no picture is of the app. */
    synchronized Optional<String> navigationRefused() {
        return Optional.ofNullable(navigation);
    }

    /** The sentence for a picture whose page went elsewhere: there is no picture. */
    synchronized String navigationSentence(String pageUrl) {
        return "the page " + pageUrl + " navigated to " + navigation + ", which is not the run's own origin (" + origin
                + "): the browser refused it and kept no picture";
    }

    /** The caption of a picture some of whose requests were refused; empty if none was. */
    synchronized String caption() {
        if (count == 0) {
            return "";
        }
        return "the browser refused " + count + (count == 1 ? " request" : " requests") + " of the page to other origins"
                + " than the run's own (" + origin + "): " + String.join(", ", refused) + (count > refused.size() ? ", ..." : "");
    }
}
