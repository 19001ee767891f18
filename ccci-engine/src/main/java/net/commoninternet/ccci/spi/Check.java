package net.commoninternet.ccci.spi;

import java.util.Optional;
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

    /** What a check made with {@link #of} does. */
    @FunctionalInterface
    interface Body {
        void verify(TierContext tier) throws Exception;
    }
}
