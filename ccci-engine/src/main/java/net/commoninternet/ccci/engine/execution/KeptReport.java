package net.commoninternet.ccci.engine.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.EngineDiscoveryRequest;

/**
 * The Open Test Reporting XML of a command's execution, kept across a rerun of it in the same JVM.
 * JUnit's reporting listener writes {@value #FILE} in the output root at the start of every test plan
 * it hears of, so the rerun that Surefire's {@code rerunFailingTestsCount} executes after a command
 * with a failed check (which ccci answers with no run: the checks were already tried on the live
 * app) would leave an empty report in place of the command's. At the rerun's discovery the report
 * is complete (the command's plan ended); it is copied aside, and put back when the JVM exits,
 * after the rerun's plan ended too. A JVM killed before its exit leaves the copy beside the report.
 */
@API(status = API.Status.INTERNAL)
public final class KeptReport {

    /** The report's name in the output root (junit-platform-reporting's). */
    public static final String FILE = "open-test-report.xml";

    private KeptReport() {
    }

    /**
     * Keeps the report in {@code request}'s output root, if it has one, until the JVM exits; returns the
     * copy. A launcher that writes no outputs (JUnit's test kit) has none.
     */
    public static java.util.Optional<Path> keepUntilExit(EngineDiscoveryRequest request) {
        Path root;
        try {
            root = request.getOutputDirectoryCreator().getRootDirectory();
        } catch (JUnitException noOutputs) {
            return java.util.Optional.empty();
        }
        Path report = root.resolve(FILE);
        if (!Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS)) {
            return java.util.Optional.empty();
        }
        Path kept = root.resolve(FILE + ".ccci-kept");
        try {
            Files.copy(report, kept, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep " + report + " across Surefire's rerun: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.move(kept, report, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                System.err.println("ccci: could not put the command's " + FILE + " back from " + kept + ": " + e.getMessage());
            }
        }, "ccci-kept-report"));
        return java.util.Optional.of(kept);
    }
}
