package net.commoninternet.ccci.extensions.guards;

import jnr.constants.platform.Errno;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.SaveError;
import org.apiguardian.api.API;

/**
 * The parent-death signal (spec section 2, first guard): once armed, the kernel sends this
 * process SIGTERM when its parent dies, so a run cannot outlive the step that started it.
 *
 * <p>Two traps (JVM-NOTES, "Parent death"). The setting belongs to the calling THREAD and goes
 * with it, so {@link #arm()} must run on the thread that owns the whole run (Surefire's main
 * thread, or a helper's). And a parent that died before the call left nobody to signal us: the
 * parent is re-checked after arming, against pid 1 and against the parent seen when this class
 * was loaded, early (under a subreaper an orphan's new parent is not pid 1).
 */
@API(status = API.Status.INTERNAL)
public final class ParentDeathSignal {

    /** libc's {@code prctl} and {@code getppid}; jnr-posix binds no {@code prctl}. */
    public interface LibC {
        @SaveError
        int prctl(int option, long arg2, long arg3, long arg4, long arg5);

        int getppid();
    }

    static final int PR_SET_PDEATHSIG = 1;
    static final int SIGTERM = 15;

    public static final LibC LIBC = LibraryLoader.create(LibC.class).load("c");

    /**
     * The parent this process had when this class was first loaded: by {@link #noteParent}, in
     * {@code RecipeCiRun.warmUp} at the end of the engine's discovery, right after the JVM started.
     */
    public static final long PARENT_AT_START = LIBC.getppid();

    private ParentDeathSignal() {
    }

    /** Notes the process's parent now, unless it was noted already: {@link #PARENT_AT_START}. */
    public static long noteParent() {
        return PARENT_AT_START;
    }

    /**
     * Arms SIGTERM on parent death for the calling thread, then refuses to go on if the parent
     * is already gone: an orphaned run would never receive the signal.
     *
     * @return the parent pid the signal is tied to
     */
    static long arm() {
        if (LIBC.prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) != 0) {
            int errno = LastError.getLastError(jnr.ffi.Runtime.getRuntime(LIBC));
            throw new IllegalStateException("prctl(PR_SET_PDEATHSIG, SIGTERM) failed (" + Errno.valueOf(errno)
                    + "): this kernel cannot tie the run to its parent; run ccci on Linux.");
        }
        long parent = LIBC.getppid();
        if (parent == 1 || parent != PARENT_AT_START) {
            throw new IllegalStateException("refusing to run orphaned: the process that started this run (pid "
                    + PARENT_AT_START + ") is gone (parent now pid " + parent + "), so a cancelled step could never"
                    + " stop it; start the run again from its step or shell.");
        }
        return parent;
    }
}
