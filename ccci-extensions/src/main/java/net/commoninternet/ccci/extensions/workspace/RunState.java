package net.commoninternet.ccci.extensions.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run-scoped state files (spec section 3): the deploy count, op state, dependencies and
 * dependency-skip report of ONE run, handed to tier children by exact path as
 * {@code CCCI_DEPLOYS_FILE}, {@code CCCI_OPSTATE_FILE}, {@code CCCI_DEPS_FILE} and
 * {@code CCCI_DEPSKIP_FILE}.
 *
 * <p>Invariant: no other run can reset or delete them. They are keyed by run id AND this
 * process's pid, never by app domain: a second run of the same domain executes its whole
 * preamble (this included) before it blocks at the app lock, so domain-keyed files would be
 * reset under the live first run (the double-!testme regression, M2(c)). Two live processes
 * never share a pid, so (run id, pid) is ours alone while we live, and resetting the files at
 * start is safe even if a dead run with a recycled pid left some behind.
 *
 * <p>They live in the run's own folder ({@code <runs dir>/<run id>/}) rather than the spec's
 * {@code /tmp}: that folder is outside the Drone workspace, not world-writable (no planted
 * links), sandboxed with the runs dir in tests, and keeps a killed run's state next to its
 * other leftovers for a post-mortem. A normal end removes them.
 *
 * <p>The files are evidence for children and post-mortems, never the verdict's source: the run
 * keeps its own count in memory, and a write that fails (a full disk under the runs folder) is
 * said once and the run goes on, its verdict unchanged. Only {@link #create} must succeed.
 */
@API(status = API.Status.INTERNAL)
public final class RunState {

    private static final Logger LOG = LoggerFactory.getLogger(RunState.class);

    private final Path deploys;
    private final Path opState;
    private final Path deps;
    private final Path depSkip;
    /** The run's deploy count; the file mirrors it for children. */
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicBoolean writeFailed = new AtomicBoolean();

    private RunState(Path deploys, Path opState, Path deps, Path depSkip) {
        this.deploys = deploys;
        this.opState = opState;
        this.deps = deps;
        this.depSkip = depSkip;
    }

    public static RunState create(Path runDir, String runId, long pid) throws IOException {
        Files.createDirectories(runDir);
        String key = runId + "-" + pid;
        RunState state = new RunState(runDir.resolve("ccci-deploys-" + key), runDir.resolve("ccci-opstate-" + key),
                runDir.resolve("ccci-deps-" + key), runDir.resolve("ccci-depskip-" + key));
        state.writeDeploys(0);
        for (Path empty : List.of(state.opState, state.deps, state.depSkip)) {
            Files.write(empty, new byte[0]);
        }
        return state;
    }

    public Path deploys() {
        return deploys;
    }

    public Path opState() {
        return opState;
    }

    public Path deps() {
        return deps;
    }

    public Path depSkip() {
        return depSkip;
    }

    /** The exact paths, for every child process of the run. */
    public Map<String, String> environment() {
        return Map.of(ChildEnvironment.DEPLOYS_FILE, deploys.toString(), ChildEnvironment.OPSTATE_FILE, opState.toString(),
                ChildEnvironment.DEPS_FILE, deps.toString(), ChildEnvironment.DEPSKIP_FILE, depSkip.toString());
    }

    public int deployCount() {
        return count.get();
    }

    /** Counts one more deploy of the run's app; returns the new count. */
    public int countDeploy() {
        int now = count.incrementAndGet();
        bestEffort(() -> writeDeploys(now));
        return now;
    }

    /** Appends an operation to the op-state file (one line each), for tier children and post-mortems. */
    public void recordOperation(String operation) {
        append(opState, operation);
    }

    /** Appends a cold dependency's app domain to the deps file (one line each). */
    public void recordDependency(String domain) {
        append(deps, domain);
    }

    /** Appends a line to the dependency-skip report: a dependency not used as configured, and why. */
    public void recordDependencySkip(String line) {
        append(depSkip, line);
    }

    /** A normal end removes the files; a killed run's stay with its run folder. */
    public void remove() throws IOException {
        for (Path file : List.of(deploys, opState, deps, depSkip)) {
            Files.deleteIfExists(file);
        }
    }

    private void append(Path file, String line) {
        bestEffort(() -> Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND));
    }

    private void bestEffort(Write write) {
        try {
            write.run();
        } catch (IOException e) {
            if (writeFailed.compareAndSet(false, true)) {
                LOG.warn("!! could not write the run's state files in {} ({}): the run goes on, its count kept in memory;"
                        + " the CCCI_*_FILE files may be stale from here on !!", deploys.getParent(), e.toString());
            }
        }
    }

    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }

    /** Replaced by rename, so a tier child reading the count never sees a half-written number. */
    private void writeDeploys(int count) throws IOException {
        Path next = deploys.resolveSibling(deploys.getFileName() + ".next");
        Files.writeString(next, count + "\n", StandardCharsets.UTF_8);
        Files.move(next, deploys, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
