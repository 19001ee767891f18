package net.commoninternet.ccci.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.RecipeCi;
import net.commoninternet.ccci.engine.config.CheckAttempts;
import net.commoninternet.ccci.engine.config.ConfigurationKeys;
import net.commoninternet.ccci.engine.config.Constants;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.descriptor.CcciEngineDescriptor;
import net.commoninternet.ccci.engine.discovery.RecipeSelection;
import net.commoninternet.ccci.engine.discovery.RecipeSelectorResolver;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
import net.commoninternet.ccci.engine.execution.CommandVerdict;
import net.commoninternet.ccci.engine.execution.KeptReport;
import net.commoninternet.ccci.engine.execution.ReportAttachments;
import net.commoninternet.ccci.engine.extension.Plugins;
import net.commoninternet.ccci.engine.parallel.ParallelExecution;
import net.commoninternet.ccci.lifecycle.RunLifecycle;
import org.apiguardian.api.API;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestExecutorService;

/**
 * The ccci test engine: a recipe CI run as a JUnit Platform test tree,
 * {@code [engine:ccci]/[recipe:<name>]/[tier:<tier>]/[check:<check>]}.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class CcciTestEngine extends HierarchicalTestEngine<CcciExecutionContext> {

    public static final String ID = CcciEngineDescriptor.ENGINE_ID;

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("net.commoninternet.ccci");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("ccci-engine");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        Plugins plugins = Plugins.load(Thread.currentThread().getContextClassLoader());
        CcciEngineDescriptor engine = new CcciEngineDescriptor(uniqueId, plugins);
        SettingsReader reader = SettingsReader.fromProcess(request.getConfigurationParameters(), plugins.drivers().keySet());
        if (!reader.recipes().isEmpty()) {
            // Recipes are named (-Drecipe): the lifecycle begins its slow first uses now, beside the
            // discovery on a machine's other core, rather than after it (about 0.4 s sooner here).
            plugins.onlyLifecycle().ifPresent(RunLifecycle::warmUp);
        }
        Optional<String> blank = reader.blankRecipeKey();
        if (blank.isPresent()) {
            // For every selection, not only an anchor class: a build that names no recipe must fail
            // in the first module that runs this engine, before anything else is run for nothing.
            DiscoveryIssueReporter.forwarding(request.getDiscoveryListener(), uniqueId).reportIssue(DiscoveryIssue.create(
                    DiscoveryIssue.Severity.ERROR, RecipeSelection.blank(blank.get())));
            return engine;
        }
        // A misspelt ccci.* key is refused whenever the engine would run something (a recipe named, or a
        // run selected by its unique id), never for a build that runs no recipe (a module's own tests).
        List<String> unknownKeys = new ArrayList<>(ConfigurationKeys.known().problems(request.getConfigurationParameters()));
        reader.checkAttempts(unknownKeys); // a value out of bounds is refused with them
        if (!reader.recipes().isEmpty()) {
            report(request, uniqueId, unknownKeys);
        }
        EngineDiscoveryRequestResolver.<CcciEngineDescriptor>builder()
                .addClassContainerSelectorResolver(c -> c.isAnnotationPresent(RecipeCi.class))
                .addSelectorResolver(ctx -> new RecipeSelectorResolver(reader, plugins, ctx.getIssueReporter()))
                .build()
                .resolve(request, engine);
        engine.planRuns();
        Optional<String> command = engine.commandRunId();
        if (command.isPresent() && plugins.onlyLifecycle().map(l -> l.ranInThisJvm(command.get())).orElse(false)) {
            return rerun(request, engine, command.get());
        }
        if (reader.recipes().isEmpty() && !engine.runs().isEmpty()) {
            report(request, uniqueId, unknownKeys);
        }
        if (engine.runs().size() > 1) {
            ParallelExecution.problem(request.getConfigurationParameters()).ifPresent(problem -> request.getDiscoveryListener()
                    .issueEncountered(uniqueId, DiscoveryIssue.create(DiscoveryIssue.Severity.ERROR, problem)));
        }
        if (!engine.runs().isEmpty()) {
            // Runs will follow (those of a unique-id selection too, which names no recipe): the lifecycle
            // may begin its slow first uses now, if it has not. Never for a build that names and runs no
            // recipe (a module's own tests): loading ccci starts nothing.
            plugins.onlyLifecycle().ifPresent(RunLifecycle::warmUp);
        }
        return engine;
    }

    /**
     * A second execution of a command in one JVM is Surefire's rerun of its failed checks
     * ({@code rerunFailingTestsCount}, which recipe-suites sets so that Surefire's XML and its build
     * result merge a check's attempts): it is answered with no run, since a rerun would deploy the app
     * again, and ccci already tried each failed check on the live app ({@code ccci.check-attempts}).
     * The command's report of the first execution is kept ({@link KeptReport}).
     */
    private static TestDescriptor rerun(EngineDiscoveryRequest request, CcciEngineDescriptor engine, String command) {
        List.copyOf(engine.getChildren()).forEach(engine::removeChild);
        KeptReport.keepUntilExit(request);
        DiscoveryIssueReporter.forwarding(request.getDiscoveryListener(), engine.getUniqueId()).reportIssue(DiscoveryIssue.create(
                DiscoveryIssue.Severity.INFO, "command " + command + " already ran in this JVM: its rerun (Surefire's"
                        + " rerunFailingTestsCount) runs nothing, for a rerun would deploy the app again; each failed check"
                        + " was already tried on the live app, as " + Constants.CHECK_ATTEMPTS + " allows."));
        return engine;
    }

    private static void report(EngineDiscoveryRequest request, UniqueId uniqueId, List<String> problems) {
        problems.forEach(problem -> request.getDiscoveryListener().issueEncountered(uniqueId,
                DiscoveryIssue.create(DiscoveryIssue.Severity.ERROR, problem)));
    }

    /** The runs of a plan of several recipes in parallel (ccci.parallel.*); one run on the calling thread. */
    @Override
    protected HierarchicalTestExecutorService createExecutorService(ExecutionRequest request) {
        CcciEngineDescriptor root = (CcciEngineDescriptor) request.getRootTestDescriptor();
        HierarchicalTestExecutorService executor = ParallelExecution.executorFor(root.runs().size(),
                request.getConfigurationParameters());
        root.spareSlots(ParallelExecution.spareOf(executor, request.getConfigurationParameters()));
        return executor;
    }

    @Override
    protected CcciExecutionContext createExecutionContext(ExecutionRequest request) {
        CcciEngineDescriptor root = (CcciEngineDescriptor) request.getRootTestDescriptor();
        CheckAttempts attempts = SettingsReader.fromProcess(request.getConfigurationParameters(), root.plugins().drivers().keySet())
                .checkAttempts(new ArrayList<>());
        return new CcciExecutionContext(new CcciExecutionContext.Command(root.plugins(),
                new ReportAttachments(request.getEngineExecutionListener(), request.getOutputDirectoryCreator()),
                request.getEngineExecutionListener(), attempts, new CommandVerdict()));
    }
}
