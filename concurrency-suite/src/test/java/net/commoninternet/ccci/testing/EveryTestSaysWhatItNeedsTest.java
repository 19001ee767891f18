package net.commoninternet.ccci.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;

/**
 * Every test class of this suite says what it needs of the host: a real engine ({@link RealEngine},
 * tag {@code engine}) or real processes only ({@link RealProcesses}, tag {@code processes}), so
 * that {@code -DexcludedGroups=engine} leaves out exactly the tests that need the engine.
 */
class EveryTestSaysWhatItNeedsTest {

    @Test
    void everyTestClassIsTaggedEngineOrProcesses() throws IOException, URISyntaxException {
        Path classes = Path.of(RealEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> tests;
        try (Stream<Path> files = Files.walk(classes)) {
            tests = files.map(classes::relativize).map(Path::toString)
                    .filter(f -> f.endsWith("Test.class") && !f.contains("$"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
                    .filter(name -> !name.equals(EveryTestSaysWhatItNeedsTest.class.getName()))
                    .filter(EveryTestSaysWhatItNeedsTest::hasTests)
                    .toList();
        }

        assertThat(tests).as("test classes found").hasSizeGreaterThan(30);
        assertThat(tests).allSatisfy(name -> {
            Class<?> test = Class.forName(name);
            assertThat(test.isAnnotationPresent(RealEngine.class) ^ test.isAnnotationPresent(RealProcesses.class))
                    .as("%s says @RealEngine or @RealProcesses (one of them)", name).isTrue();
        });
    }

    /** Whether {@code name} declares a JUnit test: a method whose annotation is {@link Testable} (JMH's generated classes are not). */
    private static boolean hasTests(String name) {
        try {
            return Arrays.stream(Class.forName(name).getDeclaredMethods()).flatMap(m -> Arrays.stream(m.getAnnotations()))
                    .anyMatch(a -> a.annotationType().isAnnotationPresent(Testable.class));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
