package net.commoninternet.ccci.extensions.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.LocalNodeState;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import org.apiguardian.api.API;

/**
 * The connection to the run's Docker engine, made once per run before anything else touches
 * the host: a run without an engine or without an active swarm stops here, having created
 * nothing, with one sentence that names the fix. The engine is the one {@code DOCKER_HOST} names
 * (the local socket by default): on a multi-node swarm it must be a manager, the runner host's own
 * engine or one it reaches; the run's docker CLI children are pointed at the same one
 * ({@link #childEnvironment}).
 */
@API(status = API.Status.INTERNAL)
public record DockerEngine(DockerClient client, DockerHttpClient http, String host, Facts facts) implements AutoCloseable {

    /**
     * What the engine said of itself when the run connected (its {@code /info}, read anyway): its
     * version, how many nodes its swarm has, the runtime its containers get by default (what
     * sandboxes a recipe's tasks, which cannot ask for another: {@code runc}, or gVisor's
     * {@code runsc}) and the path of that runtime's binary (empty for the engine's built-in runc).
     * "unknown" where the engine did not say.
     */
    public record Facts(String version, int swarmNodes, String defaultRuntime, String runtimePath) {
        static Facts of(com.fasterxml.jackson.databind.JsonNode info) {
            String runtime = info.path("DefaultRuntime").asText("unknown");
            return new Facts(info.path("ServerVersion").asText("unknown"), info.path("Swarm").path("Nodes").asInt(0), runtime,
                    info.path("Runtimes").path(runtime).path("path").asText(""));
        }
    }

