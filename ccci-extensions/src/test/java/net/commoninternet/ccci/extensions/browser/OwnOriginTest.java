package net.commoninternet.ccci.extensions.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The browser's gate, request by request (PageBrowserSwarmTest holds it in a real chromium): the
 * run's own scheme, host and port go on, as do requests that never leave the browser; anything
 * else is refused, a navigation of the page itself apart from a frame's or a sub-resource's.
 */
class OwnOriginTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode paused(String url, String type, String frame) {
        return JSON.valueToTree(Map.of("requestId", "1", "request", Map.of("url", url), "resourceType", type, "frameId", frame));
    }

    @Test
    void theRunsOwnOriginAndWhatNeverLeavesTheBrowserGoOn() {
        OwnOrigin gate = new OwnOrigin("http://app-abc123.ci.example.org:8080/health", "MAIN");

        assertThat(gate.origin()).isEqualTo("http://app-abc123.ci.example.org:8080");
        for (String own : new String[] {"http://app-abc123.ci.example.org:8080/", "http://APP-abc123.ci.example.org:8080/x?y#z",
                "HTTP://app-abc123.ci.example.org:8080/a", "data:image/png;base64,AAAA", "blob:http://app-abc123.ci.example.org:8080/1",
                "about:blank"}) {
            assertThat(gate.test(paused(own, "Image", "MAIN"))).as(own).isTrue();
        }
        assertThat(gate.caption()).isEmpty();
        assertThat(gate.navigationRefused()).isEmpty();
        // port 80 is http's own
        OwnOrigin eighty = new OwnOrigin("http://app-abc123.ci.example.org:80/", "MAIN");
        assertThat(eighty.own("http://app-abc123.ci.example.org/x")).isTrue();
        assertThat(eighty.own("https://app-abc123.ci.example.org/x")).isFalse();
    }

    @Test
    void anyOtherOriginIsRefusedAndTheMainFramesNavigationIsToldApart() {
        OwnOrigin gate = new OwnOrigin("http://app-abc123.ci.example.org:8080/", "MAIN");

        for (String other : new String[] {"http://app-abc123.ci.example.org:8081/", "https://app-abc123.ci.example.org:8080/",
                "http://tasks.other_app/", "http://10.0.1.5:8080/", "http://app-abc123.ci.example.org.evil.org:8080/",
                "http://evil.org/?u=http://app-abc123.ci.example.org:8080/", "ws://app-abc123.ci.example.org:8080/", "not a url"}) {
            assertThat(gate.test(paused(other, "Image", "MAIN"))).as(other).isFalse();
        }
        assertThat(gate.navigationRefused()).as("sub-resources are no navigation").isEmpty();
        assertThat(gate.test(paused("http://tasks.other_app/frame", "Document", "FRAME"))).isFalse();
        assertThat(gate.navigationRefused()).as("a frame's document is no navigation of the page").isEmpty();

        assertThat(gate.test(paused("http://tasks.other_app/private", "Document", "MAIN"))).isFalse();

        assertThat(gate.navigationRefused()).contains("http://tasks.other_app/private");
        assertThat(gate.navigationSentence("http://app-abc123.ci.example.org:8080/")).isEqualTo("the page"
                + " http://app-abc123.ci.example.org:8080/ navigated to http://tasks.other_app/private, which is not the run's"
                + " own origin (http://app-abc123.ci.example.org:8080): the browser refused it and kept no picture");
        assertThat(gate.caption()).isEqualTo("the browser refused 10 requests of the page to other origins than the run's own"
                + " (http://app-abc123.ci.example.org:8080): http://app-abc123.ci.example.org:8081/,"
                + " https://app-abc123.ci.example.org:8080/, http://tasks.other_app/, ...");
    }
}
