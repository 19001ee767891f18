package net.commoninternet.ccci.lifecycle;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * One run's share of the host, set by the host's operator ({@code ccci.budget.*}), never by a
 * recipe: every run beside it on the host gets the same share, so no run can starve the others or
 * the warm apps. What can be summed from the compose is judged before the deploy ({@link Limits});
 * what a compose cannot say in advance is bounded while the run goes on: the disk its volumes and
 * containers write ({@link #disk}, watched), and each container's log ({@link Logs}, set on every
 * service by ccci); and the run's clock and what a fetch of its recipe may write
 * ({@link RunSettings.Bounds}: its wall-clock budget, the longest deploy wait, the fetch's bytes and files).
 *
 * @param limits what the run's services may take in sum, judged on the resolved compose before the deploy
 * @param disk bytes the run's volumes and containers (writable layers, logs) may hold on the host, watched
 * @param logs the log rotation ccci sets on every service, which a recipe may only lower
 * @param bounds the run's clock and the fetch's bounds ({@code ccci.run-budget}, {@code ccci.max-deploy-timeout},
 *        {@code ccci.fetch.*})
 */
@API(status = API.Status.INTERNAL)
public record RunBudget(Limits limits, long disk, Logs logs, RunSettings.Bounds bounds) {

    /** The defaults: docs/security.md's "one run's share". */
    public static final RunBudget DEFAULT = new RunBudget(Limits.DEFAULT, 4L << 30, Logs.DEFAULT, RunSettings.Bounds.DEFAULT);

    public RunBudget {
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(logs, "logs");
        Objects.requireNonNull(bounds, "bounds");
    }

    /** With the default clock and fetch bounds. */
    public RunBudget(Limits limits, long disk, Logs logs) {
        this(limits, disk, logs, RunSettings.Bounds.DEFAULT);
    }

    /** The same budget with the host's clock and fetch bounds. */
    public RunBudget withBounds(RunSettings.Bounds newBounds) {
        return new RunBudget(limits, disk, logs, newBounds);
    }

    /**
     * The sum over the run's services of what each may take, each replica counted (a global
     * service once per node of the swarm).
     *
     * @param memory bytes: memory limits plus tmpfs sizes (a tmpfs is memory)
     * @param pids processes: the pids limits
     * @param cpus reserved CPUs: what swarm sets aside for the run and no other run can have
     * @param tasks containers at once
     */
    public record Limits(long memory, long pids, double cpus, int tasks) {
        public static final Limits DEFAULT = new Limits(8L << 30, 4096, 2, 16);
    }

    /**
     * The json-file (or local) log rotation of every container of the run: at most {@code maxFiles}
     * files of {@code maxSize} bytes each.
     */
    public record Logs(long maxSize, int maxFiles) {
        public static final Logs DEFAULT = new Logs(10L << 20, 3);
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?) ?([kmgtp]?)(?:i?b)?");

    /**
     * A size as the engine reads one ({@code 512m}, {@code 8g}, {@code 1.5G}, {@code 1048576},
     * {@code 10MiB}): binary multiples, as docker's {@code RAMInBytes} takes them for memory, tmpfs
     * and log sizes; -1 if it is not one (or beyond 2^62 bytes).
     */
    public static long bytes(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return -1;
        }
        int power = m.group(2).isEmpty() ? 0 : "kmgtp".indexOf(m.group(2)) + 1;
        double value = Double.parseDouble(m.group(1)) * Math.pow(1024, power);
        return value >= 0x1p62 ? -1 : (long) value;
    }

    /** {@code bytes} as a person reads it: {@code 8 GiB}, {@code 512 MiB}, {@code 1.5 GiB}, {@code 300 B}. */
    public static String shown(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int unit = 0;
        double value = bytes;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        String number = value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
        return number + " " + units[unit];
    }
}
