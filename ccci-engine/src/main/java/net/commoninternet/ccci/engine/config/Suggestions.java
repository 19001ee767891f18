package net.commoninternet.ccci.engine.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apiguardian.api.API;

/** "Did you mean" for names a user typed: the closest valid name, if it is close enough. */
@API(status = API.Status.INTERNAL)
public final class Suggestions {

    private static final LevenshteinDistance DISTANCE = new LevenshteinDistance(3);

    private Suggestions() {
    }

    static Optional<String> closest(String typed, Collection<String> valid) {
        return valid.stream()
                .filter(v -> DISTANCE.apply(typed, v) >= 0)
                .min(Comparator.comparingInt(v -> DISTANCE.apply(typed, v)));
    }

    public static String didYouMean(String typed, Collection<String> valid) {
        return closest(typed, valid).map(s -> " Did you mean '" + s + "'?").orElse("");
    }
}
