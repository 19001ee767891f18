package net.commoninternet.ccci.extensions.keep;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import org.apiguardian.api.API;

/**
 * The maintainer's side of a keep (the {@code shell} and {@code end} commands of its folder): a client
 * of the keeper's unix-domain socket. {@code shell [service] [command...]} relays standard input to a
 * shell in the service's running container and its output back, masked by the keeper, which alone holds
 * the run's secret values (in memory); {@code end} asks the keeper to end the keep and returns once it
 * has torn the app down and exited. JDK only.
 */
@API(status = API.Status.INTERNAL)
public final class KeepShell {

    private KeepShell() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: shell [service] [command...] | end");
            System.exit(2);
        }
        Path socket = Path.of(args[0]);
        SocketChannel channel;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException gone) {
            System.err.println("the keep has ended: its keeper no longer answers at " + socket + " (" + gone.getMessage() + ").");
            System.exit(1);
            return;
        }
        OutputStream toKeeper = new SocketOut(channel);
        InputStream fromKeeper = Channels.newInputStream(channel);
        if (args[1].equals("end")) {
            toKeeper.write("end\n".getBytes(StandardCharsets.UTF_8));
            toKeeper.flush();
            fromKeeper.transferTo(System.out); // until the keeper has torn down and exited
            System.out.flush();
            return;
        }
        String service = args.length > 2 ? args[2] : "app";
        String command = args.length > 3 ? String.join(" ", Arrays.copyOfRange(args, 3, args.length)) : "";
        toKeeper.write(("shell " + service + " " + Base64.getEncoder().encodeToString(command.getBytes(StandardCharsets.UTF_8))
                + "\n").getBytes(StandardCharsets.UTF_8));
        toKeeper.flush();
        Thread input = new Thread(() -> {
            try {
                System.in.transferTo(toKeeper);
                toKeeper.flush();
            } catch (IOException ignored) {
                // the keeper closed its side
            } finally {
                try {
                    channel.shutdownOutput();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "keep-shell-input");
        input.setDaemon(true);
        input.start();
        fromKeeper.transferTo(System.out);
        System.out.flush();
        System.exit(0);
    }
}
