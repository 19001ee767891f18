package net.commoninternet.ccci.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The helper processes of one test ({@code @RegisterExtension}): started through it, killed
 * with their descendants after the test whatever happened, and then no process of the test may
 * be left.
 */
public final class Helpers implements AfterEachCallback {

    private final List<Helper> started = new ArrayList<>();

    public Helper start(List<String> command, Map<String, String> environment) throws IOException {
        Helper helper = Helper.start(command, environment);
        started.add(helper);
        return helper;
    }

    public Helper start(List<String> command) throws IOException {
        return start(command, Map.of());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(Helper::close);
        started.clear();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("processes left by the test").isEmpty();
    }
}
