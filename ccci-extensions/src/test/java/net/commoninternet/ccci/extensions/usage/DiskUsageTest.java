package net.commoninternet.ccci.extensions.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the disk watch counts, on real files: the blocks a file holds, not its apparent size (a
 * writable layer under gVisor is one sparse file), a file linked twice once, a link never followed.
 */
class DiskUsageTest {

    @TempDir
    Path dir;

    @Test
    void aSparseFileCountsTheBytesWrittenNotItsApparentSize() throws Exception {
        Path sparse = dir.resolve(".gvisor.filestore.x");
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(1L << 30);
            file.seek(1L << 20);
            file.write(new byte[4 << 20]);
        }

        long allocated = DiskUsage.allocated(dir);

        assertThat(Files.size(sparse)).isEqualTo(1L << 30);
        assertThat(allocated).isBetween(4L << 20, 5L << 20);
    }

    @Test
    void aFileLinkedTwiceIsCountedOnceAndALinkIsNeverFollowed() throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.write(data.resolve("a"), new byte[2 << 20]);
        Files.createLink(data.resolve("b"), data.resolve("a"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.write(outside.resolve("big"), new byte[8 << 20]);
        Files.createSymbolicLink(data.resolve("out"), outside);

        long allocated = DiskUsage.allocated(data);

        assertThat(allocated).isBetween(2L << 20, (2L << 20) + (64 << 10));
        assertThat(DiskUsage.allocated(dir.resolve("gone"))).isZero();
    }
}
