package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.api.RecipeCi;
import net.commoninternet.ccci.engine.config.ConfigurationKeys;
import net.commoninternet.ccci.engine.config.SettingsReader;
import net.commoninternet.ccci.engine.descriptor.CcciEngineDescriptor;
import net.commoninternet.ccci.engine.discovery.RecipeSelection;
import net.commoninternet.ccci.engine.discovery.RecipeSelectorResolver;
import net.commoninternet.ccci.engine.execution.CcciExecutionContext;
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
        List<String> unknownKeys = ConfigurationKeys.known().problems(request.getConfigurationParameters());
        if (!reader.recipes().isEmpty()) {
            report(request, uniqueId, unknownKeys);
        }
        EngineDiscoveryRequestResolver.<CcciEngineDescriptor>builder()
                .addClassContainerSelectorResolver(c -> c.isAnnotationPresent(RecipeCi.class))
                .addSelectorResolver(ctx -> new RecipeSelectorResolver(reader, plugins, ctx.getIssueReporter()))
                .build()
                .resolve(request, engine);
        engine.planRuns();
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
        return new CcciExecutionContext(((CcciEngineDescriptor) request.getRootTestDescriptor()).plugins(),
                new ReportAttachments(request.getEngineExecutionListener(), request.getOutputDirectoryCreator()));
    }
}
