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

    void verify(RunContext run) throws Exception;

    /** Where an IDE should navigate for this check, if anywhere. */
    default Optional<TestSource> source() {
        return Optional.empty();
    }

    static Check of(String name, ThrowingConsumer body) {
        return new Check() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void verify(RunContext run) throws Exception {
                body.accept(run);
            }
        };
    }

    @FunctionalInterface
    interface ThrowingConsumer {
        void accept(RunContext run) throws Exception;
    }
}
