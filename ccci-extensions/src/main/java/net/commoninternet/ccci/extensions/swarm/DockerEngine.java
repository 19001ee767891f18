package net.commoninternet.ccci.extensions.swarm;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.LocalNodeState;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The connection to the local Docker engine, made once per run before anything else touches
 * the host: a run without an engine or without an active swarm stops here, having created
 * nothing, with one sentence that names the fix.
 */
@API(status = API.Status.INTERNAL)
public record DockerEngine(DockerClient client, DockerHttpClient http) implements AutoCloseable {

    static final String SETUP_HINT = "run scripts/setup-local-swarm as root to install and start it";

    public static DockerEngine connect() {
        DefaultDockerClientConfig config = DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        DockerHttpClient http = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .connectionTimeout(Duration.ofSeconds(5))
                .responseTimeout(Duration.ofMinutes(3))
                .build();
        DockerClient client = DockerClientImpl.getInstance(config, http);
        try {
            client.pingCmd().exec();
        } catch (RuntimeException e) {
            throw new IllegalStateException("no Docker engine answers at " + config.getDockerHost() + ": " + SETUP_HINT + ".");
        }
        LocalNodeState state = client.infoCmd().exec().getSwarm().getLocalNodeState();
        if (state != LocalNodeState.ACTIVE) {
            throw new IllegalStateException("the Docker engine is not in an active swarm (state " + state + "): "
                    + SETUP_HINT + ".");
        }
        return new DockerEngine(client, http);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
