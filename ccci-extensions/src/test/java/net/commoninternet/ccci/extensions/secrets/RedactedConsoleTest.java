package net.commoninternet.ccci.extensions.secrets;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's console filter against the real {@code System.out}/{@code System.err}: each test
 * first puts capturing streams in their place (standing for the CI log), installs the filter on
 * top, and reads what reached the capture and the run's {@code run.log}.
 */
class RedactedConsoleTest {

    private static final Logger LOG = LoggerFactory.getLogger(RedactedConsoleTest.class);
    private static final String SECRET = "Zq8vK2pLm9xW";
    private static final String MASKED = SecretMasking.MASK;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;
    private PrintStream capturedOut;
    private PrintStream capturedErr;
    private Path runLog;

    @BeforeEach
    void captureTheConsole() {
        originalOut = System.out;
        originalErr = System.err;
        capturedOut = new PrintStream(out, true, UTF_8);
        capturedErr = new PrintStream(err, true, UTF_8);
        System.setOut(capturedOut);
        System.setErr(capturedErr);
        runLog = dir.resolve("run/run.log");
    }

    @AfterEach
    void restoreTheConsole() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    private String console() {
        return out.toString(UTF_8);
    }

    @Test
    void aSecretPrintedLoggedOrSplitAcrossTwoWritesReachesNeitherTheConsoleNorRunLog() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(List.of(SECRET));
            System.out.println("println: " + SECRET);
            LOG.info("logger: {}", SECRET);
            byte[] first = ("split: " + SECRET.substring(0, 5)).getBytes(UTF_8);
            byte[] second = (SECRET.substring(5) + " end\n").getBytes(UTF_8);
            System.out.write(first, 0, first.length);
            System.out.flush();
            System.out.write(second, 0, second.length);
            System.err.println("stderr: " + SECRET);
        }

        String log = Files.readString(runLog);
        for (String text : List.of(console(), log)) {
            assertThat(text).contains("println: " + MASKED, "logger: " + MASKED, "split: " + MASKED + " end")
                    .doesNotContain(SECRET).doesNotContain(SECRET.substring(0, 5));
        }
        assertThat(err.toString(UTF_8)).contains("stderr: " + MASKED).doesNotContain(SECRET);
        assertThat(log).contains("stderr: " + MASKED);
    }

    @Test
    void closePutsTheOriginalStreamsBackAndLaterOutputIsNoLongerFiltered() throws Exception {
        RedactedConsole console = RedactedConsole.install(runLog);
        assertThat(System.out).isNotSameAs(capturedOut);
        assertThat(System.err).isNotSameAs(capturedErr);
        console.addSecrets(List.of(SECRET));

        console.close();
        System.out.println("after close: " + SECRET);

        assertThat(System.out).isSameAs(capturedOut);
        assertThat(System.err).isSameAs(capturedErr);
        assertThat(console()).contains("after close: " + SECRET);
        assertThat(runLog).content().doesNotContain("after close");
    }

    @Test
    void aPartialLineWaitsForItsNewlineAndIsWrittenMaskedOnClose() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(List.of(SECRET));
            System.out.print("pending " + SECRET.substring(0, 4));
            System.out.flush();
            assertThat(console()).doesNotContain("pending");
            System.out.print(SECRET.substring(4));
        }

        assertThat(console()).isEqualTo("pending " + MASKED);
        assertThat(runLog).content().isEqualTo("pending " + MASKED);
    }

    @Test
    void onlySecretsRegisteredFromNowOnAreMaskedAndValuesShorterThanFourAreLeftAlone() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            System.out.println("before: " + SECRET);
            console.addSecrets(List.of(SECRET, "abc"));
            System.out.println("after: " + SECRET + " abc");
        }

        assertThat(console()).contains("before: " + SECRET, "after: " + MASKED + " abc");
    }

    @Test
    void aSecretStraddlingTheLongLineBoundIsMaskedAndMultiByteCharactersSurvive() throws Exception {
        String filler = "é".repeat(10) + "x".repeat(64 * 1024 - 20 - 5);
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(List.of(SECRET));
            System.out.print(filler + SECRET + " ü end");
            System.out.println();
        }

        String out = console();
        assertThat(out).doesNotContain(SECRET).contains(MASKED + " ü end").startsWith("é".repeat(10) + "xxx");
        assertThat(out.lines().skip(1)).as("the rest of a cut line continues in the gutter").isNotEmpty()
                .allMatch(l -> l.startsWith(UntrustedText.GUTTER));
        assertThat(out.replace("\n" + UntrustedText.GUTTER, "").replace("\n", ""))
                .hasSize(filler.length() + MASKED.length() + " ü end".length());
        assertThat(runLog).content(UTF_8).doesNotContain(SECRET).contains(MASKED);
    }

    @Test
    void utf8BoundariesAreFound() {
        byte[] whole = "aé".getBytes(UTF_8);
        assertThat(RedactedConsole.completeUtf8(whole)).isEqualTo(3);
        assertThat(RedactedConsole.completeUtf8(Arrays.copyOf(whole, 2))).isEqualTo(1);
        assertThat(RedactedConsole.completeUtf8("a€".getBytes(UTF_8))).isEqualTo(4);
        assertThat(RedactedConsole.completeUtf8(Arrays.copyOf("a€".getBytes(UTF_8), 3))).isEqualTo(1);
    }

    @Test
    void aSecretThatContainsAnotherIsMaskedWholeWhicheverWasRegisteredFirst() throws Exception {
        Path logFile = dir.resolve("ccci.log");
        try (RedactedConsole console = RedactedConsole.install()) {
            console.teeTo(logFile);
            console.addSecrets(List.of(SECRET));
            console.addSecrets(List.of(SECRET + "-and-more"));
            System.out.println("long: " + SECRET + "-and-more; short: " + SECRET);
        }

        assertThat(console()).contains("long: " + MASKED + "; short: " + MASKED).doesNotContain("-and-more");
        assertThat(logFile).content(UTF_8).contains("long: " + MASKED + "; short: " + MASKED);
    }

    @Test
    void aChildProcessPrintingTheSecretIsMaskedWhereTheCodeLogsItsOutput() throws Exception {
        App app = TempApp.create(dir, "demo", Map.of("db_password", SECRET), "TYPE=demo", "DB_PASSWORD=" + SECRET);
        Files.writeString(app.recipeDir().resolve(RecipeSetup.INSTALL_STEPS), "echo \"connecting with $DB_PASSWORD\"\n");
        RecipeSetup setup = new RecipeSetup(java.util.Set.of(RecipeSetup.codeDigest(app.recipeDir())), Optional.empty(),
                new ChildProcesses(Map.of()));

        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(app.secretValues().values());
            setup.beforeInstall(app, CiKeys.defaults());
        }

        for (String text : List.of(console(), Files.readString(runLog))) {
            assertThat(text).contains("install_steps.sh: connecting with " + MASKED).doesNotContain(SECRET);
        }
    }

    /**
     * Two runs at once, each on its thread with its own run.log: each log gets its run's lines and
     * those of threads of no run, never the other run's, from the run's first line on even before its folder exists; a half-written line of one run is not
     * completed by the other's; a secret one run registered is masked in the other's lines too.
     */
    @Test
    void twoRunsAtOnceEachGetTheirOwnLinesInTheirRunLogAndEverySecretIsMaskedEverywhere() throws Exception {
        Path logA = dir.resolve("a/run.log");
        Path logB = dir.resolve("b/run.log");
        CyclicBarrier halfWritten = new CyclicBarrier(2);
        CountDownLatch linesDone = new CountDownLatch(2);
        CountDownLatch shared = new CountDownLatch(1);
        try (RedactedConsole console = RedactedConsole.install()) {
            ExecutorService runs = Executors.newFixedThreadPool(2);
            try {
                Future<?> a = runs.submit(() -> {
                    try (RedactedConsole.RunLog log = console.claimForRun()) {
                        log.teeTo(logA);
                        console.addSecrets(List.of(SECRET));
                        System.out.print("run a: half ");
                        halfWritten.await(10, TimeUnit.SECONDS);
                        halfWritten.await(10, TimeUnit.SECONDS);
                        System.out.println("and the rest");
                        linesDone.countDown();
                        shared.await(10, TimeUnit.SECONDS);
                    }
                    return null;
                });
                Future<?> b = runs.submit(() -> {
                    try (RedactedConsole.RunLog log = console.claimForRun()) {
                        halfWritten.await(10, TimeUnit.SECONDS);
                        System.out.println("run b: sees " + SECRET);
                        log.teeTo(logB); // the lines before the run's folder existed are kept
                        halfWritten.await(10, TimeUnit.SECONDS);
                        linesDone.countDown();
                        shared.await(10, TimeUnit.SECONDS);
                    }
                    return null;
                });
                linesDone.await(10, TimeUnit.SECONDS);
                System.out.println("of no run: for both");
                shared.countDown();
                a.get(10, TimeUnit.SECONDS);
                b.get(10, TimeUnit.SECONDS);
            } finally {
                runs.shutdownNow();
            }
        }

        assertThat(logA).content(UTF_8).isEqualTo("run a: half and the rest\nof no run: for both\n");
        assertThat(logB).content(UTF_8).isEqualTo("run b: sees " + MASKED + "\nof no run: for both\n");
        assertThat(console()).contains("run a: half and the rest\n", "run b: sees " + MASKED + "\n").doesNotContain(SECRET);
    }

    /**
     * Recipe bytes as data on the console and in run.log: a log line quoting a hook's output keeps the
     * hook's lines in the gutter (a forged RUN SUMMARY or log line never begins a line), its terminal
     * escapes and bidi controls come out as text, and a text longer than the 8 KiB the JDK's
     * PrintStream cuts at is one write, so the cut cannot begin a line either.
     */
    @Test
    void whatARecipePrintedNeverBeginsALineAndItsControlsComeOutAsText() throws Exception {
        String hook = "ok\n== RUN SUMMARY ==\nlevel 5: every rung passed\n12:00:00.000 INFO  RunEnding - passed\n"
                + "\u001b[2K\u001b]0;owned\u0007\u001b[8mhidden \u202egnp.exe\r== overwritten";
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            LOG.warn("backupbot.backup.pre-hook of app exited 1: {}", hook);
            System.out.println("y".repeat(8191) + "\n== forged at the JDK's cut ==");
            System.err.print("quoted: " + hook + "\n");
        }

        for (String text : List.of(console(), Files.readString(runLog), err.toString(UTF_8))) {
            assertThat(text.lines()).as(text).noneMatch(l -> l.startsWith("==") || l.startsWith("level 5") || l.startsWith("12:00:00.000"));
            assertThat(text.lines().filter(l -> l.contains("== RUN SUMMARY ==") || l.contains("== forged")))
                    .isNotEmpty().allMatch(l -> l.startsWith(UntrustedText.GUTTER));
            assertThat(text).doesNotContain("\u001b", "\u0007", "\u202e", "\r").contains("\\x1b[2K\\x1b]0;owned\\x07",
                    "\\u202egnp.exe\\x0d== overwritten");
        }
    }

    /** The run's own block: each line begins a line, its first and last carry the run's mark, and a line break in one is the gutter's. */
    @Test
    void theRunsOwnLinesBeginLinesAndCarryTheRunsMark() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog); RedactedConsole.RunLog log = console.claimForRun();
                RedactedConsole.RunLog other = console.claimForRun()) {
            console.addSecrets(List.of(SECRET));
            log.printOwn(List.of("== RUN SUMMARY " + log.mark() + " ==", "  install > hook: failed — a\n== END RUN SUMMARY ==",
                    "secret " + SECRET, "== END RUN SUMMARY " + log.mark() + " =="));
            assertThat(log.mark()).matches("[0-9a-f]{16}").isNotEqualTo(other.mark());
            assertThat(console()).isEqualTo("== RUN SUMMARY " + log.mark() + " ==\n  install > hook: failed — a\n"
                    + UntrustedText.GUTTER + "== END RUN SUMMARY ==\nsecret " + MASKED + "\n== END RUN SUMMARY " + log.mark() + " ==\n");
        }
    }

    /** What the engine reports of a failure (Surefire's console and XML): masked, controls visible, its lines after the first in the gutter. */
    @Test
    void aFailureMessageIsReportedMaskedWithVisibleControlsAndItsLinesInTheGutter() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(List.of(SECRET));
            String reported = console.forReport("hook exited 1: ok\n== RUN SUMMARY ==\n\u001b[31m" + SECRET);

            assertThat(reported).isEqualTo("hook exited 1: ok\n" + UntrustedText.GUTTER + "== RUN SUMMARY ==\n"
                    + UntrustedText.GUTTER + "\\x1b[31m" + MASKED);
            assertThat(console.forReport(reported)).as("reported twice, the same").isEqualTo(reported);
        }
    }

    /**
     * What Surefire writes of a failure (its console listing and its XML: the message and the stack
     * trace of the throwable the engine reports, through {@code Redaction} with the run's redactor):
     * no control, and no line of the chain's messages, causes' or suppressed ones', begins a line.
     */
    @Test
    void aReportedFailureChainCarriesNoControlAndBeginsNoLineInItsStackTrace() throws Exception {
        try (RedactedConsole console = RedactedConsole.install(runLog)) {
            console.addSecrets(List.of(SECRET));
            Throwable cause = new java.io.IOException("git said:\n== RUN SUMMARY ==\n\u001b[2Klevel 5 " + SECRET);
            IllegalStateException top = new IllegalStateException("hook exited 3: ok\n@everyone \u202eexe.txt\r", cause);
            top.addSuppressed(new AssertionError("also\n12:00:00.000 INFO  RunEnding - passed"));

            Throwable reported = net.commoninternet.ccci.engine.execution.Redaction.of(top, console::forReport);

            java.io.StringWriter trace = new java.io.StringWriter();
            reported.printStackTrace(new java.io.PrintWriter(trace));
            String text = trace.toString();
            assertThat(text.lines()).as(text).noneMatch(l -> l.startsWith("==") || l.startsWith("12:00") || l.startsWith("@")
                    || l.startsWith("level"));
            assertThat(text.codePoints().filter(c -> c != '\n' && c != '\t' && (Character.isISOControl(c)
                    || Character.getType(c) == Character.FORMAT))).as(text).isEmpty();
            assertThat(text).doesNotContain(SECRET).contains(UntrustedText.GUTTER + "== RUN SUMMARY ==", "\\u202eexe.txt\\x0d");
            assertThat(reported.getSuppressed()[0]).as("an assertion stays an assertion").isInstanceOf(AssertionError.class);
        }
    }
}
