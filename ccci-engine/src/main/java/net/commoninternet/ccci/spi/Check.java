package net.commoninternet.ccci.spi;

import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestSource;

/**
 * One assertion of a tier on the state its operation left, reported as one test.
 */
@API(status = API.Status.EXPERIMENTAL)
public interface Check {

    /** Stable name: the last segment of the check's unique id. */
    String name();

    void verify(TierContext tier) throws Exception;

    /**
     * What this check needs beyond its tier's operation, as JUnit tags (e.g. {@code needs-network} for a
     * rule that asks a registry): published on its node beside its tier's own tag, so a tag filter
     * ({@code -Dgroups}, {@code -DexcludedGroups}, an IDE's) can leave it out. Each a valid JUnit tag
     * that names no tier (a tier's tag is its tier's); none by default. Known at discovery time.
     */
    default Set<String> tags() {
        return Set.of();
    }

    /**
     * Whether a failure of this check is worth another try against the same live app
     * ({@code ccci.check-attempts}): true by default, for a check looks at the app's state, which a
     * flaky app changes between two looks. False for a check whose answer cannot change while the run
     * lasts (a lint rule, which reads the recipe's files): its failure is final at once.
     */
    default boolean triedAgain() {
        return true;
    }

    /** Where an IDE should navigate for this check, if anywhere. */
    default Optional<TestSource> source() {
        return Optional.empty();
    }

    static Check of(String name, Body body) {
        return new Check() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void verify(TierContext tier) throws Exception {
                body.verify(tier);
            }
        };
    }

    /** As {@link #of}, for a check whose answer cannot change while the run lasts: never tried again ({@link #triedAgain}). */
    static Check once(String name, Body body) {
        return new Check() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void verify(TierContext tier) throws Exception {
                body.verify(tier);
            }

            @Override
            public boolean triedAgain() {
                return false;
            }
        };
    }

    /** What a check made with {@link #of} does. */
    @FunctionalInterface
    interface Body {
        void verify(TierContext tier) throws Exception;
    }
}
