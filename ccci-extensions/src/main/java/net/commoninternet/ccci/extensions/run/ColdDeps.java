package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.MountedSecrets;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
import net.commoninternet.ccci.extensions.workspace.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunState;
import net.commoninternet.ccci.spi.DependencyKeys;
import net.commoninternet.ccci.spi.RunSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recipe's cold dependencies ({@code DEPS}): apps of other recipes that the app under test
 * needs, deployed by the run before it and removed after it. Each is a run app of its own
 * (domain {@code <dep[:4]>-<sha1(dep|pr|recipe@ref)[:6]>}, so the janitor reaps it if the run
 * dies), locked by this process before it exists, exactly like the main app; each deploy counts
 * in the run's deploy count (deploy-once: {@code 1 + cold deps}).
 *
 * <p>Each cold dependency is set up like the app under test ({@link RecipeSetup}): its own
 * {@code EXTRA_ENV}, and its repository's {@code compose.ccci.yml} and {@code install_steps.sh}
 * only if it is on the approved list itself. Its customization's overlay and hooks are not run.
 *
 * <p>A dependency whose own customization sets {@code WARM_CANONICAL} is served by its
 * long-lived warm app when that app is live and converged: no lock, no deploy, never torn down
 * (warm apps are not the run's; the janitor never matches them either). When the warm app is
 * missing or not converged, the run says so in the dependency-skip state file and deploys the
 * dependency cold instead.
 *
 * <p>Locks are taken main app first, then dependencies in the order listed; dependency domains
 * include the main recipe, so two runs can only meet on a dependency lock after meeting on the
 * main app's lock: no lock-order cycle.
 */
public final class ColdDeps {

    private static final Logger LOG = LoggerFactory.getLogger(ColdDeps.class);

    /** One dependency: cold (deployed by the run: {@code app} set once created) or warm (never touched). */
    public record Dep(String recipe, String domain, App app, boolean warm) {
    }

    private final List<Dep> deployed = new ArrayList<>();
    private final net.commoninternet.ccci.spi.RunSettings settings;
    private final AppDriver driver;
    private final DockerEngine docker;
    private final RecipeFetch fetch;
    private final ChildProcesses children;
    private final RunAbraDir abraDir;
    private final RunState state;
    private final RedactedConsole console;

    /** The run's own means: its settings, driver, engine, fetch, child processes, ABRA_DIR, state and console. */
    ColdDeps(net.commoninternet.ccci.spi.RunSettings settings, AppDriver driver, DockerEngine docker, RecipeFetch fetch,
            ChildProcesses children, RunAbraDir abraDir, RunState state, RedactedConsole console) {
        this.settings = settings;
        this.driver = driver;
        this.docker = docker;
        this.fetch = fetch;
        this.children = children;
        this.abraDir = abraDir;
        this.state = state;
        this.console = console;
    }

    static String domain(String dep, int pr, String recipe, String ref) {
        return AppNaming.domain(dep, pr, recipe + "@" + ref);
    }

    /**
     * Fetches, locks, creates, deploys and awaits each dependency in turn; whatever was created
     * is in {@link #deployed()} for the teardown even when this throws.
     */
    void deploy(List<String> deps, net.commoninternet.ccci.spi.DependencyKeys depKeys, String recipe, String ref,
            Duration timeout) throws IOException, InterruptedException {
        for (String dep : deps) {
            java.util.Optional<String> warm = depKeys.of(dep).warmCanonical(dep);
            if (warm.isPresent()) {
                SwarmConvergence.Report live = new SwarmConvergence(docker).inspect(AppNaming.stackName(warm.get()));
                if (live.converged()) {
                    LOG.info("== dependency {} of {}: the warm app {} (WARM_CANONICAL), live and converged ==", dep,
                            recipe, warm.get());
                    deployed.add(new Dep(dep, warm.get(), null, true));
                    continue;
                }
                LOG.warn("dependency {}: its warm app {} is not usable ({}); deploying it cold", dep, warm.get(),
                        String.join("; ", live.problems()));
                state.recordDependencySkip(dep + ": warm app " + warm.get() + " not usable, deployed cold");
            }
            RecipeFetch.Fetched tree = fetch.fetch(settings.recipesDir().resolve(dep), abraDir.recipe(dep), null);
            String domain = domain(dep, settings.pr(), recipe, ref);
            AppDomainLock.acquire(settings.appLockDir(), domain);
            state.recordDependency(domain);
            LOG.info("== dependency {} of {}: app {} (cold, at {}) ==", dep, recipe, domain, tree.commit());
            deployed.add(new Dep(dep, domain, null, false));
            App app = driver.newApp(dep, domain, tree.dir(), abraDir);
            console.addSecrets(app.secretValues().values());
            deployed.set(deployed.size() - 1, new Dep(dep, domain, app, false));
            // Set up like any app: its EXTRA_ENV, and its own CI files only if it is approved.
            new RecipeSetup(settings.approvedRecipes().contains(dep), java.util.Optional.empty(), children)
                    .beforeInstall(app, depKeys.of(dep));
            driver.deploy(app);
            SwarmConvergence.Report report = new SwarmConvergence(docker).await(app.stack(), timeout);
            if (!report.converged()) {
                throw new IllegalStateException("dependency " + dep + " (" + domain + ") did not converge: "
                        + report.describe() + " — the app under test cannot be tested without it.");
            }
            Map<String, String> mounted = MountedSecrets.read(docker.client(), app.stack());
            console.addSecrets(mounted.values());
            deployed.set(deployed.size() - 1, new Dep(dep, domain, app.withSecrets(mounted), false));
        }
    }

    /** Every secret value of the cold dependencies, for masking and the leak scan. */
    List<String> secretValues() {
        return deployed.stream().filter(d -> d.app() != null).flatMap(d -> d.app().secretValues().values().stream()).toList();
    }

    public List<Dep> deployed() {
        return List.copyOf(deployed);
    }

    /** How many dependencies this run deployed cold: each is one deploy in the deploy count. */
    public int coldCount() {
        return (int) deployed.stream().filter(d -> !d.warm()).count();
    }

    /** Recipe to domain, in the order deployed. */
    Map<String, String> domains() {
        Map<String, String> domains = new LinkedHashMap<>();
        deployed.forEach(d -> domains.put(d.recipe(), d.domain()));
        return domains;
    }

    /** Removes every cold dependency created, last first (warm apps are never touched); returns what is left of them. */
    List<String> remove() {
        List<String> left = new ArrayList<>();
        for (int i = deployed.size() - 1; i >= 0; i--) {
            Dep dep = deployed.get(i);
            if (dep.warm()) {
                continue;
            }
            try {
                left.addAll(driver.remove(dep.domain()));
            } catch (Exception e) {
                left.add("dependency " + dep.domain() + " (" + e + ")");
            }
        }
        return left;
    }
}
