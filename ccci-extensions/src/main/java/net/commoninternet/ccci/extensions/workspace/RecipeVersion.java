package net.commoninternet.ccci.extensions.workspace;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/** A recipe release, {@code <recipe-semver>+<upstream-version>}, ordered by its semver part. */
@API(status = API.Status.INTERNAL)
public record RecipeVersion(String text, int major, int minor, int patch) implements Comparable<RecipeVersion> {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(\\+.+)?");

    static Optional<RecipeVersion> parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new RecipeVersion(text, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3))));
    }

    @Override
    public int compareTo(RecipeVersion o) {
        return Arrays.compare(new int[] {major, minor, patch}, new int[] {o.major, o.minor, o.patch});
    }

    @Override
    public String toString() {
        return text;
    }
}
