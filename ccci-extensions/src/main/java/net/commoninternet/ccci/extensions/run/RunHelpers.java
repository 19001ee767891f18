package net.commoninternet.ccci.extensions.run;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import net.commoninternet.ccci.extensions.deployment.RunThreads;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.waits.Waits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The threads that work for one run beside its own (the fetch beside the janitor, the egress read
 * beside the connection, the ready probe beside the convergence, a teardown's parts side by side):
 * their lines carry the run's recipe and go to its run.log until their work returns.
 */
final class RunHelpers implements RunThreads {

    private static final Logger LOG = LoggerFactory.getLogger(RunHelpers.class);

    private final String recipe;
    private final RedactedConsole.RunLog runLog;

    RunHelpers(String recipe, RedactedConsole.RunLog runLog) {
        this.recipe = recipe;
        this.runLog = runLog;
    }

    /** {@code work} on a daemon thread of the run's. */
    @Override
    public Thread start(String name, Runnable work) {
        return thread(name, true, work);
    }

    /** What {@code work} gives, on a daemon thread of the run's. */
    <T> CompletableFuture<T> supply(String name, Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        start(name, () -> {
            try {
                result.complete(work.call());
            } catch (Exception | Error e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * {@code part} of the teardown on a thread of its own, whose lines are the run's; never
     * interrupted by the run's guards, bounded by the removal's own limits, and no daemon: the JVM
     * does not end under it. What it could not remove is its result, whatever happened.
     */
    CompletableFuture<List<String>> aside(String part, Supplier<List<String>> removal) {
        CompletableFuture<List<String>> left = new CompletableFuture<>();
        thread("ccci-teardown-" + part, false, () -> {
            try {
                left.complete(removal.get());
            } catch (RuntimeException | Error e) {
                LOG.warn("removing the {} of {} failed: {}", part, recipe, e.toString());
                left.complete(List.of(part + " (" + e + ")"));
            }
        });
        return left;
    }

    /** What a part of the teardown left, once it ended: the teardown waits for all of itself. */
    static List<String> leftBy(CompletableFuture<List<String>> part) {
        try {
            return Waits.resultOf(part);
        } catch (Exception e) {
            return List.of(String.valueOf(e));
        }
    }

    private Thread thread(String name, boolean daemon, Runnable work) {
        AtomicReference<Runnable> released = new AtomicReference<>();
        Thread helper = new Thread(() -> {
            MDC.put(RecipeCiRun.MDC_RECIPE, recipe);
            try {
                work.run();
            } finally {
                released.get().run();
            }
        }, name + "-" + recipe);
        helper.setDaemon(daemon);
        released.set(runLog.alsoFrom(helper));
        helper.start();
        return helper;
    }
}
