package net.commoninternet.ccci.extensions.secrets;

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
import org.apiguardian.api.API;

/**
 * The run's console, filtered: while installed, everything written to {@code System.out} and
 * {@code System.err} (the run's log lines, child output it logs, Surefire's captured output)
 * passes here line by line, has every registered secret value replaced by {@code ********}, and
 * goes on to the original stream and to the log files it tees into (the run's {@code run.log},
 * and {@code -Dccci.log-file}, which still gets a cancelled run's teardown after Maven is gone). A
 * secret value therefore never reaches the CI log or an artifact, even when a child process
 * prints it. Secrets are replaced longest first, so one that contains another is masked whole.
 *
 * <p>Lines are held until their newline (or 64 KiB), so a secret split across two writes is still
 * caught. Logback's console appender writes through {@code System.out} at each event, so it is
 * filtered too.
 */
@API(status = API.Status.INTERNAL)
public final class RedactedConsole implements AutoCloseable {

    private static final int MAX_LINE = 64 * 1024;
    /** Shorter values would mask common text; generated secrets are 32 characters. */
    public static final int MIN_SECRET = 4;

    private final PrintStream originalOut;
    private final PrintStream originalErr;
    private final java.util.List<OutputStream> logFiles = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile java.util.List<String> secrets = java.util.List.of();
    private final LineFilter out;
    private final LineFilter err;

    private RedactedConsole() {
        this.originalOut = System.out;
        this.originalErr = System.err;
        this.out = new LineFilter(originalOut);
        this.err = new LineFilter(originalErr);
    }

    /** Starts filtering the process's console. */
    public static RedactedConsole install() {
        RedactedConsole console = new RedactedConsole();
        System.setOut(new PrintStream(console.out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(console.err, true, StandardCharsets.UTF_8));
        return console;
    }

    /** Starts filtering the process's console into {@code log} too. */
    public static RedactedConsole install(Path log) throws IOException {
        RedactedConsole console = install();
        console.teeTo(log);
        return console;
    }

    /** From now on the filtered console also goes to {@code log} (appended). */
    public void teeTo(Path log) throws IOException {
        if (log.getParent() != null) {
            Files.createDirectories(log.getParent());
        }
        logFiles.add(Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    }

    /** From now on these values are masked (call as soon as they exist, before anything can print them). */
    public synchronized void addSecrets(Collection<String> values) {
        Set<String> all = new java.util.HashSet<>(secrets);
        values.stream().filter(v -> v != null && v.length() >= MIN_SECRET).forEach(all::add);
        secrets = all.stream().sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList();
    }

    private int longestSecret() {
        java.util.List<String> known = secrets;
        return known.isEmpty() ? 0 : known.get(0).length();
    }

    /** How many leading bytes of {@code bytes} are whole UTF-8 characters. */
    static int completeUtf8(byte[] bytes) {
        int lead = bytes.length - 1;
        while (lead > 0 && (bytes[lead] & 0xC0) == 0x80) {
            lead--;
        }
        if (lead < 0) {
            return 0;
        }
        int b = bytes[lead] & 0xFF;
        int length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        return lead + length <= bytes.length ? bytes.length : lead;
    }

    public String redact(String text) {
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
        for (OutputStream log : logFiles) {
            synchronized (log) {
                log.close();
            }
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
            if (b == '\n') {
                emit();
            } else if (line.size() >= MAX_LINE) {
                emitLongLinePrefix();
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

        /**
         * A line without a newline that reached {@link #MAX_LINE}: masked as a whole, then all of
         * it goes out except its last (longest secret - 1) characters, which stay to be joined with
         * what follows: a secret that straddles the cut is in that tail, never split across two
         * outputs. A UTF-8 sequence the buffer ends inside also stays.
         */
        private void emitLongLinePrefix() {
            byte[] bytes = line.toByteArray();
            int end = completeUtf8(bytes);
            String masked = redact(new String(bytes, 0, end, StandardCharsets.UTF_8));
            int keep = Math.min(masked.length(), Math.max(0, longestSecret() - 1));
            String out = masked.substring(0, masked.length() - keep);
            line.reset();
            line.writeBytes(masked.substring(masked.length() - keep).getBytes(StandardCharsets.UTF_8));
            line.write(bytes, end, bytes.length - end);
            send(out.getBytes(StandardCharsets.UTF_8));
        }

        private void emit() {
            byte[] clean = redact(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            line.reset();
            send(clean);
        }

        private void send(byte[] clean) {
            // The files first: after Maven is gone (a cancelled run's teardown) the console may
            // fail, and the files are where those lines are read.
            for (OutputStream log : logFiles) {
                synchronized (log) {
                    try {
                        log.write(clean);
                        log.flush();
                    } catch (IOException closed) {
                        // the logs are closed at the very end; the console still gets the line
                    }
                }
            }
            try {
                target.write(clean, 0, clean.length);
                target.flush();
            } catch (RuntimeException consoleGone) {
                // nobody reads the console any more; the files have the line
            }
        }
    }
}
