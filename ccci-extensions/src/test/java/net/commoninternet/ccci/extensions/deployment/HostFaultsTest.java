package net.commoninternet.ccci.extensions.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.HostFault.Cause;
import net.commoninternet.ccci.spi.RecipeSaid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whose fault a failure is, from failures ccci really meets: the texts below were captured from this
 * machine's engine (20.10, gVisor as its default runtime, no registry reachable) on 2026-12-07, and the
 * disk's and the timeout's are thrown here for real. The image-pull verdict against the engine, and the
 * engine's refusals, are proven on the real engine by {@code HostFaultRunTest} (concurrency-suite).
 */
class HostFaultsTest {

    private static Optional<Cause> cause(Throwable failure) {
        return HostFaults.withoutEngine().of(failure).map(HostFault::kind);
    }

    /** The docker CLI's own resolve of an image whose registry the engine cannot reach, as abra or a deploy prints it. */
    @Test
    void aRegistryTheEngineCannotReachIsTheHostsAndALocalImageOrAMissingOneIsTheRecipes() {
        assertThat(cause(new IllegalStateException("Error response from daemon: Get \"https://registry-1.docker.io/v2/\": dial"
                + " tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host"))).contains(Cause.IMAGE_PULL);
        assertThat(cause(new IllegalStateException("Error response from daemon: Get \"https://ghcr.io/v2/\": net/http: TLS"
                + " handshake timeout"))).contains(Cause.IMAGE_PULL);
        assertThat(cause(new IllegalStateException("Error response from daemon: toomanyrequests: You have reached your pull"
                + " rate limit. https://registry-1.docker.io/v2/library/nginx/manifests/1.27"))).contains(Cause.IMAGE_PULL);
        // ccci.local images are built on the host and never pulled: the engine's lookup of it fails as any would
        assertThat(cause(new IllegalStateException("Error response from daemon: Get \"https://ccci.local/v2/\": dial tcp:"
                + " lookup ccci.local: no such host"))).isEmpty();
        assertThat(cause(new IllegalStateException("Error response from daemon: manifest for nginx:9.99 not found: manifest"
                + " unknown: manifest unknown https://registry-1.docker.io/v2/ i/o timeout"))).isEmpty();
        // what a swarm task says of either: without the engine to ask, the recipe's, as before
        assertThat(cause(new AssertionError("app: 0/1 running (last task error: No such image: nginx:1.27)"))).isEmpty();
    }

    /** gVisor's start failure for a command the image does not have is the recipe's; a runtime's own failure is the host's. */
    @Test
    void aContainerThatCannotStartIsTheRecipesWhenItsOwnProcessIsMissingAndElseTheHosts() {
        assertThat(cause(new AssertionError("app: 0/1 running (last task error: starting container failed: OCI runtime start"
                + " failed: starting container: starting root container: starting sandbox: creating process: failed to load"
                + " /nope: no such file or directory: unknown)"))).isEmpty();
        assertThat(cause(new AssertionError("app: 0/1 running (last task error: starting container failed: OCI runtime create"
                + " failed: container_linux.go:380: starting container process caused: exec: \"nope\": executable file not"
                + " found in $PATH: unknown)"))).isEmpty();
        assertThat(cause(new AssertionError("app: 0/1 running (last task error: starting container failed: failed to create"
                + " shim: OCI runtime create failed: cannot run with network enabled in root network namespace: unknown)")))
                .contains(Cause.ENGINE);
    }

    /** ENOSPC as the JVM meets it: a write to /dev/full. */
    @Test
    void aFullDiskIsTheHosts() {
        IOException full = null;
        try (FileOutputStream out = new FileOutputStream("/dev/full")) {
            out.write(new byte[4096]);
            out.flush();
        } catch (IOException e) {
            full = e;
        }
        assertThat(full).isNotNull();
        Optional<HostFault> fault = HostFaults.withoutEngine().of(new IllegalStateException("writing the backup failed", full));
        assertThat(fault.map(HostFault::kind)).contains(Cause.DISK);
        assertThat(fault.orElseThrow().getMessage()).startsWith("the host's fault, not the recipe's: the host's disk is full;"
                + " tell the host's operator to free space on the engine's disk, then rerun — no space left on device");
    }

