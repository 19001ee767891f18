package net.commoninternet.ccci.extensions.deployment;

import net.commoninternet.ccci.spi.LintResult;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.UpgradePlan;
import net.commoninternet.ccci.spi.Backups;
import net.commoninternet.ccci.spi.Convergence;
import net.commoninternet.ccci.spi.HostFault;
import net.commoninternet.ccci.spi.LiveRun;
import net.commoninternet.ccci.spi.Probes;
import net.commoninternet.ccci.spi.ServiceLogs;
import net.commoninternet.ccci.spi.Versions;
import org.apiguardian.api.API;

/**
 * The live run of a run that deploys nothing, because none of its tiers needs the app (LINT alone,
 * as {@code -Dgroups=lint} leaves it): the recipe under test, checked out at its head, and its lint
 * by the run's driver, and a pre-operation hook's context (its domain and keys, no live app). Its app
 * was never created, so every question about it is refused in one sentence; its deploy-once rule is
 * that nothing was deployed; it has no services to log.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeOnly implements LiveRun {

    private final Prepared prepared;
    private final AppDriver driver;
    /** The app the run would have made: its name, domain and tree, never created on the engine. */
    private final App uncreated;

    public RecipeOnly(Prepared prepared, AppDriver driver, String recipe) {
        this.prepared = prepared;
        this.driver = driver;
        String domain = prepared.checkout().domain();
        this.uncreated = new App(recipe, domain, prepared.checkout().tree().dir(),
                prepared.workspace().abraDir().envFile(domain), Map.of());
    }

    private IllegalStateException noApp(String what) {
        return new IllegalStateException("this run of " + uncreated.recipe() + " deployed no app, since none of its tiers ("
                + String.join(", ", prepared.tiers().stream().map(Tier::id).toList()) + ") needs one, so it has no "
                + what + ": a tier that uses the app must say so (TierPlugin.needsLiveApp).");
    }

    @Override
    public LiveApp app() {
        throw noApp("app to reach");
    }

    /** A hook of the recipe's tier sees its domain and keys; no live app, and no env to change (nothing deploys). */
    @Override
    public HookContext hookContext(Tier op) {
        return new RunHookContext(uncreated, prepared.keys(), op, Optional.empty(), Map.of());
    }

    @Override
    public Convergence convergence() {
        throw noApp("convergence");
    }

    @Override
    public Convergence inspect() {
        throw noApp("services to inspect");
    }

    @Override
    public Convergence awaitConverged() {
        throw noApp("services to wait for");
    }

    /** Read from the run's own deploy count, as a deploying run's: here it must be nought. */
    @Override
    public Optional<String> deployOnceViolation() throws IOException {
        int deploys = prepared.workspace().state().deployCount();
        return deploys == 0 ? Optional.empty() : Optional.of("deploy-count " + deploys + "!=0: none of this run's tiers"
                + " needs the app, so the run deploys nothing, yet something deployed it.");
    }

    @Override
    public Probes probes() {
        throw noApp("app to probe");
    }

    @Override
    public Backups backups() {
        throw noApp("data to back up");
    }

    @Override
    public Versions versions() {
        throw noApp("deployed version");
    }

    /** The head, as a deploying run lints it: the tree moved to the head commit, then the driver's lint. */
    @Override
    public Map<String, LintResult> lint() throws IOException, InterruptedException {
        UpgradePlan plan = prepared.checkout().upgrade();
        prepared.workspace().fetch().moveTo(uncreated.recipeDir(), plan.headCommit());
        return driver.lint(uncreated, plan.headRelease());
    }

    /** No app, no services: nothing logged. */
    @Override
    public ServiceLogs serviceLogs() {
        return new ServiceLogs() {
            @Override
            public List<Service> services() {
                return List.of();
            }

            @Override
            public String read(Service service, Instant after, Instant until) {
                return "";
            }
        };
    }

    /** As {@link HostFaults} judges it from the failure alone: this run has no app whose image could be missing. */
    @Override
    public Optional<HostFault> hostFault(Throwable failure) {
        return HostFaults.withoutEngine().of(failure);
    }
}
