package net.commoninternet.ccci.spi;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Whether every service of an app converged (spec section 8: every task running the current spec,
 * no update under way or paused), and what was seen.
 *
 * @param description {@code converged}, or each service's problem
 */
@API(status = API.Status.EXPERIMENTAL)
public record Convergence(boolean converged, String description) {

    public Convergence {
        Objects.requireNonNull(description, "description");
    }
}