    /** ccci's own null pointer is the host's (ccci's bug); the same exception thrown by a recipe's code is the recipe's. */
    @Test
    void anUnexpectedExceptionInCccisOwnCodeIsCccisBugAndInARecipesCodeTheRecipes() {
        RuntimeException ccci = null;
        try {
            DockerEngine.engineSays(null);
        } catch (NullPointerException e) {
            ccci = e;
        }
        assertThat(ccci).isNotNull();
        assertThat(cause(new IllegalStateException("the check failed", ccci))).contains(Cause.CCCI_BUG);
        assertThat(HostFaults.withoutEngine().of(ccci).orElseThrow().getMessage())
                .contains("ccci's own bug; rerun; report it to ccci's maintainers", "java.lang.NullPointerException",
                        "at net.commoninternet.ccci.extensions.docker.DockerEngine.engineSays(DockerEngine.java:");

        NullPointerException recipes = new NullPointerException("the recipe's own");
        recipes.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("java.util.Objects", "requireNonNull", "Objects.java", 209),
            new StackTraceElement("net.commoninternet.ccci.recipes.CustomHtmlCi", "servesTheSite", "CustomHtmlCi.java", 40),
            new StackTraceElement("net.commoninternet.ccci.engine.extension.RecipeChecks", "verify", "RecipeChecks.java", 80)});
        assertThat(cause(recipes)).isEmpty();
        assertThat(cause(new IllegalStateException("a recipe's sentence"))).isEmpty();
        assertThat(cause(new AssertionError("GET / answered 502"))).isEmpty();
    }

    /**
     * docker-java's own response timeout against an engine (on TCP, as {@code DOCKER_HOST=tcp://...} names
     * one) that accepts and never answers: ccci's timeout. (On a unix socket the transport has no read
     * timeout at all: checked here, a request to a silent unix socket waited past 10 minutes.)
     */
    @Test
    void noAnswerFromTheEngineWithinDockerJavasTimeoutIsCccisTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try (Socket held = silent.accept()) {
                    Thread.sleep(10_000);
                } catch (IOException | InterruptedException e) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (DockerHttpClient http = new ApacheDockerHttpClient.Builder()
                    .dockerHost(URI.create("tcp://127.0.0.1:" + silent.getLocalPort()))
                    .responseTimeout(Duration.ofMillis(300)).build()) {
                RuntimeException timedOut = null;
                try {
                    http.execute(DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET).path("/_ping")
                            .build()).close();
                } catch (RuntimeException e) {
                    timedOut = e;
                }
                assertThat(timedOut).isNotNull();
                assertThat(cause(timedOut)).contains(Cause.CCCI_TIMEOUT);
            } finally {
                acceptor.interrupt();
            }
        }
    }

    /** Whatever already carries a host fault keeps it. */
    @Test
    void aFailureThatCarriesAHostFaultIsThatFault() {
        HostFault fault = new HostFault(Cause.ENGINE, "it answered HTTP 500: refused", null);
        assertThat(HostFaults.withoutEngine().of(new IllegalStateException("wrapped", fault))).containsSame(fault);
    }

    /**
     * The recipe's own words carry the engine's: an app's page or a hook's output that says "no space
     * left on device" or "OCI runtime", a recipe's check that meets "Connection refused" from its app.
     * Quoted ({@link RecipeSaid}) or thrown by the recipe's own code, they are the recipe's; the same
     * words in ccci's or the engine's own message stay the host's.
     */
    @Test
    void theRecipesOwnWordsNeverMakeAFailureTheHosts() throws Exception {
        String page = "<h1>500</h1> write /data/cache: no space left on device";
        String sentence = "GET / of app.example.org answered 500 " + page + " until HTTP_TIMEOUT 30 s ran out";
        assertThat(cause(RecipeSaid.quotedIn(new AssertionError(sentence), page))).as("the app's page, quoted").isEmpty();
        assertThat(cause(new AssertionError(sentence))).as("the same words, unmarked").contains(Cause.DISK);

        String hook = "pg_dump: error: could not write to output file: No space left on device";
        assertThat(cause(RecipeSaid.quotedIn(new IllegalStateException("backupbot.backup.pre-hook of app_db exited 1: "
                + hook), hook))).as("a hook's output").isEmpty();
        // dockerd writes an exec it could not start into the exec's own output: the runtime's words, quoted or not
        String notStarted = "OCI runtime exec failed: exec failed: unable to start container process: error adding pid to"
                + " cgroups: failed to create shim task: unknown";
        assertThat(cause(RecipeSaid.quotedIn(new IllegalStateException("backupbot.backup.pre-hook of app_db exited 126: "
                + notStarted), notStarted))).as("an exec the runtime did not start").contains(Cause.ENGINE);
        // a quote in a cause is left out of the wrapper's message too; the engine's words beside it still count
        IllegalStateException quoting = RecipeSaid.quotedIn(new IllegalStateException("pre-hook exited 1: " + hook), hook);
        assertThat(cause(new IllegalStateException("the backup failed: " + quoting.getMessage()
                + "; app: 0/1 running (last task error: starting container failed: failed to create shim: OCI runtime"
                + " create failed: cannot run with network enabled in root network namespace: unknown)", quoting)))
                .contains(Cause.ENGINE);

        IllegalStateException recipes = new IllegalStateException("the upload failed: no space left on device");
        recipes.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("net.commoninternet.ccci.recipes.NotesDemoCi", "uploads", "NotesDemoCi.java", 51),
            new StackTraceElement("net.commoninternet.ccci.engine.extension.RecipeChecks", "verify", "RecipeChecks.java", 80)});
        assertThat(cause(recipes)).as("a recipe's check's own exception").isEmpty();
    }

    /** A socket's failure is the engine's only when it was docker-java's socket to the engine. */
    @Test
    void aRefusedConnectionIsTheEnginesOnlyOnDockerJavasSocket(@TempDir Path dir) throws Exception {
        int closed;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = free.getLocalPort();
        }
        IOException refused = null;
        try (Socket app = new Socket(InetAddress.getLoopbackAddress(), closed)) {
            app.getInputStream();
        } catch (IOException e) {
            refused = e;
        }
        assertThat(refused).isInstanceOf(java.net.ConnectException.class);
        assertThat(cause(new IllegalStateException("the app did not answer", refused))).as("a connection to the app").isEmpty();

        RuntimeException engineGone = null;
        try (DockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(URI.create("unix://" + dir.resolve("no-engine.sock"))).build()) {
            http.execute(DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET).path("/_ping").build())
                    .close();
        } catch (RuntimeException e) {
            engineGone = e;
        }
        assertThat(engineGone).isNotNull();
        assertThat(cause(new IllegalStateException("listing the services failed", engineGone))).contains(Cause.ENGINE);
    }
}
