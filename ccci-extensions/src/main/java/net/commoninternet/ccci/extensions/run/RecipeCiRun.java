package net.commoninternet.ccci.extensions.run;

import java.nio.file.Path;
import net.commoninternet.ccci.extensions.lifetime.LifetimeGuards;
import net.commoninternet.ccci.extensions.lifetime.ParentDeathSignal;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunLifecycle;
import org.apiguardian.api.API;

/**
 * One recipe CI run, in the order of the spec. This class is its first phase, the guard: the
 * masked console, then the lifetime guards on the thread that runs the run; {@link RunPhases}
 * is the rest, phase by phase (sweep, prepare, lock, deploy, tiers, teardown in {@code finally}).
 */
@API(status = API.Status.INTERNAL)
public final class RecipeCiRun implements RunLifecycle {

    /**
     * The engine loads this class when it discovers runs, right after the JVM starts: noting the
     * parent now lets the guards see later whether it died before they were armed.
     */
    private static final long PARENT_AT_START = ParentDeathSignal.PARENT_AT_START;

    @Override
    public void run(RunContext run, Tiers tiers) throws Exception {
        // The console filter comes first: it starts nothing and takes no lock, and the log file
        // then has every line of the run, the guards' own included. Failures and skips are
        // reported outside this process (Surefire's report): masked with it too.
        try (RedactedConsole console = RedactedConsole.install()) {
            for (Path logFile : run.settings().paths().logFile().stream().toList()) {
                console.teeTo(logFile);
            }
            run.redactWith(console::redact);
            // On the thread that runs the run, before any child process or lock: the parent-death
            // signal, the SIGTERM funnel and the hard deadline (spec section 2).
            try (LifetimeGuards guards = LifetimeGuards.install(run.settings().options().deadline())) {
                new RunPhases(run, tiers, console, guards).run();
            }
        }
    }
}
