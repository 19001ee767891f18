package net.commoninternet.ccci.extensions.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How often the disk watch looks: sooner as the bytes near the share, never more than a tenth of its time measuring. */
class DiskWatchTest {

    @Test
    void theNextLookComesSoonerAsTheBytesNearTheShare() {
        long second = TimeUnit.SECONDS.toNanos(1);
        // nothing grows: once a second
        assertThat(DiskWatch.next(1L << 30, 0, second, 0)).isEqualTo(DiskWatch.SLOWEST.toNanos());
        // 100 MiB/s with 100 MiB left: half a second
        assertThat(DiskWatch.next(100L << 20, 100L << 20, second, 0)).isEqualTo(second / 2);
        // 1 GiB/s with 10 MiB left: as soon as it may
        assertThat(DiskWatch.next(10L << 20, 1L << 30, second, 0)).isEqualTo(DiskWatch.FASTEST.toNanos());
        // a look that cost 20 ms waits ten times that at least
        assertThat(DiskWatch.next(10L << 20, 1L << 30, second, TimeUnit.MILLISECONDS.toNanos(20)))
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }
}
