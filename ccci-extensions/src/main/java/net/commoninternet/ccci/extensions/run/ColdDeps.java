package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.deployment.Dependencies;
import net.commoninternet.ccci.extensions.deployment.Dependencies.Dependency;
import net.commoninternet.ccci.extensions.deployment.RunTools;
import net.commoninternet.ccci.extensions.lock.AppDomainLease;
import net.commoninternet.ccci.extensions.lock.DomainClaim;
import net.commoninternet.ccci.extensions.secrets.RedactedConsole;
import net.commoninternet.ccci.extensions.probe.MountedSecrets;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;
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
 * <p>Cold dependencies are deployed on the run's own network ({@code RunNetwork}), which the app
 * joins too. A dependency whose own customization sets {@code WARM_CANONICAL} is served by its
 * long-lived warm app when that app is live and converged: no lock, no deploy, never torn down
 * (warm apps are not the run's; the janitor never matches them either); it lives on the shared
 * {@code proxy}, so the app's services that join the proxy join the shared one as well (said in
 * the run's log). When the warm app is
 * missing or not converged, the run says so in the dependency-skip state file and deploys the
 * dependency cold instead.
 *
 * <p>Locks are taken main app first, then dependencies in the order listed; dependency domains
 * include the main recipe, so two runs can only meet on a dependency lock after meeting on the
 * main app's lock: no lock-order cycle.
 */
@API(status = API.Status.INTERNAL)
public final class ColdDeps {

    private static final Logger LOG = LoggerFactory.getLogger(ColdDeps.class);

    private final List<Dependency> deployed = new ArrayList<>();
    private final List<DomainClaim> locks = new ArrayList<>();
    private final LifecycleContext run;
    private final RunWorkspace workspace;
    private final RunTools tools;
    private final RedactedConsole console;
    private final AppDomainLease leases;

    /** The run's own means: what it was told, its workspace, its tools, its console and its app leases. */
    ColdDeps(LifecycleContext run, RunWorkspace workspace, RunTools tools, RedactedConsole console, AppDomainLease leases) {
        this.run = run;
        this.leases = leases;
        this.workspace = workspace;
        this.tools = tools;
        this.console = console;
    }

    static String domain(String dep, int pr, String recipe, String ref, String suffix) {
        return AppNaming.domain(dep, pr, recipe + "@" + ref, suffix);
    }

    /**
     * Fetches, locks, creates, deploys and awaits each dependency of the recipe in turn, for the
     * recipe at {@code ref}; whatever was created is removed by {@link #remove()} even when this
     * throws.
     */
    Dependencies deploy(String ref) throws Exception {
        for (String dep : run.keys().deps()) {
            if (!usedWarm(dep)) {
                deployCold(dep, ref);
            }
        }
        return new Dependencies(deployed);
    }

    /** A {@code WARM_CANONICAL} dependency whose warm app is live and converged is used as it is. */
    private boolean usedWarm(String dep) throws IOException {
        Optional<String> warm = run.dependencyKeys().of(dep).warmCanonical(dep, run.settings().paths().domainSuffix());
        if (warm.isEmpty()) {
            return false;
        }
        SwarmConvergence.Report live = new SwarmConvergence(tools.docker()).inspect(AppNaming.stackName(warm.get()));
        if (live.converged()) {
            LOG.info("== dependency {} of {}: the warm app {} (WARM_CANONICAL), live and converged ==", dep,
                    run.recipe(), warm.get());
            // the warm app lives on the shared proxy: the app's services on the proxy need a way there
            tools.driver().network().alsoShared(warm.get());
            deployed.add(new Dependency(dep, warm.get(), null, true));
            return true;
        }
        LOG.warn("dependency {}: its warm app {} is not usable ({}); deploying it cold", dep, warm.get(),
                String.join("; ", live.problems()));
        workspace.state().recordDependencySkip(dep + ": warm app " + warm.get() + " not usable, deployed cold");
        return false;
    }

    private void deployCold(String dep, String ref) throws Exception {
        RunSettings settings = run.settings();
        RecipeFetch.Fetched tree = workspace.fetch().fetch(settings.paths().recipesDir().resolve(dep),
                workspace.abraDir().recipe(dep), null);
        String domain = domain(dep, settings.subject().pr(), run.recipe(), ref, settings.paths().domainSuffix());
        locks.add(DomainClaims.take(leases, domain, tools, workspace));
        workspace.state().recordDependency(domain);
        LOG.info("== dependency {} of {}: app {} (cold, at {}) ==", dep, run.recipe(), domain, tree.commit());
        deployed.add(new Dependency(dep, domain, null, false));
        App app = tools.driver().newApp(dep, domain, tree.dir(), workspace.abraDir());
        console.addSecrets(app.secretValues().values());
        deployed.set(deployed.size() - 1, new Dependency(dep, domain, app, false));
        // Set up like any app: its EXTRA_ENV, and its own CI files only if it is approved.
        new RecipeSetup(settings.options().trust().approvedDigests(dep), Optional.empty(), workspace.children())
                .beforeInstall(app, run.dependencyKeys().of(dep));
        tools.driver().deploy(app);
        // as long as the dependent's DEPLOY_TIMEOUT says, else the dependency's own timeout label
        SwarmConvergence.Report report = new SwarmConvergence(tools.docker())
                .await(app.stack(), workspace.policy().deployTimeout(run.keys(), app));
        if (!report.converged()) {
            throw new IllegalStateException("dependency " + dep + " (" + domain + ") did not converge: "
                    + report.describe() + " — the app under test cannot be tested without it.");
        }
        Map<String, String> mounted = MountedSecrets.read(tools.docker().client(), app.stack(), app.secretValues().keySet());
        console.addSecrets(mounted.values());
        deployed.set(deployed.size() - 1, new Dependency(dep, domain, app.withSecrets(mounted), false));
    }

    /** Every secret value of the cold dependencies created so far, for masking and the leak scan. */
    List<String> secretValues() {
        return new Dependencies(deployed).secretValues();
    }

    /** The run is over, its dependencies removed (or left to the janitor): their locks go. */
    void releaseLocks() {
        locks.forEach(DomainClaim::release);
    }

    /** Removes every cold dependency created, last first (warm apps are never touched); returns what is left of them. */
    List<String> remove() {
        List<String> left = new ArrayList<>();
        for (int i = deployed.size() - 1; i >= 0; i--) {
            Dependency dep = deployed.get(i);
            if (dep.warm()) {
                continue;
            }
            try {
                left.addAll(tools.driver().remove(dep.domain()));
            } catch (Exception e) {
                left.add("dependency " + dep.domain() + " (" + e + ")");
            }
        }
        return left;
    }
}
