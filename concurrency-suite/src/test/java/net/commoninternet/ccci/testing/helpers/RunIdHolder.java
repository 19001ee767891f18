package net.commoninternet.ccci.testing.helpers;

import java.nio.file.Path;
import net.commoninternet.ccci.extensions.lock.RunIdLock;

/**
 * Helper process: takes a run folder with the real {@link RunIdLock}, prints {@code held <pid>}
 * and waits until its stdin closes (its lock then released by the kernel, as on any exit).
 * Usage: {@code RunIdHolder <run folder> <run id>}.
 */
public final class RunIdHolder {

    private RunIdHolder() {
    }

    public static void main(String[] args) throws Exception {
        RunIdLock.acquire(Path.of(args[0]), args[1]);
        System.out.println("held " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the test to close our stdin
        }
    }
}
