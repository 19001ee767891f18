package net.commoninternet.ccci.testing.helpers;

import java.nio.file.Path;
import java.util.List;
import jnr.constants.platform.OpenFlags;
import jnr.posix.POSIXFactory;
import jnr.posix.SpawnFileAction;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;

/**
 * Helper process: acquires a domain's lock with the real {@link AppDomainLock}, prints
 * {@code held <pid>} and waits until its stdin closes (then exits 0, its lock released by the
 * kernel). With {@code spawn} it first starts a native child ({@code sleep 300}) through
 * posix_spawn, which, unlike the JDK's own launcher, closes no descriptor for the child: only
 * close-on-exec keeps the lock out of it. It then prints {@code held <pid> child <childpid>}.
 */
public final class LockHolder {

    public static void main(String[] args) throws Exception {
        Path lockDir = Path.of(args[0]);
        String domain = args[1];
        boolean spawn = args.length > 2 && args[2].equals("spawn");
        AppDomainLock.acquire(lockDir, domain);
        String line = "held " + ProcessHandle.current().pid();
        if (spawn) {
            // stdout and stderr to /dev/null: the child must not hold our output pipe open.
            List<SpawnFileAction> quiet = List.of(
                    SpawnFileAction.open("/dev/null", 1, OpenFlags.O_WRONLY.intValue(), 0),
                    SpawnFileAction.open("/dev/null", 2, OpenFlags.O_WRONLY.intValue(), 0));
            long child = POSIXFactory.getNativePOSIX().posix_spawnp("sleep", quiet, List.of("sleep", "300"),
                    List.of("PATH=/usr/bin:/bin"));
            line += " child " + child;
        }
        System.out.println(line);
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the test to close our stdin
        }
    }
}
