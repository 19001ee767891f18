package net.commoninternet.ccci.extensions.docker;

import com.github.dockerjava.transport.DockerHttpClient;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A stand-in for the Docker engine's HTTP API, named as such (the real one: concurrency-suite):
 * answers every request with the status and the body given for its path (the engine's JSON, or its
 * stream framing; the body's characters are its bytes), and records the requests made ("GET /path").
 */
public final class AnsweringEngine implements DockerHttpClient {

    public final List<String> paths = new CopyOnWriteArrayList<>();
    private final Function<String, Integer> statuses;
    private final Function<String, String> bodies;

    public AnsweringEngine(int status, Function<String, String> bodies) {
        this(path -> status, bodies);
    }

    /** {@code statuses} gives each path's status (an engine that answers 404 for one container, say). */
    public AnsweringEngine(Function<String, Integer> statuses, Function<String, String> bodies) {
        this.statuses = statuses;
        this.bodies = bodies;
    }

    @Override
    public Response execute(Request request) {
        paths.add(request.method() + " " + request.path());
        byte[] body = bodies.apply(request.path()).getBytes(StandardCharsets.ISO_8859_1);
        int status = statuses.apply(request.path());
        return new Response() {
            @Override
            public int getStatusCode() {
                return status;
            }

            @Override
            public Map<String, List<String>> getHeaders() {
                return Map.of();
            }

            @Override
            public InputStream getBody() {
                return new ByteArrayInputStream(body);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void close() {
    }
}
