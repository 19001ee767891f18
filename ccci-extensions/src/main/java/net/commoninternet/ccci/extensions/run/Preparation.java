package net.commoninternet.ccci.extensions.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.deployment.Prepared;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.lock.Janitor;
import net.commoninternet.ccci.extensions.lock.JanitorCandidates;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.recipe.Checkout;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.recipe.UpgradeBases;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.extensions.results.CustomizationManifest;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.waits.Waits;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.extensions.workspace.RunWorkspace;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.LifecycleContext;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's prepare phase, before anything of its app exists: the janitor's sweep of dead runs on
 * the run's thread and the fetch of the recipe on a thread of the run's own, at once; then what the
 * run tests, said once.
 */
final class Preparation {

    private static final Logger LOG = LoggerFactory.getLogger(Preparation.class);

    private final LifecycleContext run;
    private final RunSettings settings;
    private final RunWorkspace workspace;
    private final RunMeans means;

    Preparation(LifecycleContext run, RunWorkspace workspace, RunMeans means) {
        this.run = run;
        this.settings = run.settings();
        this.workspace = workspace;
        this.means = means;
    }

    /**
     * The janitor on the run's thread and the fetch beside it. Resources: the janitor's are the
     * engine's stacks, the lock folder and the canonical ABRA_DIR's servers; the fetch's are the
     * run's own folder (its ABRA_DIR's recipe tree, which only this run, holding its run id, writes)
     * and its git children. They share none, so no order between them can be observed, and neither
     * creates anything of the app: the app lock, the first thing of the app, comes after both. Every
     * way out waits for the fetch to end (its children are killed on a stop with the run's), so
     * nothing of it outlives the run's start; the janitor's failure comes first, then the fetch's;
     * what the fetch found is printed once both are over.
     */
    Prepared fetchBesideTheJanitor(DockerEngine docker) throws Exception {
        CompletableFuture<Prepared> fetched = means.threads().supply("ccci-fetch",
                () -> run.timeline().time("fetch", this::fetch));
        try {
            run.timeline().time("janitor", () -> sweep(docker));
        } catch (Exception | Error e) {
            Waits.awaitEnd(fetched);
            throw e;
        }
        Prepared prepared = Waits.interruptibly(fetched);
        announce(prepared);
        return prepared;
    }

    /**
     * Before anything of this run exists: reap the apps of dead runs, never a live one. A stop
     * during the sweep lets the reap under way finish and takes no further orphan (the next run's
     * janitor does); the run then ends without creating anything.
     */
    private Void sweep(DockerEngine docker) throws IOException, InterruptedException {
        StackTeardown teardown = new StackTeardown(docker.client());
        Path servers = settings.paths().abraDir().resolve("servers");
        Files.createDirectories(settings.paths().appLockDir());
        new Janitor(settings.paths().appLockDir(), settings.paths().domainSuffix(), settings.options().deadline().multipliedBy(2),
                Janitor.Reaper.leavingNothing(domain -> teardown.teardownApp(domain, servers)),
                DomainClaims.leases(docker, settings, why -> LOG.warn("janitor: {}", why)))
                .sweep(JanitorCandidates.discover(servers, docker, settings.paths().domainSuffix()),
                        means.guards()::stopRequested);
        if (means.guards().stopRequested()) {
            throw new InterruptedException("the run was stopped during the janitor's sweep, before it created anything");
        }
        return null;
    }

    /**
     * The recipe into the run's own tree at the ref under test, its domain, and its upgrade plan;
     * UPGRADE deploys the base release first and moves the same tree to the head in place.
     */
    private Prepared fetch() throws IOException, InterruptedException {
        RecipeFetch fetch = workspace.fetch();
        RecipeFetch.Fetched tree = settings.options().skipFetch()
                ? fetch.copyStaged(workspace.abraDir().stagedRecipe(run.recipe()), workspace.abraDir().recipe(run.recipe()),
                        settings.subject().ref())
                : fetch.fetch(run.recipeSource(), workspace.abraDir().recipe(run.recipe()), settings.subject().ref());
        String ref = settings.subject().ref() != null ? settings.subject().ref() : tree.commit();
        String domain = AppNaming.domain(run.recipe(), settings.subject().pr(), ref, settings.paths().domainSuffix());
        CiKeys keys = run.keys();
        RecipeSetup setup = new RecipeSetup(settings.approvedDigests(), run.customization(), workspace.children());
        UpgradePlan upgrade = UpgradePlan.resolve(fetch, tree, run.tiers().contains(Tier.UPGRADE), keys.upgradeBaseVersion(),
                settings.subject().upgradeFrom());
        if (upgrade.base().isPresent()) {
            fetch.moveTo(tree.dir(), upgrade.base().get().text());
        }
        return new Prepared(keys, run.tiers(), workspace, new Checkout(tree, ref, domain, upgrade), setup);
    }

    /** What the run tests, how it is customized, and its upgrade plan, as the fetch found them. */
    private void announce(Prepared prepared) {
        Checkout checkout = prepared.checkout();
        LOG.info("== ccci run {} (pid {}): recipe {} at {} (pr {}), app {}, ABRA_DIR {} ==", settings.runId(),
                ProcessHandle.current().pid(), run.recipe(), checkout.tree().commit(), settings.subject().pr(),
                checkout.domain(), prepared.workspace().abraDir().root());
        CiKeys keys = prepared.keys();
        LOG.info("== customization: {} ==", CustomizationManifest.of(keys, run.customization(), Map.of(),
                settings.recipeCodeApproved(), List.of()));
        keys.notActedOn().forEach(k -> LOG.warn("CI key {} is recorded but not acted on by this ccci", k));
        // an operator's escalation is said on every run that has one, used or not
        DeployAllowance allowance = settings.options().trust().deployAllowance();
        List<DeployAllowance.Entry> allowed = allowance.of(run.recipe());
        if (!allowed.isEmpty()) {
            LOG.warn("!! deploy allowance for {} (set on this host with {}): {}: its compose may"
                    + " reach the host that far beyond its own swarm objects !!", run.recipe(), allowance.source(),
                    allowed.stream().map(DeployAllowance.Entry::toString).collect(Collectors.joining(", ")));
        }
        checkout.upgrade().base().ifPresent(base -> LOG.info("== upgrade plan: deploy {} first, then upgrade in place to {} ==",
                base, checkout.tree().commit()));
        UpgradeBases bases = checkout.upgrade().bases();
        if (bases.from().matrix()) {
            LOG.info("== upgrade bases (ccci.upgrade-from={}): {} ==", bases.from(), String.join(", ", bases.bases()
                    .stream().map(b -> b.release() + b.skip().map(why -> " (skipped: " + why + ")").orElse("")).toList()));
        }
        for (UpgradeBases.Base base : bases.bases()) {
            base.actions().forEach(a -> LOG.info("operator action upgrading from {}: {}", base.release(), a.sentence()));
        }
    }
}
