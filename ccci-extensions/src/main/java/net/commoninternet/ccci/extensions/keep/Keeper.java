package net.commoninternet.ccci.extensions.keep;

import com.github.dockerjava.api.model.Container;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.KeepRecord;
import net.commoninternet.ccci.extensions.lock.SwarmRecords;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The keeper of a failed run's app: a process of its own (its own session, started by
 * {@link KeepOnFailure}) that holds the app's flock on the very open file description the run locked,
 * inherited at descriptor {@code fd}, so the lock never was free between the run and the keeper; and
 * the run's folder's lock ({@code RunIdLock}) at descriptor 4 the same way, held and never looked at.
 *
 * <p>Invariant chain: app lock lifetime ⊆ keeper lifetime ⊆ keep deadline (+ its teardown). Its
 * own guards: the deadline (the wait below ends at it), SIGTERM / SIGINT / SIGHUP (the same end, a
 * later one logged and ignored), the teardown in {@code finally} with {@link StackTeardown}, the
 * routine the run's own teardown and the janitor's reap use, and then the exit, which alone releases
 * the flock. SIGKILL: the kernel drops the flock and the next janitor reaps the app as any dead run's.
 *
 * <p>The hand-over, as the keeper sees it: check the inherited descriptor is locked and still the
 * lockfile's path, say {@code holding}, and wait for {@code keep} (anything else, or the run's end:
 * exit without touching the app, the run tears it down itself). Then take the domain's lease over
 * (at once: the flock is held here, so its holder of this flock scope is proven gone), write the keep
 * record, say {@code kept}, and serve the shell and the end until the keep ends.
 */
@API(status = API.Status.INTERNAL)
public final class Keeper {

    private static final Logger LOG = LoggerFactory.getLogger(Keeper.class);

    static final String HANDOVER_SOCKET = "handover.sock";
    static final String SHELL_SOCKET = "shell.sock";

    private static final int LOCK_EX = 2;
    private static final int LOCK_NB = 4;

    private final Map<String, String> args;
    private final String domain;
    private final Path folder;
    private final Path lockDir;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Set<Process> shells = ConcurrentHashMap.newKeySet();
    private volatile String endedBy;
    private volatile Thread main;

    private Keeper(Map<String, String> args) {
        this.args = args;
        this.domain = args.get("domain");
        this.folder = Path.of(args.get("folder"));
        this.lockDir = Path.of(args.get("lock-dir"));
    }

    public static void main(String[] argv) {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        int status;
        try {
            status = new Keeper(args).keep();
        } catch (Throwable t) {
            LOG.error("!! keeper of {}: {} !!", args.get("domain"), t.toString(), t);
            status = 1;
        }
        // the exit closes the inherited descriptor: the flock goes with this process, and only then
        Runtime.getRuntime().halt(status);
    }

