package net.commoninternet.ccci.extensions.children;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import jnr.constants.platform.Errno;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.apiguardian.api.API;

/**
 * Every child process of a run starts here, so every child gets the run's environment
 * ({@code ABRA_DIR} above all) and nothing else of ccci's ({@link ChildEnvironment}), and no
 * child can wedge the run.
 *
 * <p>Resource: the processes a child starts (docker, git, abra, hooks, {@code install_steps.sh}
 * and whatever they start in turn). Invariant: when {@link #run} returns or throws, none of them
 * is alive, nothing the run waits on can be held open by them, and every wait took a bounded
 * time. Scope: the host (processes, kernel process groups). How:
 * <ul>
 *   <li>each child leads a session and process group of its own ({@code setsid}; a child of the
 *       JVM is never a group leader, so setsid execs in place and the child's pid is its group
 *       id). A grandchild stays in that group when its parent dies and it is reparented, so the
 *       group still names it, where the process tree ({@code descendants()}) lost it;
 *   <li>the group is killed with SIGKILL, which no process can ignore: on a timeout, on a stop
 *       ({@link #killAll}, from the lifetime guards), on an interrupt, and after every normal
 *       exit (a grandchild left running after its parent exited is a straggler of the run);
 *   <li>the child gets the parent-death signal SIGKILL ({@code setpriv --pdeathsig KILL}): if the
 *       run's process is killed outright, the child does not outlive it. (The signal follows the
 *       spawning thread, which waits in {@link #run} for as long as the child lives.) A group
 *       of its own also means a second TERM to the run's process group (a Drone cancel sent twice)
 *       no longer reaches a child the teardown still needs;
 *   <li>the output is drained as it comes and kept within {@link #HEAD_BYTES} + {@link #TAIL_BYTES}
 *       ({@link CappedOutput}); after the exit, the end of the output is awaited for at most
 *       {@link #DRAIN_GRACE}.
 * </ul>
 * Linearization point: the SIGKILL of the group ({@code kill(-pgid, SIGKILL)}); from then on no
 * process of the group runs user code. Left out: a grandchild that starts a session of its own
 * (a daemon) leaves the group and is not killed; only its hold on the output is cut short.
 * A group id is a pid, and a pid is reused only after the kernel's pid counter wrapped, never
 * while a process of the group exists, so the kill never reaches another process.
 */
@API(status = API.Status.INTERNAL)
public final class ChildProcesses {

    /** util-linux, by absolute path: the child's PATH is the run's choice, these two are ccci's. */
    static final String SETPRIV = "/usr/bin/setpriv";
    static final String SETSID = "/usr/bin/setsid";

    /** What a child's output may cost the run: the first 1 MiB and the last 1 MiB are kept. */
    public static final int HEAD_BYTES = 1 << 20;
    public static final int TAIL_BYTES = 1 << 20;
    /** How long the end of a child's output is awaited once the child has exited and its group was killed. */
    static final Duration DRAIN_GRACE = Duration.ofSeconds(5);
    /** How long a killed child's own exit is awaited (SIGKILL: only a process stuck in the kernel takes long). */
    private static final Duration KILL_GRACE = Duration.ofSeconds(10);

    private static final int SIGKILL = 9;
    private static final POSIX POSIX = POSIXFactory.getNativePOSIX();

    /** What a finished child left: its exit status and its merged output (capped: for logs and messages, never to judge). */
    public record Result(List<String> command, int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }

