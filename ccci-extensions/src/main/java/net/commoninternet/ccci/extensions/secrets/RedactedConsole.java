package net.commoninternet.ccci.extensions.secrets;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * The command's console, filtered: while installed, everything written to {@code System.out} and
 * {@code System.err} (the runs' log lines, child output they log, Surefire's captured output)
 * passes here line by line, has every registered secret value replaced by {@code ********}, and
 * goes on to the original stream and to the log files it tees into ({@code -Dccci.log-file}, which
 * still gets a cancelled run's teardown after Maven is gone, and each run's {@code run.log}). A
 * secret value therefore never reaches the CI log or an artifact, even when a child process
 * prints it. Secrets are replaced longest first, so one that contains another is masked whole;
 * every secret registered by any run of the command is masked in every line.
 *
 * <p>Lines are held until their newline (or 64 KiB), each thread's apart, so a secret split across
 * two writes is still caught and two runs printing at once never mix within a line. A run's
 * {@code run.log} ({@link #claimForRun}) gets the lines of the thread that runs it, and the lines of
 * threads that belong to no run (a signal handler's, JUnit's, a library's); one run alone thus gets
 * every line, as before several could run at once. Logback's console appender writes through
 * {@code System.out} at each event, so it is filtered too.
 */
@API(status = API.Status.INTERNAL)
public final class RedactedConsole implements AutoCloseable {

    private static final int MAX_LINE = 64 * 1024;
    /** Shorter values would mask common text; generated secrets are 32 characters. */
    public static final int MIN_SECRET = 4;

    private final PrintStream originalOut;
    private final PrintStream originalErr;
    /** Files that get every line. */
    private final List<OutputStream> logFiles = new CopyOnWriteArrayList<>();
    /** Each live run's run.log, by the thread that runs it. */
    private final Map<Thread, RunLog> runLogs = new ConcurrentHashMap<>();
    private volatile List<String> secrets = List.of();
    private final LineFilter out;
    private final LineFilter err;

    /** Lines longer than this without a newline go out in part (see {@link LineFilter#emitLongLinePrefix}). */
    private final int maxLine;

    /**
     * A filter in front of {@code out} and {@code err}, holding lines up to {@code maxLine} bytes
     * ({@link #MAX_LINE}; the controlled-scheduler test seeds a console that passes writes through at
     * once with a bound of 1).
     */
    RedactedConsole(PrintStream out, PrintStream err, int maxLine) {
        this.originalOut = out;
        this.originalErr = err;
        this.maxLine = maxLine;
        this.out = new LineFilter(originalOut);
        this.err = new LineFilter(originalErr);
    }

    /** The filter of standard output, which {@link #install} puts behind {@code System.out}. */
    OutputStream filteredOut() {
        return out;
    }

    /** Starts filtering the process's console. */
    public static RedactedConsole install() {
        RedactedConsole console = new RedactedConsole(System.out, System.err, MAX_LINE);
        System.setOut(new PrintStream(console.filteredOut(), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(console.err, true, StandardCharsets.UTF_8));
        return console;
    }

    /** Starts filtering the process's console into {@code log} too. */
    public static RedactedConsole install(Path log) throws IOException {
        RedactedConsole console = install();
        console.teeTo(log);
        return console;
    }

    /** From now on the filtered console, every line of it, also goes to {@code log} (appended). */
    public void teeTo(Path log) throws IOException {
        logFiles.add(open(log));
    }

    /**
     * The calling thread runs a run: from now on its lines, and those of threads of no run, are the
     * run's log, held in memory (up to 1 MiB) until {@link RunLog#teeTo} names its file, then
     * written there (appended), until the handle is closed at the run's end.
     */
    public RunLog claimForRun() {
        RunLog log = new RunLog(Thread.currentThread());
        runLogs.put(log.thread, log);
        return log;
    }

    /** One run's log: the lines of the thread that runs it (see {@link #claimForRun}). */
    public final class RunLog extends OutputStream implements AutoCloseable {
        private static final int MAX_PENDING = 1 << 20;
        private final Thread thread;
        private ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private OutputStream file;

        private RunLog(Thread thread) {
            this.thread = thread;
        }

        /** The run's folder exists: its log goes to {@code log} from now on, the lines so far first. */
        public synchronized void teeTo(Path log) throws IOException {
            if (file != null) {
                return;
            }
            file = RedactedConsole.open(log);
            file.write(pending.toByteArray());
            file.flush();
            pending = null;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            if (file != null) {
                file.write(bytes, offset, length);
            } else if (pending != null && pending.size() + length <= MAX_PENDING) {
                pending.write(bytes, offset, length);
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            if (file != null) {
                file.flush();
            }
        }

        /**
         * {@code helper} works for this run (a part of its teardown on a thread of its own): its
         * lines are this run's too, until the returned handle is run (its pending lines then written).
         */
        public Runnable alsoFrom(Thread helper) {
            runLogs.put(helper, this);
            return () -> {
                out.flushPending(helper);
                err.flushPending(helper);
                runLogs.remove(helper, this);
            };
        }

        /** The run is over: its pending lines are written, its file closed. */
        @Override
        public void close() throws IOException {
            out.flushPending(thread);
            err.flushPending(thread);
            runLogs.remove(thread, this);
            synchronized (this) {
                if (file != null) {
                    file.close();
                }
                pending = null;
            }
        }
    }

    private static OutputStream open(Path log) throws IOException {
        if (log.getParent() != null) {
            Files.createDirectories(log.getParent());
        }
        return Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** From now on these values are masked (call as soon as they exist, before anything can print them). */
    public synchronized void addSecrets(Collection<String> values) {
        Set<String> all = new HashSet<>(secrets);
        all.addAll(maskable(values));
        List<String> longestFirst = new ArrayList<>(all);
        longestFirst.sort(LONGEST_FIRST);
        secrets = List.copyOf(longestFirst);
    }

    private static final Comparator<String> LONGEST_FIRST = Comparator.comparingInt(String::length).reversed();

    /**
     * What of {@code values} is masked: each value of at least {@link #MIN_SECRET} characters, and
     * each line of a multi-line one (a PEM key) on its own, since the console and the service logs
     * are masked line by line and the whole value never appears in one line.
     */
    public static Set<String> maskable(Collection<String> values) {
        Set<String> out = new HashSet<>();
        for (String value : values) {
            if (value == null) {
                continue;
            }
            out.add(value);
            out.add(value.strip());
            for (String line : value.lines().toList()) {
                out.add(line.strip());
            }
        }
        out.removeIf(v -> v.length() < MIN_SECRET);
        return out;
    }

    /** Every secret value registered so far (for a leak scan of what the command wrote). */
    public List<String> secretValues() {
        return secrets;
    }

    private int longestSecret() {
        List<String> known = secrets;
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
        out.flushAllPending();
        err.flushAllPending();
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
        for (RunLog log : new ArrayList<>(runLogs.values())) {
            log.close();
        }
    }

    private final class LineFilter extends OutputStream {
        private final PrintStream target;
        /** Each writing thread's line so far; a thread's entry goes once its line is out. */
        private final Map<Thread, ByteArrayOutputStream> lines = new HashMap<>();

        LineFilter(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            Thread thread = Thread.currentThread();
            ByteArrayOutputStream line = lines.computeIfAbsent(thread, t -> new ByteArrayOutputStream());
            for (int i = offset; i < offset + length; i++) {
                line.write(bytes[i]);
                if (bytes[i] == '\n') {
                    emit(thread, line);
                } else if (line.size() >= maxLine) {
                    emitLongLinePrefix(thread, line);
                }
            }
            if (line.size() == 0) {
                lines.remove(thread); // nothing pending: no entry kept for a thread that may be gone
            }
        }

        /** Partial lines wait for their newline: flushing them could split a secret. */
        @Override
        public void flush() {
        }

        synchronized void flushPending(Thread thread) {
            ByteArrayOutputStream line = lines.remove(thread);
            if (line != null && line.size() > 0) {
                emit(thread, line);
            }
        }

        synchronized void flushAllPending() {
            for (Thread thread : new ArrayList<>(lines.keySet())) {
                flushPending(thread);
            }
        }

        /**
         * A line without a newline that reached {@link #MAX_LINE}: masked as a whole, then all of
         * it goes out except its last (longest secret - 1) characters, which stay to be joined with
         * what follows: a secret that straddles the cut is in that tail, never split across two
         * outputs. A UTF-8 sequence the buffer ends inside also stays.
         */
        private void emitLongLinePrefix(Thread thread, ByteArrayOutputStream line) {
            byte[] bytes = line.toByteArray();
            int end = completeUtf8(bytes);
            String masked = redact(new String(bytes, 0, end, StandardCharsets.UTF_8));
            int keep = Math.min(masked.length(), Math.max(0, longestSecret() - 1));
            String out = masked.substring(0, masked.length() - keep);
            line.reset();
            line.writeBytes(masked.substring(masked.length() - keep).getBytes(StandardCharsets.UTF_8));
            line.write(bytes, end, bytes.length - end);
            send(thread, out.getBytes(StandardCharsets.UTF_8));
        }

        private void emit(Thread thread, ByteArrayOutputStream line) {
            byte[] clean = redact(line.toString(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            line.reset();
            send(thread, clean);
        }

        private void send(Thread thread, byte[] clean) {
            // The files first: after Maven is gone (a cancelled run's teardown) the console may
            // fail, and the files are where those lines are read.
            logFiles.forEach(log -> write(log, clean));
            OutputStream own = runLogs.get(thread);
            if (own != null) {
                write(own, clean);
            } else {
                runLogs.values().forEach(log -> write(log, clean));
            }
            try {
                target.write(clean, 0, clean.length);
                target.flush();
            } catch (RuntimeException consoleGone) {
                // nobody reads the console any more; the files have the line
            }
        }

        private void write(OutputStream log, byte[] clean) {
            synchronized (log) {
                try {
                    log.write(clean);
                    log.flush();
                } catch (IOException closed) {
                    // a run's log is closed at its end, the others at the very end; the console still gets the line
                }
            }
        }
    }
}
