package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.commoninternet.ccci.extensions.boundary.EngineBoundary;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;

/**
 * The one place of ccci's speed tricks: what the first run of this JVM would pay before its first
 * deploy, begun at discovery (right after the JVM started) on threads of its own, and taken by
 * that run. Each is kept because a measurement still pays for it (docs/benchmarks.md):
 *
 * <ul>
 *   <li>the engine connection: docker-java's first use (its classes, Jackson's, the HTTP client's)
 *       and the engine's ping and swarm check;
 *   <li>jnr-posix (the locks' flock and the child processes' signals), loaded once per JVM, then the
 *       egress rules read for the first run's boundary check ({@code iptables-save}, the JVM's
 *       first child: 36 ms against 13 for the next in a bare JVM);
 *   <li>the parsers the fetch and the upgrade plan use first, on constant text: release tags
 *       (java-semver) and a compose file (Jackson's YAML over SnakeYAML), 25-97 ms of a cold run's
 *       way to its first deploy, 7-16 ms once loaded here.
 * </ul>
 *
 * <p>Nothing here is the run's truth: a head start that failed, or was begun for another engine,
 * is done again by the run in its own words. One per lifecycle; begun once; each part taken once.
 */
final class HeadStart {

    /** What the warm-up parses: constants, never a recipe's text. */
    private static final String WARM_RELEASE = "1.0.0+1.22.1";
    private static final String WARM_COMPOSE = "services:\n  app:\n    deploy:\n      labels:\n        - coop-cloud.app.version=1.0.0+1.22.1\n";
    /** How long the first run waits for the early connection before connecting on its own. */
    private static final Duration CONNECTION_WAIT = Duration.ofSeconds(30);

    /** Of which engine the egress rules were read early, and what the read found. */
    private record EgressRead(String host, CompletableFuture<Optional<String>> missing) {
    }

    // Guarded by this.
    private boolean begun;
    private CompletableFuture<DockerEngine> connection;
    private EgressRead egress;

    /** Begins every head start, once per lifecycle. */
    synchronized void begin() {
        if (begun) {
            return;
        }
        begun = true;
        CompletableFuture<DockerEngine> connecting = new CompletableFuture<>();
        connection = connecting;
        daemon("ccci-engine-connect", () -> {
            try {
                connecting.complete(DockerEngine.connect());
            } catch (RuntimeException | Error e) {
                connecting.completeExceptionally(e);
            }
        });
        String host = DockerEngine.configuredHost();
        CompletableFuture<Optional<String>> missing = new CompletableFuture<>();
        egress = new EgressRead(host, missing);
        daemon("ccci-warm-up", () -> {
            try {
                missing.complete(EngineBoundary.egressMissing(host, new ChildProcesses(Map.of(ChildEnvironment.DOCKER_HOST,
                        host))));
            } catch (IOException | RuntimeException | Error e) {
                missing.completeExceptionally(e);
            } catch (InterruptedException e) {
                missing.completeExceptionally(e);
                Thread.currentThread().interrupt();
            }
            try {
                RecipeVersion.parse(WARM_RELEASE);
                RecipeLabels.parse(WARM_COMPOSE);
            } catch (IOException | RuntimeException | LinkageError e) {
                // then the run loads them itself, and says so if it cannot
            }
        });
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The connection for one run (closed by it): the early one if it was begun and succeeded, else a new one. */
    DockerEngine connect() {
        CompletableFuture<DockerEngine> early;
        synchronized (this) {
            early = connection;
            connection = null;
        }
        if (early != null) {
            try {
                return early.get(CONNECTION_WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                early.thenAccept(HeadStart::closeQuietly);
            } catch (ExecutionException e) {
                // no engine or no swarm then: connecting now says which, or finds it started since
            } catch (TimeoutException e) {
                early.thenAccept(HeadStart::closeQuietly);
            }
        }
        return DockerEngine.connect();
    }

    private static void closeQuietly(DockerEngine engine) {
        try {
            engine.close();
        } catch (Exception e) {
            // an unused connection: nothing to keep
        }
    }

    /**
     * Why a recipe's container could reach the host or its networks at {@code host}, or empty: taken
     * from the early read if it was begun for {@code host} and no run took it yet (the first run
     * waits for it to end), else read now with {@code children}. A failed early read is read again.
     */
    Optional<String> egressMissing(String host, ChildProcesses children) throws IOException, InterruptedException {
        EgressRead early;
        synchronized (this) {
            early = egress;
            egress = null;
        }
        if (early != null && early.host().equals(host)) {
            try {
                return early.missing().get();
            } catch (ExecutionException e) {
                // read again, below, so the run says why in its own words
            }
        }
        return EngineBoundary.egressMissing(host, children);
    }
}
