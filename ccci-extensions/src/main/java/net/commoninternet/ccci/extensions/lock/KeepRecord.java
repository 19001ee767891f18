package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who keeps a failed run's app: the keeper process that holds the domain's flock after its run
 * handed it over ({@code keep} package), written next to the lockfile as
 * {@code cc-ci-app-<domain>.keep} while that keeper holds the lock, so a new run of the domain can
 * end the keep rather than wait for its deadline.
 *
 * <p>Resource: the domain's flock held by a keeper. Invariant: a record is acted on only while it
 * names a live process started at the recorded time (a pid reused by another process is never
 * signalled: {@link ProcessHandle#destroy} checks that too). The lock folder is shared: a record that
 * is not a regular file of this process's user is ignored, never trusted. A record whose keeper is
 * gone (SIGKILLed) is stale; whoever next holds the flock removes it.
 *
 * @param pid the keeper's pid
 * @param started when the keeper process started (epoch ms, as {@link ProcessHandle.Info#startInstant})
 * @param until the keep's deadline
 * @param runId the run that handed its app over
 * @param folder the keep's folder (its commands)
 */
@API(status = API.Status.INTERNAL)
public record KeepRecord(long pid, long started, Instant until, String runId, Path folder) {

    private static final Logger LOG = LoggerFactory.getLogger(KeepRecord.class);

    static final String SUFFIX = ".keep";

    public static Path path(Path lockDir, String domain) {
        return lockDir.resolve(AppDomainLock.PREFIX + domain + SUFFIX);
    }

    /** This process's own record: written by the keeper once it holds the lock. */
    public static KeepRecord ofThisProcess(Instant until, String runId, Path folder) {
        ProcessHandle me = ProcessHandle.current();
        return new KeepRecord(me.pid(), startedAt(me), until, runId, folder);
    }

    private static long startedAt(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }

    /** Written atomically (a rename) next to the lockfile. */
    public void write(Path lockDir, String domain) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("started", Long.toString(started));
        p.setProperty("until", until.toString());
        p.setProperty("run", runId);
        p.setProperty("folder", folder.toString());
        StringWriter out = new StringWriter();
        p.store(out, "ccci keeper of " + domain);
        Path target = path(lockDir, domain);
        Path next = target.resolveSibling(target.getFileName() + "." + pid + ".next");
        Files.writeString(next, out.toString(), StandardCharsets.UTF_8);
        Files.move(next, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The domain's record, if there is a readable one of this user's; never throws. */
    public static Optional<KeepRecord> read(Path lockDir, String domain) {
        Path path = path(lockDir, domain);
        try {
            PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile() || !attributes.owner().equals(Files.getOwner(lockDir))) {
                return Optional.empty();
            }
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(path, StandardCharsets.UTF_8)));
            return Optional.of(new KeepRecord(Long.parseLong(p.getProperty("pid")), Long.parseLong(p.getProperty("started")),
                    Instant.parse(p.getProperty("until")), p.getProperty("run", "?"), Path.of(p.getProperty("folder", "."))));
        } catch (IOException | RuntimeException absentOrGarbled) {
            return Optional.empty();
        }
    }

    /** The keeper process it names, if it is alive and is the process that wrote it. */
    public Optional<ProcessHandle> keeper() {
        return ProcessHandle.of(pid).filter(p -> startedAt(p) == started);
    }

    /** Removes the domain's record (the keeper at its end; a holder of the flock finding a stale one). */
    public static void remove(Path lockDir, String domain) {
        try {
            Files.deleteIfExists(path(lockDir, domain));
        } catch (IOException e) {
            LOG.warn("could not remove the keep record {}: {}", path(lockDir, domain), e.toString());
        }
    }

    /**
     * A new run of the domain is waiting for its lock: if a live keeper holds it, that keep ends now
     * (SIGTERM: the keeper tears the app down, then exits, which frees the lock). Whether one was asked.
     */
    static boolean endKeepFor(Path lockDir, String domain) {
        Optional<KeepRecord> record = read(lockDir, domain);
        Optional<ProcessHandle> keeper = record.flatMap(KeepRecord::keeper);
        if (keeper.isEmpty()) {
            return false;
        }
        LOG.info("== keep: {} is kept by the keeper of run {} (pid {}, until {}): a new run of it ends the keep — the keeper"
                + " tears the app down, then this run takes the lock ==", domain, record.get().runId(), record.get().pid(),
                record.get().until());
        keeper.get().destroy();
        return true;
    }
}
