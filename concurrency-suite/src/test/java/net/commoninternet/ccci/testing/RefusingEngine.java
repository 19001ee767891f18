package net.commoninternet.ccci.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The real Docker engine behind a UNIX socket of the test's, which refuses chosen API calls as a
 * failing engine does (HTTP 500 with a JSON message), or answers them as a half-failing one does
 * (a status and body of the test's: a list without the swarm's part). Everything else goes to the
 * real engine's socket byte for byte; each request gets a connection of its own ({@code Connection:
 * close} is added, upgrade requests such as an exec's attach aside), so every request of a pooled
 * client passes the check. Point a run at it with {@code DOCKER_HOST=unix://<socket()>}.
 */
public final class RefusingEngine implements AutoCloseable {

    /** The engine's own socket. */
    private static final Path ENGINE = Path.of("/var/run/docker.sock");

    /** What a container start is on the API, versioned or not: {@code POST /v1.41/containers/<id>/start}. */
    public static final Pattern CONTAINER_START = Pattern.compile("^POST (/v[0-9.]+)?/containers/[^/?\\s]+/start[?\\s]");

    private final Path socket;
    private final Pattern refused;
    private final String status;
    private final String body;
    private final ServerSocketChannel server;
    private final AtomicInteger refusals = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();

    private RefusingEngine(Path socket, Pattern refused, String status, String body) throws IOException {
        this.socket = socket;
        this.refused = refused;
        this.status = status;
        this.body = body;
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
    }

    /** Listens on {@code socket}; every request whose request line matches {@code refused} is answered 500 {@code message}. */
    public static RefusingEngine start(Path socket, Pattern refused, String message) throws IOException {
        return answering(socket, refused, "500 Internal Server Error", "{\"message\":\"" + message + "\"}");
    }

    /** Listens on {@code socket}; every request whose request line matches {@code matched} is answered {@code status} {@code json}. */
    public static RefusingEngine answering(Path socket, Pattern matched, String status, String json) throws IOException {
        RefusingEngine engine = new RefusingEngine(socket, matched, status, json);
        engine.thread("refusing-engine-accept", engine::accept);
        return engine;
    }

    /** The address a run is given: {@code unix:///...}. */
    public String dockerHost() {
        return "unix://" + socket.toAbsolutePath();
    }

    /** How many requests it refused so far. */
    public int refusals() {
        return refusals.get();
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                thread("refusing-engine-conn", () -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(SocketChannel client) {
        try (client) {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            ByteBuffer one = ByteBuffer.allocate(1);
            while (!endsHead(head.toByteArray())) {
                one.clear();
                if (client.read(one) < 0) {
                    return;
                }
                head.write(one.array(), 0, 1);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            if (refused.matcher(text).find()) {
                refusals.incrementAndGet();
                byte[] answer = body.getBytes(StandardCharsets.UTF_8);
                client.write(ByteBuffer.wrap(("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + answer.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)));
                client.write(ByteBuffer.wrap(answer));
                return;
            }
            try (SocketChannel engine = SocketChannel.open(UnixDomainSocketAddress.of(ENGINE))) {
                engine.write(ByteBuffer.wrap(oneRequestOnly(text).getBytes(StandardCharsets.ISO_8859_1)));
                Thread up = thread("refusing-engine-up", () -> pump(client, engine));
                pump(engine, client);
                up.join(60_000);
            }
        } catch (IOException | InterruptedException e) {
            // the client or the engine went away: the connection ends
        }
    }

    /** The request head with {@code Connection: close}, unless it asks for an upgrade (a hijacked stream). */
    private static String oneRequestOnly(String head) {
        if (head.toLowerCase(Locale.ROOT).contains("\r\nupgrade:")) {
            return head;
        }
        StringBuilder out = new StringBuilder();
        for (String line : head.substring(0, head.length() - 4).split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                out.append(line).append("\r\n");
            }
        }
        return out.append("Connection: close\r\n\r\n").toString();
    }

    private static boolean endsHead(byte[] bytes) {
        int n = bytes.length;
        return n >= 4 && bytes[n - 4] == '\r' && bytes[n - 3] == '\n' && bytes[n - 2] == '\r' && bytes[n - 1] == '\n';
    }

    /** Bytes from {@code from} to {@code to} until {@code from} ends; then {@code to}'s writing half is shut. */
    private static void pump(SocketChannel from, SocketChannel to) {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (from.read(buffer) >= 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    to.write(buffer);
                }
                buffer.clear();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // either side closed
        }
    }

    private Thread thread(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        synchronized (threads) {
            threads.add(thread);
        }
        thread.start();
        return thread;
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
    }
}
