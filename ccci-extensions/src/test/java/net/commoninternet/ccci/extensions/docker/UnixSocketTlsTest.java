package net.commoninternet.ccci.extensions.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.core.DefaultDockerClientConfig;
import org.junit.jupiter.api.Test;

/**
 * Only a unix-socket engine's client gets the refusing TLS context: docker-java speaks https to a
 * tcp engine that has any TLS settings, so a tcp engine keeps the environment's (here none: plain
 * http, as before). Against the real engine every concurrency-suite test uses the unix socket.
 */
class UnixSocketTlsTest {

    @Test
    void aUnixSocketEngineWithoutTlsSettingsGetsTheRefusingContext() throws Exception {
        DefaultDockerClientConfig unix = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost("unix:///var/run/docker.sock").withDockerTlsVerify(false).build();
        assertThat(DockerEngine.tls(unix)).isSameAs(UnixSocketTls.INSTANCE);
        assertThatThrownBy(() -> UnixSocketTls.INSTANCE.getSSLContext().getSocketFactory())
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("never TLS");
        assertThatThrownBy(() -> UnixSocketTls.INSTANCE.getSSLContext().createSSLEngine())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aTcpEngineKeepsTheEnvironmentsTlsSettings() {
        DefaultDockerClientConfig tcp = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost("tcp://127.0.0.1:2375").withDockerTlsVerify(false).build();
        assertThat(DockerEngine.tls(tcp)).as("plain http, as docker-java chose with no settings").isNull();
    }
}
