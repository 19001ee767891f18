package net.commoninternet.ccci.extensions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * The run's console, filtered: while installed, everything written to {@code System.out} and
 * {@code System.err} (the run's log lines, child output it logs, Surefire's captured output)
 * passes here line by line, has every registered secret value replaced by {@code ********}, and
 * goes on to the original stream and to the run's {@code run.log}. A secret value therefore never
 * reaches the CI log or an artifact, even when a child process prints it.
 *
 * <p>Lines are held until their newline (or 64 KiB), so a secret split across two writes is still
 * caught. Logback's console appender writes through {@code System.out} at each event, so it is
 * filtered too.
 */
final class RedactedConsole implements AutoCloseable {

    private static final int MAX_LINE = 64 * 1024;

    private final PrintStream originalOut;
    private final PrintStream originalErr;
    private final OutputStream logFile;
    private final Set<String> secrets = new CopyOnWriteArraySet<>();
    private final LineFilter out;
    private final LineFilter err;

    private RedactedConsole(Path log) throws IOException {
        this.originalOut = System.out;
        this.originalErr = System.err;
        Files.createDirectories(log.getParent());
        this.logFile = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        this.out = new LineFilter(originalOut);
        this.err = new LineFilter(originalErr);
    }

    /** Starts filtering the process's console into {@code log} too. */
    static RedactedConsole install(Path log) throws IOException {
        RedactedConsole console = new RedactedConsole(log);
        System.setOut(new PrintStream(console.out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(console.err, true, StandardCharsets.UTF_8));
        return console;
    }

    /** From now on these values are masked (call as soon as they exist, before anything can print them). */
    void addSecrets(Collection<String> values) {
        values.stream().filter(v -> v != null && v.length() >= 4).forEach(secrets::add);
    }

    String redact(String text) {
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, SecretMasking.MASK);
        }
        return out;
    }

    /** Flushes what is pending and puts the original streams back. */
    @Override
    public void close() throws IOException {
        out.flushPending();
        err.flushPending();
        if (System.out != originalOut) {
            System.setOut(originalOut);
        }
        if (System.err != originalErr) {
            System.setErr(originalErr);
        }
        synchronized (logFile) {
            logFile.close();
        }
    }

    private final class LineFilter extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineFilter(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n' || line.size() >= MAX_LINE) {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                write(bytes[i]);
            }
        }

        /** Partial lines wait for their newline: flushing them could split a secret. */
        @Override
        public void flush() {
        }

        synchronized void flushPending() {
            if (line.size() > 0) {
                emit();
            }
        }

        private void emit() {
            byte[] clean = redact(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            line.reset();
            target.write(clean, 0, clean.length);
            target.flush();
            synchronized (logFile) {
                try {
                    logFile.write(clean);
                    logFile.flush();
                } catch (IOException closed) {
                    // the run's log is closed at the very end; the console still gets the line
                }
            }
        }
    }
}
