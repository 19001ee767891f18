package net.commoninternet.ccci.api;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * The deployed app as a recipe's assertions and functional tests see it. Requests go where the
 * production proxy would send them (the app's routed service, with the app's domain as Host).
 */
@API(status = API.Status.EXPERIMENTAL)
public interface LiveApp {

    /** The app's domain, e.g. {@code cust-4734d8.ci.commoninternet.net}. */
    String domain();

    /** The recipe's CI keys, defaults filled in. */
    CiKeys keys();

    /** The apps of its dependencies ({@code DEPS}) this run deployed: recipe to domain. */
    default Map<String, String> deps() {
        return Map.of();
    }

    /** One GET of {@code path}; redirects are not followed. */
    Response get(String path) throws Exception;

    /** {@code sh -c script} in a running container of the app's {@code service} (compose name). */
    Response exec(String service, String script) throws Exception;

    /**
     * An answer: an HTTP status (or -1 when nothing answered) or a command's exit status, and the
     * body or output.
     */
    record Response(int status, String body) {
    }
}
