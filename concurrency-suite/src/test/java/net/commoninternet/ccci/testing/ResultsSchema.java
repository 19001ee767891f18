package net.commoninternet.ccci.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.results.RunResults;

/**
 * The published results.json schema (a resource of ccci-extensions), applied to what real runs
 * wrote: every test that makes runs checks each results.json they left against it.
 */
public final class ResultsSchema {

    private static final Schema SCHEMA = load();

    private ResultsSchema() {
    }

    private static Schema load() {
        try (InputStream in = RunResults.class.getResourceAsStream("results.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code results} follows the schema; else the test fails naming each place that does not. */
    public static void assertValid(Path results) throws IOException {
        String json = Files.readString(results, StandardCharsets.UTF_8);
        assertThat(SCHEMA.validate(json, InputFormat.JSON)).as("%s against results.schema.json", results).isEmpty();
    }

    /**
     * After each test, every results.json its runs left under the runs folder {@code runs} names
     * (the test's sandbox, read then) follows the schema: registered by each test class that makes
     * real runs, so every run the suite makes is checked.
     */
    public static final class EveryRun implements org.junit.jupiter.api.extension.AfterEachCallback {
        private final Supplier<Path> runs;

        public EveryRun(Supplier<Path> runs) {
            this.runs = runs;
        }

        @Override
        public void afterEach(org.junit.jupiter.api.extension.ExtensionContext context) throws IOException {
            assertEveryValid(runs.get());
        }
    }

    /** Every results.json under {@code runsDir} (if it exists) follows the schema; returns how many there were. */
    public static int assertEveryValid(Path runsDir) throws IOException {
        if (!Files.isDirectory(runsDir)) {
            return 0;
        }
        List<Path> all;
        try (Stream<Path> files = Files.walk(runsDir)) {
            all = files.filter(f -> f.getFileName().toString().equals("results.json")).toList();
        }
        for (Path results : all) {
            assertValid(results);
        }
        return all.size();
    }
}
