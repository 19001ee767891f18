package net.commoninternet.ccci.extensions;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recipe's cold dependencies ({@code DEPS}): apps of other recipes that the app under test
 * needs, deployed by the run before it and removed after it. Each is a run app of its own
 * (domain {@code <dep[:4]>-<sha1(dep|pr|recipe@ref)[:6]>}, so the janitor reaps it if the run
 * dies), locked by this process before it exists, exactly like the main app; each deploy counts
 * in the run's deploy count (deploy-once: {@code 1 + cold deps}).
 *
 * <p>Locks are taken main app first, then dependencies in the order listed; dependency domains
 * include the main recipe, so two runs can only meet on a dependency lock after meeting on the
 * main app's lock: no lock-order cycle.
 */
final class ColdDeps {

    private static final Logger LOG = LoggerFactory.getLogger(ColdDeps.class);

    /** One deployed dependency. */
    record Dep(String recipe, String domain, App app) {
    }

    private final List<Dep> deployed = new ArrayList<>();

    static String domain(String dep, int pr, String recipe, String ref) {
        return AppNaming.domain(dep, pr, recipe + "@" + ref);
    }

    /**
     * Fetches, locks, creates, deploys and awaits each dependency in turn; whatever was created
     * is in {@link #deployed()} for the teardown even when this throws.
     */
    void deploy(List<String> deps, Path recipesDir, String recipe, int pr, String ref, RunAbraDir abraDir, Path lockDir,
            RecipeFetch fetch, AppDriver driver, DockerEngine docker, RedactedConsole console, RunState state,
            Duration timeout) throws IOException, InterruptedException {
        for (String dep : deps) {
            RecipeFetch.Fetched tree = fetch.fetch(recipesDir.resolve(dep), abraDir.recipe(dep), null);
            String domain = domain(dep, pr, recipe, ref);
            AppDomainLock.acquire(lockDir, domain);
            state.recordDependency(domain);
            LOG.info("== dependency {} of {}: app {} (cold, at {}) ==", dep, recipe, domain, tree.commit());
            Dep created = new Dep(dep, domain, null);
            deployed.add(created);
            App app = driver.newApp(dep, domain, tree.dir(), abraDir);
            console.addSecrets(app.secretValues().values());
            deployed.set(deployed.size() - 1, new Dep(dep, domain, app));
            driver.deploy(app);
            SwarmConvergence.Report report = new SwarmConvergence(docker).await(app.stack(), timeout);
            if (!report.converged()) {
                throw new IllegalStateException("dependency " + dep + " (" + domain + ") did not converge: "
                        + report.describe() + " — the app under test cannot be tested without it.");
            }
        }
    }

    List<Dep> deployed() {
        return List.copyOf(deployed);
    }

    /** Recipe to domain, in the order deployed. */
    Map<String, String> domains() {
        Map<String, String> domains = new LinkedHashMap<>();
        deployed.forEach(d -> domains.put(d.recipe(), d.domain()));
        return domains;
    }

    /** Removes every dependency created, last first; returns what is left of them. */
    List<String> remove(AppDriver driver) {
        List<String> left = new ArrayList<>();
        for (int i = deployed.size() - 1; i >= 0; i--) {
            Dep dep = deployed.get(i);
            try {
                left.addAll(driver.remove(dep.domain()));
            } catch (Exception e) {
                left.add("dependency " + dep.domain() + " (" + e + ")");
            }
        }
        return left;
    }
}
