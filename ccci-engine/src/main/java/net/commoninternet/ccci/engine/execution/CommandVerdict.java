package net.commoninternet.ccci.engine.execution;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.spi.RunRecord;
import org.apiguardian.api.API;

/**
 * The command's verdict, for Maven's build result: which runs failed, as ccci judged them (a run
 * failed when its lifecycle threw or any row of its record failed, a flaky check's tier included
 * unless the host allows flakes). Surefire's count cannot carry it: with
 * {@code rerunFailingTestsCount} above 0 (which recipe-suites sets for {@code flakyFailure} and
 * {@code rerunFailure}), Surefire 3.6.1 takes a failed class-level node reported before any test of
 * its class passed ({@code initializationError}: a run that failed before its checks, or a tier's
 * operation) for a flaky {@code @BeforeAll} as soon as any test of that class passed anywhere in
 * the fork (every run's checks share the anchor class), and ends the build green.
 *
 * <p>The engine writes {@value #FILE} into the reporting output folder once the plan's runs have
 * ended (never for Surefire's rerun, which runs nothing); recipe-suites runs {@link #main} with
 * exec:java right after Surefire, which ends the build with exit 1 when the file says a run failed.
 * A file older than Maven's own JVM is an earlier build's and is not read.
 */
@API(status = API.Status.INTERNAL)
public final class CommandVerdict {

    /** The verdict's file in the reporting output folder (beside open-test-report.xml). */
    public static final String FILE = "ccci-command-verdict.txt";

    private final List<String> failed = new ArrayList<>();
    private int runs;

    /** A run ended: failed if it threw ({@code thrown}) or any row of its record failed. */
    public synchronized void ended(String runId, boolean thrown, RunRecord record) {
        runs++;
        if (thrown || record.rows().stream().anyMatch(r -> r.status() == RunRecord.Status.FAILED)) {
            failed.add(runId);
        }
    }

    /** The runs that failed, in the order they ended. */
    public synchronized List<String> failed() {
        return List.copyOf(failed);
    }

    /**
     * Writes the verdict into {@code folder} (atomically: Maven's JVM never reads half of it):
     * {@code failed <run id>...} or {@code passed}, then how many runs ended.
     */
    public synchronized void write(Path folder) throws IOException {
        String text = (failed.isEmpty() ? "passed" : "failed " + String.join(" ", failed)) + "\nruns " + runs + "\n";
        Path partial = folder.resolve(FILE + ".partial");
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        Files.move(partial, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The failed runs {@code folder}'s verdict names, if it was written since {@code since} (epoch
     * milliseconds); empty for no verdict, an earlier build's, or one of runs that all passed.
     */
    static List<String> failedIn(Path folder, long since) throws IOException {
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toMillis() < since) {
            return List.of();
        }
        String first = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("");
        Optional<String> runs = first.startsWith("failed ") ? Optional.of(first.substring("failed ".length())) : Optional.empty();
        return runs.map(r -> List.of(r.trim().split(" +"))).orElse(List.of());
    }

    /**
     * What Maven's JVM says after Surefire: the one sentence that fails the build when the verdict
     * names a failed run, or, when the build was told to go on past test failures
     * ({@code -Dmaven.test.failure.ignore=true}, as Surefire honours it), the same news as a warning
     * that does not; empty when every run passed.
     */
    static Optional<Verdict> judge(List<String> failedRuns, boolean failureIgnored) {
        if (failedRuns.isEmpty()) {
            return Optional.empty();
        }
        String runs = (failedRuns.size() == 1 ? "run " : "runs ") + String.join(", ", failedRuns) + " failed ("
                + (failedRuns.size() == 1 ? "its RUN SUMMARY says" : "their RUN SUMMARYs say") + " why)";
        return Optional.of(failureIgnored
                ? new Verdict(false, "[WARNING] ccci: " + runs + "; the build goes on, as -Dmaven.test.failure.ignore=true asks.")
                : new Verdict(true, "[ERROR] ccci: " + runs
                        + ": the build fails on ccci's verdict, whatever Surefire counted as a flake."));
    }

    /** The line Maven's JVM prints, and whether the build ends with it. */
    record Verdict(boolean failsTheBuild, String line) {
    }

    /**
     * In Maven's JVM after Surefire ({@code args[0]}: the reporting output folder; {@code args[1]},
     * if given, Surefire's {@code maven.test.failure.ignore}): exit 1 with one sentence when the
     * command's verdict, written since this JVM started, names a failed run.
     */
    public static void main(String[] args) throws IOException {
        List<String> failedRuns = failedIn(Path.of(args[0]), ManagementFactory.getRuntimeMXBean().getStartTime());
        Optional<Verdict> verdict = judge(failedRuns, args.length > 1 && Boolean.parseBoolean(args[1].strip()));
        if (verdict.isPresent()) {
            System.err.println(verdict.get().line());
            System.err.flush();
            if (verdict.get().failsTheBuild()) {
                // Maven's failure of a plugin would print its stack (exec:java logs what main throws): end the build here
                System.exit(1);
            }
        }
    }
}
