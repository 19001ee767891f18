package net.commoninternet.ccci.engine.parallel;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.descriptor.RecipeRunDescriptor;
import net.commoninternet.ccci.lifecycle.SpareSlots;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestExecutorService;
import org.junit.platform.engine.support.hierarchical.Node;
import org.junit.platform.engine.support.hierarchical.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's bound on runs in flight ({@link Constants#PARALLEL_PARALLELISM}), held by ccci
 * itself around JUnit's parallel executor: each run passes this gate before it starts (before its
 * {@code executionStarted}, its lifecycle, its guards) and leaves it when its node is done.
 *
 * <p>Resource: the host's capacity for concurrent runs. Invariant: never more than {@code bound}
 * runs of one command past the gate at once, whatever the pool does (JUnit's fork-join pool
 * replaces a worker blocked in a join or a managed block with a new one, so a pool's parallelism
 * alone does not bound what runs). Scope: the JVM (one command). Linearization point: the
 * semaphore's acquire. The pool gives every run of the plan a thread ({@link ParallelExecution}),
 * so a run beyond the bound waits here, where it says so once, rather than unseen in a queue.
 * Waiting is not interruptible: an interrupt is kept for the run, which its first wait then sees;
 * a run admitted after its command was stopped is refused by the lifecycle before it starts.
 * The semaphore is fair: runs start in the order they came to the gate.
 */
@API(status = API.Status.INTERNAL)
public final class RunSlots implements HierarchicalTestExecutorService {

    private static final Logger LOG = LoggerFactory.getLogger(RunSlots.class);

    private final HierarchicalTestExecutorService pool;
    private final int bound;
    private final Semaphore slots;

    RunSlots(HierarchicalTestExecutorService pool, int bound) {
        this.pool = pool;
        this.bound = bound;
        this.slots = new Semaphore(bound, true);
    }

    /**
     * The slots no run holds, for a run's extra work (an upgrade from another base): taken without
     * waiting, with the fair order kept (a run that waits for a slot comes first).
     */
    SpareSlots spare() {
        return spareOf(slots);
    }

    /** {@code slots} as {@link SpareSlots}: never waits, never barges past a waiting run. */
    static SpareSlots spareOf(Semaphore slots) {
        return new SpareSlots() {
            @Override
            public int takeUpTo(int wanted) {
                int taken = 0;
                try {
                    while (taken < wanted && slots.tryAcquire(0, TimeUnit.SECONDS)) {
                        taken++;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return taken;
            }

            @Override
            public void release(int taken) {
                if (taken > 0) {
                    slots.release(taken);
                }
            }
        };
    }

    @Override
    public Future<Void> submit(TestTask task) {
        return pool.submit(gated(task));
    }

    @Override
    public void invokeAll(List<? extends TestTask> tasks) {
        pool.invokeAll(tasks.stream().map(this::gated).toList());
    }

    @Override
    public void close() {
        pool.close();
    }

    /** A run's task through the gate; the engine's own task and everything below a run pass as they are. */
    private TestTask gated(TestTask task) {
        return task.getTestDescriptor() instanceof RecipeRunDescriptor run ? new Gated(task, run.settings().recipe()) : task;
    }

    private final class Gated implements TestTask {
        private final TestTask task;
        private final String recipe;

        Gated(TestTask task, String recipe) {
            this.task = task;
            this.recipe = recipe;
        }

        @Override
        public Node.ExecutionMode getExecutionMode() {
            return task.getExecutionMode();
        }

        @Override
        public ResourceLock getResourceLock() {
            return task.getResourceLock();
        }

        @Override
        public TestDescriptor getTestDescriptor() {
            return task.getTestDescriptor();
        }

        @Override
        public void execute() {
            if (!admittedAtOnce()) {
                LOG.info("== {} waits for a run slot: {} run(s) at once ({}={}) ==", recipe, bound,
                        Constants.PARALLEL_PARALLELISM, bound);
                slots.acquireUninterruptibly();
            }
            try {
                task.execute();
            } finally {
                slots.release();
            }
        }

        /** A free slot, unless runs already wait for one (the fair order: a plain tryAcquire would barge). */
        private boolean admittedAtOnce() {
            try {
                return slots.tryAcquire(0, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
