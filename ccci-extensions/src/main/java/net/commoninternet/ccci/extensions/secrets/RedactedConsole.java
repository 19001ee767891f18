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
 * <p>Recipe bytes are data here too ({@link UntrustedText}): every line has its controls made
 * visible, and a line that begins inside a write, after a line break in it, is a continuation of
 * what that write began (a log event's message, a printed text) and begins with
 * {@link UntrustedText#GUTTER}. A log line of ccci's is one write that begins with its time and
 * level, so nothing it quotes can begin a line of its own. The streams {@link #install} puts in place
 * write each printed text whole ({@link WholeWrites}), so where the JDK would cut a long one into
 * several writes, the cut cannot pass for a line's start. The RUN SUMMARY, ccci's only block of
 * lines, is printed with {@link RunLog#printOwn}, between lines that carry the run's mark.
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
    /** The secrets' forms, built once per {@link #addSecrets} (every line is masked with them). */
    private volatile SecretForms forms = SecretForms.NONE;
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
        System.setOut(new WholeWrites(console.filteredOut()));
        System.setErr(new WholeWrites(console.err));
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
        RunLog log = new RunLog(Thread.currentThread(), newMark());
        runLogs.put(log.thread, log);
        return log;
    }

    private static final java.security.SecureRandom MARKS = new java.security.SecureRandom();

    /** 64 random bits as 16 hex digits: what no recipe can print, since it is chosen after the recipe was written and shown to nobody before. */
    private static String newMark() {
        return java.util.HexFormat.of().toHexDigits(MARKS.nextLong());
    }

    /** One run's log: the lines of the thread that runs it (see {@link #claimForRun}). */
    public final class RunLog extends OutputStream implements AutoCloseable {
        private static final int MAX_PENDING = 1 << 20;
        private final Thread thread;
        private final String mark;
        private ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private OutputStream file;

        private RunLog(Thread thread, String mark) {
            this.thread = thread;
            this.mark = mark;
        }

        /**
         * The run's mark: random, chosen when the run began, said on the run's first line and on the
         * first and last line of its RUN SUMMARY; a summary without it (or with another) is not this
         * run's.
         */
        public String mark() {
            return mark;
        }

        /**
         * Prints {@code lines}, ccci's own (the RUN SUMMARY), each as a line of its own on standard
         * output, all at once (no other line of standard output comes between them): masked and with
         * visible controls as every line is, and each begins a line; a line break inside one of them
         * (text of the recipe's) still puts what follows it in the gutter.
         */
        public void printOwn(List<String> lines) {
            out.own(Thread.currentThread(), lines);
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
        forms = SecretForms.of(longestFirst);
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
        return forms.longest();
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

    /** {@code text} with every registered secret masked, in each of its forms ({@link SecretForms}). */
    public String redact(String text) {
        return forms.mask(text);
    }

    /**
     * {@code text} as a report carries it (a failure message the engine reports: Surefire's console and
     * XML, the Open Test Reporting XML, the results): masked, its controls visible, each line after its
     * first in the gutter ({@link UntrustedText#lines}).
     */
    public String forReport(String text) {
        return text == null ? null : UntrustedText.lines(redact(text));
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

    /** A thread's line so far, and whether it began inside a write, after a line break of that write. */
    private static final class Pending {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean continuation;
        /** Part of this (over-long) line is out already: what follows is the same line. */
        boolean partlyOut;
    }

    private final class LineFilter extends OutputStream {
        private final PrintStream target;
        /** Each writing thread's line so far; a thread's entry goes once its line is out. */
        private final Map<Thread, Pending> lines = new HashMap<>();

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
            Pending line = lines.computeIfAbsent(thread, t -> new Pending());
            for (int i = offset; i < offset + length; i++) {
                if (line.bytes.size() == 0 && !line.partlyOut) {
                    // a line that begins after a line break of this same write continues what the write began
                    line.continuation = i != offset;
                }
                line.bytes.write(bytes[i]);
                if (bytes[i] == '\n') {
                    emit(thread, line);
                } else if (line.bytes.size() >= maxLine) {
                    emitLongLinePrefix(thread, line);
                }
            }
            if (line.bytes.size() == 0 && !line.partlyOut) {
                lines.remove(thread); // nothing pending: no entry kept for a thread that may be gone
            }
        }

        /** Partial lines wait for their newline: flushing them could split a secret. */
        @Override
        public void flush() {
        }

        synchronized void flushPending(Thread thread) {
            Pending line = lines.remove(thread);
            if (line != null && line.bytes.size() > 0) {
                emit(thread, line);
            }
        }

        synchronized void flushAllPending() {
            for (Thread thread : new ArrayList<>(lines.keySet())) {
                flushPending(thread);
            }
        }

        /** ccci's own lines, each beginning a line, no other line of this stream between them (see {@link RunLog#printOwn}). */
        synchronized void own(Thread thread, List<String> block) {
            flushPending(thread);
            for (String text : block) {
                String[] parts = text.split("\r?\n", -1);
                for (int i = 0; i < parts.length; i++) {
                    send(thread, shown(redact(parts[i]), i > 0).getBytes(StandardCharsets.UTF_8));
                }
            }
        }

        /**
         * A line without a newline that reached {@link #MAX_LINE}: masked as a whole, then all of it
         * goes out except its last (longest secret form - 1) characters, kept as they came to be joined
         * with what follows, and kept from further back if a masked form reaches into them: a secret
         * that straddles the cut is in that tail, never split across two outputs. A UTF-8 sequence the
         * buffer ends inside also stays. What goes out ends the line, and the rest of it continues in
         * the gutter: a cut never leaves a line open for another thread's line to end, after which the
         * rest would begin a line.
         */
        private void emitLongLinePrefix(Thread thread, Pending line) {
            byte[] bytes = line.bytes.toByteArray();
            int end = completeUtf8(bytes);
            String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
            boolean[] masked = forms.masked(text);
            int cut = text.length() - Math.min(text.length(), Math.max(0, longestSecret() - 1));
            while (masked != null && cut > 0 && masked[cut - 1] && cut < text.length() && masked[cut]) {
                cut--; // never inside a masked form: it goes out whole with the rest of it
            }
            String out = masked == null ? text.substring(0, cut) : SecretForms.render(text, masked, 0, cut);
            String shown = shown(out, line.continuation);
            line.bytes.reset();
            line.bytes.writeBytes(text.substring(cut).getBytes(StandardCharsets.UTF_8));
            line.bytes.write(bytes, end, bytes.length - end);
            line.partlyOut = true; // its rest continues what this write began, whatever comes first in the buffer
            line.continuation = true;
            send(thread, shown.getBytes(StandardCharsets.UTF_8));
        }

        private void emit(Thread thread, Pending line) {
            String text = line.bytes.toString(StandardCharsets.UTF_8);
            boolean ended = text.endsWith("\n");
            String content = ended ? text.substring(0, text.length() - (text.endsWith("\r\n") ? 2 : 1)) : text;
            String shown = shown(redact(content), line.continuation);
            // a line flushed before its newline (the run's end) goes out as it was, without one
            byte[] clean = (ended ? shown : shown.substring(0, shown.length() - 1)).getBytes(StandardCharsets.UTF_8);
            line.bytes.reset();
            line.partlyOut = false;
            send(thread, clean);
        }

        /** One masked line as it goes out: its controls visible, in the gutter if it continues a write's first line. */
        private String shown(String masked, boolean continuation) {
            String line = UntrustedText.visible(masked); // a line: no newline left in it, tabs kept
            boolean gutter = continuation && !line.startsWith(UntrustedText.GUTTER);
            return (gutter ? UntrustedText.GUTTER : "") + line + "\n";
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

    /**
     * The console's streams: each text printed goes to the filter in one write, newline apart. The
     * JDK's own PrintStream cuts a text of more than 8 KiB into several writes; a cut there would make
     * the recipe's text after it look, to the filter, like the start of a line of ccci's.
     */
    static final class WholeWrites extends PrintStream {
        WholeWrites(OutputStream filter) {
            super(filter, true, StandardCharsets.UTF_8);
        }

        @Override
        public void print(String text) {
            byte[] bytes = String.valueOf(text).getBytes(StandardCharsets.UTF_8);
            write(bytes, 0, bytes.length);
        }

        @Override
        public void print(Object value) {
            print(String.valueOf(value));
        }

        @Override
        public void print(char[] text) {
            print(new String(text));
        }

        @Override
        public void println(String text) {
            print(text + System.lineSeparator()); // one write for the text and its line end
        }

        @Override
        public void println(Object value) {
            println(String.valueOf(value));
        }

        @Override
        public void println(char[] text) {
            println(new String(text));
        }
    }
}