    static final String SETUP_HINT = "run scripts/setup-local-swarm as root to install and start it";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The engine {@code DOCKER_HOST} names (docker-java's default configuration), for one run: closed by it. */
    public static DockerEngine connect() {
        return connect(DefaultDockerClientConfig.createDefaultConfigBuilder().build());
    }

    /** The address of the engine {@link #connect()} connects to ({@code DOCKER_HOST}, else the local socket), without connecting. */
    public static String configuredHost() {
        return DefaultDockerClientConfig.createDefaultConfigBuilder().build().getDockerHost().toString();
    }

    /** The engine at {@code host} ({@code unix:///...}, {@code tcp://...}), TLS as the environment says. */
    public static DockerEngine connect(String host) {
        return connect(DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(host).build());
    }

    private static DockerEngine connect(DefaultDockerClientConfig config) {
        DockerHttpClient http = http(config);
        DockerClient client = DockerClientImpl.getInstance(config, http);
        try {
            client.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new IllegalStateException("no Docker engine answers at " + config.getDockerHost() + ": " + SETUP_HINT + ".");
        }
        // /info read as a tree: docker-java's typed Info (dozens of types to bind) costs a cold JVM
        // tens of milliseconds, and three of its fields are all the check needs
        com.fasterxml.jackson.databind.JsonNode info = info(http);
        com.fasterxml.jackson.databind.JsonNode swarm = info.path("Swarm");
        String state = swarm.path("LocalNodeState").asText("");
        if (!state.equals(LocalNodeState.ACTIVE.getValue())) {
            throw new IllegalStateException("the Docker engine is not in an active swarm (state " + state + "): "
                    + SETUP_HINT + ".");
        }
        if (!swarm.path("ControlAvailable").asBoolean(false)) {
            throw new IllegalStateException("the Docker engine at " + config.getDockerHost() + " is a swarm worker, which cannot"
                    + " deploy or keep the app leases: point DOCKER_HOST at a manager of the swarm (docker node ls shows"
                    + " them), or promote this node with docker node promote.");
        }
        SwarmNodes.ownNodeIs(client, swarm.path("NodeID").asText()); // already read: no second /info (7-9 ms) for it
        return new DockerEngine(client, http, config.getDockerHost().toString(), Facts.of(info));
    }

    private static com.fasterxml.jackson.databind.JsonNode info(DockerHttpClient http) {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET).path("/info").build();
        try (DockerHttpClient.Response response = http.execute(request)) {
            if (response.getStatusCode() != 200) {
                throw new IllegalStateException("the Docker engine's /info answered HTTP " + response.getStatusCode());
            }
            return JSON.readTree(response.getBody());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client of the engine {@code config} names, with the run's timeouts (also used for the other nodes' engines). */
    static DockerClient client(DefaultDockerClientConfig config) {
        return DockerClientImpl.getInstance(config, http(config));
    }

    private static DockerHttpClient http(DefaultDockerClientConfig config) {
        return new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(tls(config))
                .connectionTimeout(Duration.ofSeconds(5))
                .responseTimeout(Duration.ofMinutes(3))
                .build();
    }

    /**
     * The environment's TLS settings; for a unix socket without any, one that refuses every use
     * ({@link UnixSocketTls}: spares a cold JVM the JDK's default TLS context, never used there).
     */
    static com.github.dockerjava.transport.SSLConfig tls(DefaultDockerClientConfig config) {
        return config.getSSLConfig() == null && "unix".equals(config.getDockerHost().getScheme())
                ? UnixSocketTls.INSTANCE : config.getSSLConfig();
    }

    /**
     * What the run's docker CLI children are told, so they talk to this very engine: its
     * {@code DOCKER_HOST} (docker-java's default when the environment names none). The TLS
     * settings the environment gave for it every child inherits ({@link ChildEnvironment}).
     */
    public Map<String, String> childEnvironment() {
        return Map.of(ChildEnvironment.DOCKER_HOST, host);
    }

    /**
     * Whether {@code failure} says the engine went away (stopped, restarting, its socket gone) or
     * its swarm is not serving yet (the first seconds after a dockerd restart), rather than a
     * request the engine refused: what the teardown retries, and what a run reports in one line.
     */
    public static boolean unreachable(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
            if (socketFailure(t) || saysGone(String.valueOf(t.getMessage()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code t} itself is a socket's failure (refused, closed, reset, silent): the engine's, on docker-java's socket. */
    public static boolean socketFailure(Throwable t) {
        return t instanceof SocketException || t instanceof ClosedChannelException || t instanceof SocketTimeoutException
                || t instanceof org.apache.hc.core5.http.NoHttpResponseException;
    }

    /** Whether {@code message} is what the docker CLI or the engine says when the engine is gone or its swarm not ready. */
    public static boolean saysGone(String message) {
        return GONE.stream().anyMatch(message::contains);
    }

    /**
     * What the docker CLI and the engine say when the engine is not there or its swarm is not
     * ready; docker-java's own failure on a missing or dead socket is a {@code SocketException}
     * ("No such file or directory", "Connection refused"), checked by type.
     */
    private static final List<String> GONE = List.of("Cannot connect to the Docker daemon", "error during connect",
            "does not have a leader", "swarm is not ready", "This node is not a swarm manager");

    /**
     * What the engine said, without docker-java's wrapping: {@code Status 500: {"message":"..."}}
     * becomes the message itself (an engine error is a sentence, not an HTTP body).
     */
    public static String engineSays(RuntimeException e) {
        String text = String.valueOf(e.getMessage()).strip();
        int body = text.indexOf('{');
        if (body >= 0) {
            try {
                com.fasterxml.jackson.databind.JsonNode message = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(text.substring(body)).path("message");
                if (message.isTextual()) {
                    return message.asText().strip();
                }
            } catch (IOException notJson) {
                // not a JSON body: the text as it is
            }
        }
        return text.replaceFirst("^Status \\d{3}: ", "");
    }

    /**
     * One sentence for a run the engine's absence stopped: names the engine ({@code host}, what
     * the run connected to), the cause and what follows.
     */
    public static String goneMessage(String host, Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return "the Docker engine at " + host + " stopped answering during the run (" + String.valueOf(root.getMessage()).strip()
                + "): the run cannot go on; check that dockerd is running (" + SETUP_HINT + "); the teardown retried"
                + " within its bound, and the next run's janitor reaps whatever is left.";
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
