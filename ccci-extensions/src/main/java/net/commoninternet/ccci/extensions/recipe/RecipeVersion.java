package net.commoninternet.ccci.extensions.recipe;

import com.github.zafarkhaja.semver.ParseException;
import com.github.zafarkhaja.semver.Version;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * A recipe release as its tag names it: {@code <recipe-semver>+<upstream-version>}
 * ({@code 1.2.0+1.22.1}), or {@code v1.2.3}-style, strict SemVer 2.0.0 after one leading
 * {@code v} (java-semver: pre-releases, build metadata, 64-bit numbers). Ordered by semver
 * precedence, so {@code 1.0.0-rc.1 < 1.0.0 < 1.10.0}; the upstream part is build metadata and
 * carries no precedence (two releases that differ only there are ordered by it, then by their
 * text, so the order is total and the same on every host).
 */
@API(status = API.Status.INTERNAL)
public record RecipeVersion(String text, Version semver) implements Comparable<RecipeVersion> {

    // compareToIgnoreBuildMetadata is SemVer precedence. (java-semver 0.10.2's PRECEDENCE_ORDER
    // comparator sorts the other way round, highest first: 1.10.0 before 1.9.0.)
    private static final Comparator<RecipeVersion> ORDER = ((Comparator<RecipeVersion>) (a, b) ->
            a.semver().compareToIgnoreBuildMetadata(b.semver()))
            .thenComparing(RecipeVersion::semver, Version.BUILD_AWARE_ORDER).thenComparing(RecipeVersion::text);

    /** What a release tag looks like before it is checked: three dot-separated numbers, maybe a v. */
    private static final Pattern LOOKS_LIKE = Pattern.compile("[vV]?\\d+\\.\\d+\\.\\d+([-+].*)?");

    /** The release {@code text} names, or empty if it is not a version (a tag such as {@code latest}). */
    public static Optional<RecipeVersion> parse(String text) {
        return Version.tryParse(withoutV(text)).map(v -> new RecipeVersion(text, v));
    }

    /**
     * Why {@code text} looks like a release but is not one ccci can order, as one sentence naming
     * the fix; empty for a valid release and for text that is no version at all.
     */
    public static Optional<String> problem(String text) {
        if (!LOOKS_LIKE.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            Version.parse(withoutV(text));
            return Optional.empty();
        } catch (ParseException e) {
            String why = String.valueOf(e.getMessage()).contains("overflow")
                    ? "a number in it is larger than " + Long.MAX_VALUE
                    : "it is not SemVer 2.0.0 (" + e.getMessage() + ")";
            return Optional.of("the tag " + text + " looks like a release but " + why + ", so ccci cannot order it:"
                    + " retag the release as <major>.<minor>.<patch>+<upstream>.");
        }
    }

    private static String withoutV(String text) {
        return text.startsWith("v") || text.startsWith("V") ? text.substring(1) : text;
    }

    /** A pre-release ({@code 2.0.0-rc.1}): never chosen as an upgrade base while a stable release would do. */
    public boolean preRelease() {
        return semver.isPreRelease();
    }

    /** Same semver precedence (the upstream part ignored): {@code 1.0.0+a} and {@code v1.0.0} are the same release. */
    public boolean samePrecedence(RecipeVersion other) {
        return semver.compareToIgnoreBuildMetadata(other.semver) == 0;
    }

    @Override
    public int compareTo(RecipeVersion o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return text;
    }
}