        public Result orThrow() throws IOException {
            if (!ok()) {
                throw new IOException(String.join(" ", command) + " exited " + exitCode + ": " + output.strip());
            }
            return this;
        }
    }

    /**
     * What a finished child printed for a check to judge: its standard output whole (never a cut
     * copy), its standard error apart and capped (a warning on stderr never mixes into the text a
     * check parses).
     */
    public record Whole(List<String> command, int exitCode, String stdout, String stderr) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** A child's standard output was larger than the caller judges: it was not read, so nothing of it is judged. */
    public static final class OutputTooLarge extends IOException {
        private final long limit;

        OutputTooLarge(List<String> command, long limit) {
            super(String.join(" ", command) + " printed more than " + limit + " bytes, the most its caller judges");
            this.limit = limit;
        }

        /** The bound the output went beyond, in bytes. */
        public long limit() {
            return limit;
        }
    }

    /** How much of a judged child's standard error is kept (it only explains a failure). */
    private static final int STDERR_BYTES = 64 << 10;

    /** What every child gets of ccci's own environment ({@link ChildEnvironment#FROM_HOST}). */
    private static final Map<String, String> FROM_HOST = ChildEnvironment.inherited();

    private final Map<String, String> environment;
    /** The children running now, by their group id (their pid). */
    private final Map<Long, Process> live = new ConcurrentHashMap<>();

    public ChildProcesses(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    Map<String, String> environment() {
        return environment;
    }

    public Result run(List<String> command, Path workDir, Map<String, String> extraEnv, Duration timeout)
            throws IOException, InterruptedException {
        return run(command, workDir, extraEnv, timeout, null);
    }

    /** As {@link #run(List, Path, Map, Duration)}, with the file {@code input} as the child's standard input. */
    public Result runWithInput(List<String> command, Path workDir, Map<String, String> extraEnv, Path input)
            throws IOException, InterruptedException {
        return run(command, workDir, extraEnv, Duration.ofMinutes(5), input);
    }

    private Result run(List<String> command, Path workDir, Map<String, String> extraEnv, Duration timeout, Path input)
            throws IOException, InterruptedException {
        Outputs outputs = run(new Call(command, workDir, extraEnv, timeout), input, null);
        return new Result(List.copyOf(command), outputs.exitCode(), outputs.out().await(DRAIN_GRACE));
    }

    /**
     * As {@link #run(List, Path, Map, Duration)}, for output a check judges: the standard output
     * whole, up to {@code limitBytes}; beyond that the child's output is not judged at all
     * ({@link OutputTooLarge}), never a head and tail of it (whatever a cut leaves out would pass
     * unjudged while the child's consumer reads the whole). Standard error apart, capped.
     */
    public Whole runWhole(List<String> command, Path workDir, Map<String, String> extraEnv, Duration timeout, int limitBytes)
            throws IOException, InterruptedException {
        return whole(new Call(command, workDir, extraEnv, timeout), null, limitBytes);
    }

    /**
     * As {@link #runWhole(List, Path, Map, Duration, int)} in ccci's folder with no values of the
     * caller's, with the file {@code input} (null: none) as the child's standard input.
     */
    public Whole runWholeWithInput(List<String> command, Duration timeout, int limitBytes, Path input)
            throws IOException, InterruptedException {
        return whole(new Call(command, null, Map.of(), timeout), input, limitBytes);
    }

    /**
     * As {@link #runWhole(List, Path, Map, Duration, int)} in {@code workDir} with no values of the
     * caller's, with the file {@code input} as the child's standard input.
     */
    public Whole runWholeWithInput(List<String> command, Path workDir, Duration timeout, int limitBytes, Path input)
            throws IOException, InterruptedException {
        return whole(new Call(command, workDir, Map.of(), timeout), input, limitBytes);
    }

    private Whole whole(Call call, Path input, int limitBytes) throws IOException, InterruptedException {
        List<String> command = call.command();
        Outputs outputs = run(call, input, limitBytes);
        String stdout = outputs.out().await(DRAIN_GRACE);
        if (outputs.out().cut()) {
            throw new OutputTooLarge(command, limitBytes);
        }
        if (!outputs.out().ended()) {
            throw new IOException(String.join(" ", command) + " exited, but a process it left holds its output open: what"
                    + " was read is not the whole output, so nothing of it is judged");
        }
        return new Whole(List.copyOf(command), outputs.exitCode(), stdout, outputs.err().await(DRAIN_GRACE));
    }

    /** A finished child's exit status and its output sinks (err null when merged into out). */
    private record Outputs(int exitCode, CappedOutput out, CappedOutput err) {
    }

    /** What a caller asks to run: the command, its folder (null: ccci's), its values and its bound. */
    private record Call(List<String> command, Path workDir, Map<String, String> extraEnv, Duration timeout) {
    }

    /** The one place a child runs; {@code wholeLimit} null: stderr merged into a head-and-tail capped stdout. */
    private Outputs run(Call call, Path input, Integer wholeLimit) throws IOException, InterruptedException {
        List<String> command = call.command();
        Path workDir = call.workDir();
        Map<String, String> extraEnv = call.extraEnv();
        Duration timeout = call.timeout();
        List<String> argv = new ArrayList<>(List.of(SETPRIV, "--pdeathsig", "KILL", "--", SETSID, "--"));
        argv.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(wholeLimit == null);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        if (input != null) {
            builder.redirectInput(input.toFile());
        }
        // Never the JVM's whole environment (CI secrets): the host's allowlist, the caller's
        // values, then the run's own, which no caller's value can replace.
        Map<String, String> childEnv = builder.environment();
        childEnv.clear();
        childEnv.putAll(FROM_HOST);
        childEnv.putAll(extraEnv);
        childEnv.putAll(environment);
        Process process = builder.start();
        long group = process.pid();
        live.put(group, process);
        boolean killed = false;
        try {
            process.getOutputStream().close();
            // whole: one head as large as the bound and no tail, so a longer output shows as cut
            CappedOutput output = CappedOutput.drain(process.getInputStream(), wholeLimit == null ? HEAD_BYTES : wholeLimit,
                    wholeLimit == null ? TAIL_BYTES : 0, "ccci-child-output-" + group);
            CappedOutput errors = wholeLimit == null ? null
                    : CappedOutput.drain(process.getErrorStream(), STDERR_BYTES, STDERR_BYTES, "ccci-child-errors-" + group);
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            killGroup(group);
            killed = true;
            process.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            awaitGroupGone(group);
            if (!exited) {
                throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toSeconds()
                        + " s: it was killed with everything it started");
            }
            return new Outputs(process.exitValue(), output, errors);
        } finally {
            // an interrupt (a stop) or any failure before the kill above: the group goes too
            if (!killed) {
                kill(process);
            }
            live.remove(group);
        }
    }

    public Result run(List<String> command, Path workDir) throws IOException, InterruptedException {
        return run(command, workDir, Map.of(), Duration.ofMinutes(5));
    }

    /**
     * Kills every live child with everything in its process group. Never blocks: it is called by
     * the lifetime guards' stop, and the run's own thread sees its child exit and returns.
     */
    public void killAll() {
        live.values().forEach(ChildProcesses::kill);
    }

    /**
     * SIGKILL takes effect asynchronously: waits, bounded by {@link #KILL_GRACE}, until no process
     * of the group is alive (zombies aside: they hold nothing and wait for their reaper). The usual
     * case costs one {@code kill(-pgid, 0)}: the leader is reaped and nothing else was in the group.
     */
    private static void awaitGroupGone(long group) throws InterruptedException {
        long deadline = System.nanoTime() + KILL_GRACE.toNanos();
        while (POSIX.kill(-group, 0) == 0 && GroupMembers.anyAlive(group) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /**
     * The child itself, then its group. The group exists only once the child's {@code setsid} ran,
     * a few milliseconds and two execs after the start: a stop in that window found no group and
     * the child lived on (seen 10 times in 10 with the thread interrupted before the start). Its
     * own pid is the same through those execs; {@link Process#destroyForcibly} never signals a pid
     * the JVM has already reaped (which another process may have been given since).
     */
    private static void kill(Process process) {
        process.destroyForcibly();
        killGroup(process.pid());
    }

    /** SIGKILL to the whole group; a group already gone (ESRCH) is no error. */
    static void killGroup(long group) {
        if (POSIX.kill(-group, SIGKILL) != 0 && POSIX.errno() != Errno.ESRCH.intValue()) {
            throw new IllegalStateException("kill(-" + group + ", SIGKILL) failed: " + Errno.valueOf(POSIX.errno()));
        }
    }
}
