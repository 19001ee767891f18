package net.commoninternet.ccci.extensions.driver;

import net.commoninternet.ccci.spi.LintResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.spi.Skipped;
import org.apiguardian.api.API;

/**
 * What a run does to its app, whoever does it: the embedded swarm driver
 * ({@code ccci.driver=swarm}, the default: docker CLI for compose, docker-java for the rest) or
 * the abra driver ({@code ccci.driver=abra}: the production host's abra CLI). Convergence,
 * identity and the final teardown do not depend on the driver: they read the swarm itself.
 */
@API(status = API.Status.INTERNAL)
public interface AppDriver {

    /** {@code abra app new} + {@code secret generate}: the env file in the canonical servers path, secrets created. */
    App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abra) throws IOException, InterruptedException;

    /**
     * One deploy of the app's checked-out tree (chaos), without waiting for convergence: the
     * install, and the in-place upgrade after the tree moved to the new head.
     */
    void deploy(App app) throws IOException, InterruptedException;

    /**
     * The upgrade: the app's tree has moved to the new head; redeploy it in place (what
     * {@code abra app deploy -C -c} does after the checkout). Not a deploy in the deploy-once
     * count: the app is not created again.
     */
    default void upgrade(App app) throws IOException, InterruptedException {
        deploy(app);
    }

    /**
     * A backup of the app will follow in this run: the driver may get ready for it in the
     * background (the swarm driver makes the run's restic repository). Optional and invisible
     * to the app; a backup works without it.
     */
    default void prepareBackup(App app) {
    }

    /** A backup of the app's backupbot paths; returns the snapshot id. */
    String backup(App app) throws IOException, InterruptedException;

    /** Restores the snapshot into the live app. */
    void restore(App app, String snapshotId) throws IOException, InterruptedException;

    /**
     * The recipe's lint on the app's tree as it is checked out: findings per rule of
     * {@link DriverProvider#lintRules()} (empty = satisfied); a rule the lint did not report is
     * absent. A lint that could not run throws a {@link Skipped}.
     *
     * @param headRelease the release tag at the head, if the head is one
     */
    Map<String, LintResult> lint(App app, Optional<String> headRelease) throws IOException, InterruptedException;

    /** {@code undeploy} + {@code rm}, idempotent, tolerant of half-removed apps; returns what is left. */
    List<String> remove(String domain) throws IOException, InterruptedException;

    /**
     * The network the run's app is reached on, which its probe and browser join: the run's own
     * ({@link RunNetwork#of}) where the driver deploys a compose ccci wrote; the shared {@code proxy}
     * where it deploys the recipe's files as they are (abra).
     */
    default RunNetwork network() {
        return RunNetwork.shared();
    }

    /**
     * A driver like this one whose apps join {@code network} in place of this one's: the upgrade from
     * another base ({@code ccci.upgrade-from}) is an app domain of its own, on a network of its own.
     * A driver that deploys the recipe's files as they are has no network to give: itself.
     */
    default AppDriver onNetwork(RunNetwork network) {
        return this;
    }
}
