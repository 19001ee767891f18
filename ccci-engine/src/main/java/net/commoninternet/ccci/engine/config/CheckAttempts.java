package net.commoninternet.ccci.engine.config;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * How a failed check is tried again against the same live app: at most {@code attempts} tries in
 * all, {@code backoff} before the second and twice the pause before each later one, and whether a
 * check that failed and then passed (flaky) may pass its tier ({@link Constants#CHECK_ATTEMPTS},
 * {@link Constants#CHECK_BACKOFF}, {@link Constants#ALLOW_FLAKY}).
 */
@API(status = API.Status.INTERNAL)
public record CheckAttempts(int attempts, Duration backoff, boolean allowFlaky) {

    public static final int MAX_ATTEMPTS = 10;
    public static final long MAX_BACKOFF_SECONDS = 60;

    public static final CheckAttempts DEFAULT = new CheckAttempts(Constants.DEFAULT_CHECK_ATTEMPTS,
            Duration.ofSeconds(Constants.DEFAULT_CHECK_BACKOFF_SECONDS), false);

    public CheckAttempts {
        if (attempts < 1 || attempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempts " + attempts + " not in 1.." + MAX_ATTEMPTS);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("negative backoff " + backoff);
        }
    }

    /** The pause before attempt {@code next} (2 or later): the backoff, doubled for each attempt after the second. */
    public Duration pauseBefore(int next) {
        return backoff.multipliedBy(1L << Math.min(Math.max(0, next - 2), 16));
    }
}
