package net.commoninternet.ccci.extensions.driver;

import net.commoninternet.ccci.spi.LintResult;
import java.io.IOException;
import java.nio.file.Path;
import net.commoninternet.ccci.extensions.recipe.RecipeTree;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.workspace.RunState;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every deploy of the run's app, whatever the driver, counted in the run's own state file
 * (deploy-once: a run deploys exactly {@code 1 + cold dependencies} times). Counted before the
 * driver runs: a deploy that fails half-way has still changed the stack. Before that, each deploy's
 * final compose passes the run's {@link DeployPolicy} (whatever the driver): a refused one never
 * reaches the engine, and is not counted.
 */
@API(status = API.Status.INTERNAL)
public record CountedDeploys(AppDriver driver, RunState state, DeployPolicy policy) implements AppDriver {

    private static final Logger LOG = LoggerFactory.getLogger(CountedDeploys.class);

    /**
     * The deploy-once rule, whatever tiers ran: null if the run deployed {@code expected} times,
     * else the hard failure's message, {@code deploy-count N!=M: ...}.
     */
    public static String violation(int deploys, int expected) {
        return deploys == expected ? null : "deploy-count " + deploys + "!=" + expected + ": a run deploys its app exactly"
                + " once (plus once per cold dependency); the upgrade is an in-place redeploy and backup and restore"
                + " never deploy.";
    }

    @Override
    public App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abra) throws IOException, InterruptedException {
        // either driver, before anything of the app exists
        RecipeTree.envSample(recipe, recipeDir);
        return driver.newApp(recipe, domain, recipeDir, abra);
    }

    @Override
    public void deploy(App app) throws IOException, InterruptedException {
        policy.check(app);
        LOG.info("deploy {} of this run's app {}", state.countDeploy(), app.domain());
        driver.deploy(app);
    }

    /** The in-place upgrade redeploys the same app: recorded in the op state, not in the deploy count. */
    @Override
    public void upgrade(App app) throws IOException, InterruptedException {
        policy.check(app);
        LOG.info("upgrade of this run's app {}: in-place redeploy of the new head", app.domain());
        state.recordOperation("upgrade");
        driver.upgrade(app);
    }

    @Override
    public void prepareBackup(App app) {
        driver.prepareBackup(app);
    }

    @Override
    public String backup(App app) throws IOException, InterruptedException {
        return driver.backup(app);
    }

    @Override
    public void restore(App app, String snapshotId) throws IOException, InterruptedException {
        driver.restore(app, snapshotId);
    }

    @Override
    public Map<String, LintResult> lint(App app, Optional<String> headRelease) throws IOException, InterruptedException {
        return driver.lint(app, headRelease);
    }

    @Override
    public List<String> remove(String domain) throws IOException, InterruptedException {
        return driver.remove(domain);
    }

    @Override
    public RunNetwork network() {
        return driver.network();
    }
}
