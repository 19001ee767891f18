package net.commoninternet.ccci.extensions.keep;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Writes straight to a socket channel. Not {@code Channels.newOutputStream}: its streams take the
 * channel's blocking lock for each call, so a write waits for a read that another thread has blocked in
 * on the same channel (the keep's relays read and write at once), and the two never end.
 */
final class SocketOut extends OutputStream {

    private final SocketChannel channel;

    SocketOut(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }
}
