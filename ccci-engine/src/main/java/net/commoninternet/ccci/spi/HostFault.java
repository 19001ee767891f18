package net.commoninternet.ccci.spi;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A failure that is the host's, not the recipe's: the engine refused or went away, an image could
 * not be pulled because its registry was out of reach, the disk was full, or ccci itself failed (its
 * own bug, its own timeout against the engine). Such a failure proves nothing about the recipe: its
 * row is an {@link SkipKind#INFRASTRUCTURE} skip, its rung reads {@code unver}, the run's verdict
 * {@code unverified}, never {@code failed}. It is no {@link AssertionError}, so JUnit reports it
 * failed and Surefire writes it as an {@code <error>} (a recipe's failed check is an assertion, a
 * {@code <failure>}): the build is red either way, never green on a rung nobody verified.
 *
 * <p>Its message is the whole sentence a maintainer reads: whose fault, what happened, what to do.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class HostFault extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The host's part that failed, and what a maintainer does about it. */
    public enum Cause {
        /** The Docker engine refused a request (HTTP 5xx, its runtime could not start a container) or stopped answering. */
        ENGINE("the Docker engine failed", "rerun; if it happens again, tell the host's operator (dockerd's log says why)"),
        /** An image could not be pulled: its registry or the network to it was out of reach (not: the image does not exist). */
        IMAGE_PULL("an image could not be pulled", "rerun once the engine reaches the registry again; if it does not, tell the"
                + " host's operator"),
        /** The host's disk is full (ENOSPC). */
        DISK("the host's disk is full", "tell the host's operator to free space on the engine's disk, then rerun"),
        /** ccci's own code failed unexpectedly, not a recipe's check or hook. */
        CCCI_BUG("ccci's own bug", "rerun; report it to ccci's maintainers with the run's run.log"),
        /** ccci gave up waiting for the engine's answer. */
        CCCI_TIMEOUT("ccci timed out waiting for the Docker engine", "rerun; if it happens again, tell the host's operator"
                + " that the engine answers too slowly");

        private final String what;
        private final String toDo;

        Cause(String what, String toDo) {
            this.what = what;
            this.toDo = toDo;
        }

        /** How results.json names it: {@code image_pull}. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** What a maintainer does about it: {@code rerun; ...}. */
        public String toDo() {
            return toDo;
        }

        /** How the sentence of this cause begins: {@code the host's fault, not the recipe's: an image could not be pulled;}. */
        public String opening() {
            return "the host's fault, not the recipe's: " + what + ";";
        }

        /**
         * The sentence a report shows, what to do before the detail (a report that cuts a long line
         * keeps it): {@code the host's fault, not the recipe's: an image could not be pulled; rerun once
         * ... — <detail>}.
         */
        public String describe(String detail) {
            return opening() + " " + toDo + " — " + detail;
        }
    }

    private final Cause cause;

    /** @param detail what happened, in the host's terms (the engine's own words, the image, the registry) */
    public HostFault(Cause cause, String detail, Throwable failure) {
        super(cause.describe(detail), failure);
        this.cause = Objects.requireNonNull(cause);
    }

    /** A copy with another message (masked, say), the same cause and the same failure under it. */
    public HostFault(HostFault fault, String message, Throwable failure) {
        super(message, failure);
        this.cause = fault.cause;
    }

    public Cause kind() {
        return cause;
    }

    /** The host fault {@code failure} is or carries (as a cause or a suppressed failure), if any. */
    public static Optional<HostFault> in(Throwable failure) {
        return in(failure, 0);
    }

    private static Optional<HostFault> in(Throwable t, int depth) {
        if (t == null || depth > 20) {
            return Optional.empty();
        }
        if (t instanceof HostFault fault) {
            return Optional.of(fault);
        }
        for (Throwable suppressed : t.getSuppressed()) {
            Optional<HostFault> found = in(suppressed, depth + 1);
            if (found.isPresent()) {
                return found;
            }
        }
        return t.getCause() == t ? Optional.empty() : in(t.getCause(), depth + 1);
    }
}