    private int keep() throws Exception {
        main = Thread.currentThread();
        int fd = Integer.parseInt(args.get("fd"));
        Path lock = Path.of(args.get("lock"));
        if (!holds(fd, lock)) {
            LOG.error("!! keeper of {}: descriptor {} does not hold the lock of {}: not keeping !!", domain, fd, lock);
            return 3;
        }
        Duration keepFor = Duration.ofSeconds(Long.parseLong(args.get("seconds")));
        SocketChannel handover = SocketChannel.open(StandardProtocolFamily.UNIX);
        handover.connect(UnixDomainSocketAddress.of(folder.resolve(HANDOVER_SOCKET)));
        BufferedReader fromRun = new BufferedReader(new InputStreamReader(Channels.newInputStream(handover), StandardCharsets.UTF_8));
        OutputStream toRun = new SocketOut(handover);
        say(toRun, "holding " + ProcessHandle.current().pid());
        if (!"keep".equals(fromRun.readLine())) {
            LOG.info("== keeper of {}: the run did not hand its app over; it tears it down itself ==", domain);
            return 0;
        }
        List<String> secrets = new ArrayList<>();
        for (String line = fromRun.readLine(); line != null && !line.isEmpty(); line = fromRun.readLine()) {
            secrets.add(new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8));
        }
        RedactedConsole console = RedactedConsole.install();
        console.addSecrets(secrets);
        for (String name : List.of("TERM", "INT", "HUP")) {
            Signal.handle(new Signal(name), s -> end("SIG" + name));
        }
        Instant until = Instant.now().plus(keepFor);
        AppDomainLease.Held lease = null;
        ServerSocketChannel shellServer = null;
        try (DockerEngine docker = DockerEngine.connect(args.get("docker-host"))) {
            try {
                lease = new AppDomainLease(new SwarmRecords(docker.http()), AppDomainLease.Holder.of(lockDir, args.get("run")),
                        new AppDomainLease.Timing(Duration.ofSeconds(Long.parseLong(args.get("ttl"))),
                                Duration.ofSeconds(Long.parseLong(args.get("heartbeat")))),
                        why -> end("the lease was lost (" + why + ")")).acquire(domain, "keep");
                KeepRecord.ofThisProcess(until, args.get("run"), folder).write(lockDir, domain);
                shellServer = serveShells(docker, console);
                say(toRun, "kept " + until.toEpochMilli());
                handover.close();
                LOG.info("== keeper of {} (pid {}): keeping the app until {}, then it is torn down ==", domain,
                        ProcessHandle.current().pid(), until);
                if (!ended.await(Math.max(0, Duration.between(Instant.now(), until).toMillis()), TimeUnit.MILLISECONDS)) {
                    end("its deadline (" + keepFor.toSeconds() + " s)");
                }
            } catch (InterruptedException stopped) {
                // a stop while the lease was taken: the teardown below
            } finally {
                Thread.interrupted();
                LOG.info("== keeper of {}: the keep ends ({}) — tearing the app down; signals from now on are logged and"
                        + " ignored ==", domain, endedBy == null ? "a failure of the keeper" : endedBy);
                if (shellServer != null) {
                    shellServer.close();
                }
                shells.forEach(Process::destroyForcibly);
                List<String> left = new StackTeardown(docker.client()).teardownApp(domain, Path.of(args.get("servers")));
                LOG.info("== teardown of {}: {} ==", domain, left.isEmpty() ? "clean" : "left " + left);
                KeepRecord.remove(lockDir, domain);
                if (lease != null) {
                    lease.release();
                }
                Files.deleteIfExists(folder.resolve(SHELL_SOCKET));
            }
        }
        return 0;
    }

    /** The keep ends (once; a later cause is logged): the deadline, a signal, the end command, the lease lost. */
    private synchronized void end(String why) {
        if (endedBy != null) {
            LOG.warn("== keeper of {}: {} during the keep's end — ignored ==", domain, why);
            return;
        }
        endedBy = why;
        ended.countDown();
        Thread running = main;
        if (running != null) {
            running.interrupt(); // a lease take still waiting
        }
    }

    private static void say(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Whether {@code fd} holds the flock (a lock on its own open file description is granted again) and is the path's file. */
    private static boolean holds(int fd, Path lock) {
        POSIX posix = POSIXFactory.getNativePOSIX();
        if (posix.flock(fd, LOCK_EX | LOCK_NB) != 0) {
            return false;
        }
        FileStat locked = posix.fstat(fd);
        FileStat named = posix.allocateStat();
        return posix.lstat(lock.toString(), named) == 0 && named.ino() == locked.ino() && named.dev() == locked.dev();
    }

    /** The shell and end requests of the keep's commands, each connection on a thread of its own. */
    private ServerSocketChannel serveShells(DockerEngine docker, RedactedConsole console) throws IOException {
        Path socket = folder.resolve(SHELL_SOCKET);
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread accept = new Thread(() -> {
            while (server.isOpen()) {
                try {
                    SocketChannel client = server.accept();
                    Thread serve = new Thread(() -> serve(client, docker, console), "keeper-client");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "keeper-accept");
        accept.setDaemon(true);
        accept.start();
        return server;
    }

    private void serve(SocketChannel client, DockerEngine docker, RedactedConsole console) {
        try (client) {
            InputStream in = Channels.newInputStream(client);
            OutputStream out = new SocketOut(client);
            String request = line(in);
            if (request.equals("end")) {
                say(out, "== ending the keep of " + domain + ": the keeper tears the app down, then exits ==");
                end("its end command");
                // the client reads until this process exits (which closes the connection)
                Thread.sleep(Long.MAX_VALUE);
                return;
            }
            String[] parts = request.split(" ", 3);
            if (parts.length < 2 || !parts[0].equals("shell")) {
                say(out, "unknown request");
                return;
            }
            String service = parts[1];
            String command = parts.length > 2 ? new String(Base64.getDecoder().decode(parts[2]), StandardCharsets.UTF_8) : "";
            String stack = AppNaming.stackName(domain);
            List<Container> running = docker.client().listContainersCmd()
                    .withLabelFilter(Map.of("com.docker.swarm.service.name", stack + "_" + service))
                    .withStatusFilter(List.of("running")).exec();
            if (running.isEmpty()) {
                say(out, "no running container of service " + service + " in the kept app " + domain
                        + ": name one of its services (app, db, ...).");
                return;
            }
            List<String> exec = new ArrayList<>(List.of("docker", "exec", "-i", running.get(0).getId(), "sh"));
            if (!command.isBlank()) {
                exec.addAll(List.of("-c", command));
            }
            ProcessBuilder builder = new ProcessBuilder(exec).redirectErrorStream(true);
            builder.environment().put("DOCKER_HOST", args.get("docker-host"));
            Process shell = builder.start();
            shells.add(shell);
            Thread input = new Thread(() -> {
                try (OutputStream toShell = shell.getOutputStream()) {
                    in.transferTo(toShell);
                } catch (IOException ignored) {
                    // the shell ended first
                }
            }, "keeper-shell-input");
            input.setDaemon(true);
            input.start();
            BufferedReader output = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                // masked line by line, as the run's console is: the secret values live in this process's memory only
                out.write((console.redact(line) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            shell.waitFor();
            shells.remove(shell);
        } catch (IOException | RuntimeException e) {
            LOG.warn("keeper of {}: a shell request failed: {}", domain, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One request line, read byte by byte so nothing after it is taken from the stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            s.append((char) b);
            if (s.length() > 64 * 1024) {
                break;
            }
        }
        return s.toString();
    }
}
