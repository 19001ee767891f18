package net.commoninternet.ccci.testing.helpers;

import java.util.List;
import java.util.stream.Collectors;
import jnr.constants.platform.Errno;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import net.commoninternet.ccci.extensions.guards.ParentDeathSignal;

/**
 * A child subreaper for tests that kill a helper's parent: it runs one command and, because
 * orphans of its tree are re-parented to it instead of to init, it reaps every process of that
 * tree and says how each ended ({@code orphanage: reaped <pid> exit <n>|signal <n>}), so a test
 * can capture the exit status of a process whose parent it killed. It exits once nothing is
 * left to reap.
 *
 * <p>The command is started with {@code posix_spawnp}, not {@code ProcessBuilder}: the JDK's
 * reaper thread would otherwise race this one for the child's status. The command inherits this
 * process's stdin and stdout, so the test drives and hears the whole tree through one pipe.
 */
public final class Orphanage {

    static final int PR_SET_CHILD_SUBREAPER = 36;

    private Orphanage() {
    }

    public static void main(String[] args) {
        if (ParentDeathSignal.LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
            throw new IllegalStateException("prctl(PR_SET_CHILD_SUBREAPER) failed");
        }
        POSIX posix = POSIXFactory.getNativePOSIX();
        List<String> environment = System.getenv().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.toList());
        long child = posix.posix_spawnp(args[0], List.of(), List.of(args), environment);
        if (child <= 0) {
            throw new IllegalStateException("posix_spawnp " + args[0] + " failed: errno " + posix.errno());
        }
        say("started " + child);
        int[] status = new int[1];
        while (true) {
            long reaped = posix.waitpid(-1, status, 0);
            if (reaped < 0) {
                if (posix.errno() == Errno.EINTR.intValue()) {
                    continue;
                }
                break;
            }
            int signal = status[0] & 0x7f;
            say("reaped " + reaped + (signal == 0 ? " exit " + ((status[0] >> 8) & 0xff) : " signal " + signal));
        }
        say("done");
    }

    /** How the orphanage says a process ended, for matching. */
    public static String reaped(long pid) {
        return "orphanage: reaped " + pid + " ";
    }

    static void say(String line) {
        System.out.println("orphanage: " + line);
        System.out.flush();
    }
}
