package net.commoninternet.ccci.extensions.swarm;

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
 * answers every request with one status and the body {@code bodies} gives for its path, in the
 * engine's JSON, and records the requests made ("GET /path").
 */
public final class AnsweringEngine implements DockerHttpClient {

    public final List<String> paths = new CopyOnWriteArrayList<>();
    private final int status;
    private final Function<String, String> bodies;

    public AnsweringEngine(int status, Function<String, String> bodies) {
        this.status = status;
        this.bodies = bodies;
    }

    @Override
    public Response execute(Request request) {
        paths.add(request.method() + " " + request.path());
        byte[] body = bodies.apply(request.path()).getBytes(StandardCharsets.UTF_8);
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
