package net.commoninternet.ccci.extensions.docker;

import com.github.dockerjava.transport.SSLConfig;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS settings of a client of an engine on a unix socket, which never speaks TLS: a context
 * that refuses every use. Given no settings, docker-java's HTTP client builds the JVM's default TLS
 * context anyway (the JDK's TLS provider and its CA store: 100-170 ms of a cold JVM on two cores,
 * paid on the early connection's thread while the first run starts). Only for {@code unix://}:
 * docker-java takes any TLS settings on a {@code tcp://} engine as https, so a tcp engine keeps the
 * environment's settings ({@code DOCKER_TLS_VERIFY}, {@code DOCKER_CERT_PATH}) or none.
 */
final class UnixSocketTls implements SSLConfig {

    static final UnixSocketTls INSTANCE = new UnixSocketTls();

    private static final SSLContext REFUSING = new SSLContext(new Refusing(), null, "none (a unix socket)") {
    };

    private UnixSocketTls() {
    }

    @Override
    public SSLContext getSSLContext() {
        return REFUSING;
    }

    /** Every use is a bug: nothing on a unix socket negotiates TLS. */
    private static final class Refusing extends SSLContextSpi {
        private static UnsupportedOperationException refused() {
            return new UnsupportedOperationException("TLS on a unix-socket Docker engine: its connections are never TLS");
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
            throw refused();
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw refused();
        }
    }
}
