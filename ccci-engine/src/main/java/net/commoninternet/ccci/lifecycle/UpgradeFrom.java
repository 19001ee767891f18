package net.commoninternet.ccci.lifecycle;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * The releases a run upgrades from ({@code ccci.upgrade-from}): the previous release alone (the
 * default), the {@code last:N} newest releases older than the head, {@code all} of them, or the
 * releases listed. Which releases these are is decided once the recipe is fetched; each is then an
 * upgrade run of its own, and the run's INSTALL and other tiers run once, on the previous release's.
 *
 * @param kind how the bases are chosen
 * @param count how many, for {@link Kind#LAST}; 1 for {@link Kind#PREVIOUS}, 0 otherwise
 * @param releases the releases named, for {@link Kind#LIST}; empty otherwise
 */
@API(status = API.Status.INTERNAL)
public record UpgradeFrom(Kind kind, int count, List<String> releases) {

    /** How the bases are chosen. */
    public enum Kind {
        /** The release the run's upgrade plan picks (today's single upgrade). */
        PREVIOUS,
        /** The N newest releases older than the head. */
        LAST,
        /** Every release older than the head. */
        ALL,
        /** The releases named. */
        LIST
    }

    /** The most bases {@code last:N} may ask for: each is a deploy of its own. */
    public static final int MAX_LAST = 20;

    /** Today's upgrade: from the previous release alone. */
    public static final UpgradeFrom PREVIOUS = new UpgradeFrom(Kind.PREVIOUS, 1, List.of());

    /** A release as a list may name it: a git tag's shape, never an option or a path. */
    private static final Pattern RELEASE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,99}");

    public UpgradeFrom {
        Objects.requireNonNull(kind, "kind");
        releases = List.copyOf(releases);
    }

    /** Whether the run upgrades from more than the previous release. */
    public boolean matrix() {
        return kind != Kind.PREVIOUS;
    }

    /** The value as it is written ({@code previous}, {@code last:3}, {@code all}, {@code 1.0.0,1.1.0}). */
    @Override
    public String toString() {
        return switch (kind) {
            case PREVIOUS -> "previous";
            case LAST -> "last:" + count;
            case ALL -> "all";
            case LIST -> String.join(",", releases);
        };
    }

    /**
     * {@code raw} as the key's value: {@code previous}, {@code last:N} (N from 1 to {@link #MAX_LAST}),
     * {@code all}, or a comma-separated list of release tags; empty if it is none of these.
     */
    public static Optional<UpgradeFrom> parse(String raw) {
        String value = raw.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("previous")) {
            return Optional.of(PREVIOUS);
        }
        if (lower.equals("all")) {
            return Optional.of(new UpgradeFrom(Kind.ALL, 0, List.of()));
        }
        if (lower.startsWith("last:")) {
            try {
                int n = Integer.parseInt(value.substring("last:".length()).strip());
                return n >= 1 && n <= MAX_LAST ? Optional.of(new UpgradeFrom(Kind.LAST, n, List.of())) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        List<String> named = Arrays.stream(value.split(",", -1)).map(String::strip).distinct().toList();
        if (value.isEmpty() || named.stream().anyMatch(r -> !RELEASE.matcher(r).matches())) {
            return Optional.empty();
        }
        return Optional.of(new UpgradeFrom(Kind.LIST, 0, named));
    }
}
