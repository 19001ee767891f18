package net.commoninternet.ccci.engine.descriptor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.CommandVerdict;
import net.commoninternet.ccci.engine.extension.Plugins;
import net.commoninternet.ccci.lifecycle.RunPlan;
import net.commoninternet.ccci.lifecycle.SpareSlots;
import org.apiguardian.api.API;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The root of the ccci tree; its children are recipe runs, the plan. The lifecycle hears of the
 * plan once before the first run and once after the last ({@code beginPlan}, {@code endPlan}), on
 * the thread that runs this root, which outlives every run.
 */
@API(status = API.Status.INTERNAL)
public final class CcciEngineDescriptor extends EngineDescriptor implements Node<CcciExecutionContext> {

    /** The engine's id, the first segment of every unique id: {@code [engine:ccci]}. */
    public static final String ENGINE_ID = "ccci";

    private final Plugins plugins;
    private RunPlan plan;
    private volatile SpareSlots spare = SpareSlots.NONE;

    public CcciEngineDescriptor(UniqueId uniqueId, Plugins plugins) {
        super(uniqueId, ENGINE_ID);
        this.plugins = plugins;
    }

    /** The command's run slots no run holds, for the plan: set once the executor is made, before the plan begins. */
    public void spareSlots(SpareSlots spare) {
        this.spare = spare;
    }

    public Plugins plugins() {
        return plugins;
    }

    public List<RecipeRunDescriptor> runs() {
        return getChildren().stream().filter(RecipeRunDescriptor.class::isInstance).map(RecipeRunDescriptor.class::cast)
                .toList();
    }

    /** The command's run id, as it was given (each run of a plan of several adds its recipe); empty without runs. */
    public Optional<String> commandRunId() {
        return runs().stream().findFirst().map(RecipeRunDescriptor::commandRunId);
    }

    /** Once discovery is done: the runs of a plan of several recipes take the run ids {@code <run id>-<recipe>}. */
    public void planRuns() {
        List<RecipeRunDescriptor> runs = runs();
        if (runs.size() > 1) {
            runs.forEach(RecipeRunDescriptor::runInAPlanOfSeveral);
        }
    }

    @Override
    public CcciExecutionContext before(CcciExecutionContext context) throws Exception {
        List<RecipeRunDescriptor> runs = runs();
        if (!runs.isEmpty()) {
            plan = new RunPlan(runs.get(0).commandRunId(), runs.stream().map(RecipeRunDescriptor::settings).toList(),
                    context.attachments().to(this), spare);
            plugins.lifecycle().beginPlan(plan);
        }
        return context;
    }

    /**
     * The plan ends on this node's thread whatever ended its runs, also an error JUnit rethrows
     * through every node and so past their {@code after} ({@code OutOfMemoryError}): the lifecycle
     * holds the command open until its end (its SIGTERM funnel, its shutdown hook), and a command
     * never ended kept a failed run's JVM alive for the hook's whole teardown grace after its RUN
     * SUMMARY. An error the end itself throws is kept with the first one.
     */
    @Override
    public void around(CcciExecutionContext context, Invocation<CcciExecutionContext> invocation) throws Exception {
        try {
            invocation.invoke(context);
        } catch (Throwable thrown) {
            try {
                endPlan();
                verdict(context);
            } catch (Throwable ending) {
                thrown.addSuppressed(ending);
            }
            throw thrown;
        }
        endPlan();
        verdict(context);
    }

    /**
     * Once every run has ended, the command's verdict for Maven's build result ({@link CommandVerdict}):
     * never for an execution without runs (Surefire's rerun), nor for a launcher that writes no outputs.
     * A verdict that cannot be written fails this node, which Surefire counts as an error.
     */
    private void verdict(CcciExecutionContext context) throws IOException {
        Optional<Path> folder = context.attachments().root();
        if (!runs().isEmpty() && folder.isPresent()) {
            context.verdict().write(folder.get());
        }
    }

    private void endPlan() throws Exception {
        RunPlan ending = plan;
        plan = null;
        if (ending != null) {
            plugins.lifecycle().endPlan(ending);
        }
    }
}
