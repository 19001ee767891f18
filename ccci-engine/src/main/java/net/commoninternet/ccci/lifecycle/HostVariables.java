package net.commoninternet.ccci.lifecycle;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The environment variables the production host already uses, each spelled here once. The engine
 * reads them at discovery, each when its configuration key is unset (the engine's
 * {@code Constants} documents each key); {@link #ABRA_DIR} is also abra's own name for its folder,
 * which the lifecycle sets for every child of a run to the run's own.
 */
@API(status = API.Status.INTERNAL)
public final class HostVariables {

    /** abra's folder: the canonical one the engine reads ({@code ccci.abra-dir}); each run's children get the run's own. */
    public static final String ABRA_DIR = "ABRA_DIR";
    /** {@code ccci.app-lock-dir}. */
    public static final String APP_LOCK_DIR = "CCCI_APP_LOCK_DIR";
    /** {@code ccci.domain-suffix}. */
    public static final String DOMAIN_SUFFIX = "CCCI_DOMAIN_SUFFIX";
    /** {@code ccci.runs-dir}. */
    public static final String RUNS_DIR = "CCCI_RUNS_DIR";
    /** {@code ccci.skip-fetch}. */
    public static final String SKIP_FETCH = "CCCI_SKIP_FETCH";
    /** {@code ccci.approved-recipes}. */
    public static final String APPROVED_RECIPES = "CCCI_APPROVED_RECIPES";
    /** {@code ccci.stages}. */
    public static final String STAGES = "STAGES";
    /** The run id when {@code ccci.run-id} is unset (Drone's build number). */
    public static final String DRONE_BUILD_NUMBER = "DRONE_BUILD_NUMBER";

    /**
     * What a CI host tells a step, by the names that CI gives it: the build's number (the run id when
     * {@code ccci.run-id} is unset), the pull request's number ({@code ccci.pr}'s), the commit built and
     * the name of the repository it belongs to (the commit is the ref under test, {@code ccci.ref}'s,
     * only in the recipe's own repository: a pipeline of ccci's own repository builds ccci's commit).
     */
    public record Ci(String name, String runId, String pullRequest, String commit, String repository) {
    }

    /** Drone's (its exec runner). */
    public static final Ci DRONE = new Ci("Drone", DRONE_BUILD_NUMBER, "DRONE_PULL_REQUEST", "DRONE_COMMIT", "DRONE_REPO_NAME");

    /** Woodpecker's (Drone's community fork; its local backend). */
    public static final Ci WOODPECKER = new Ci("Woodpecker", "CI_PIPELINE_NUMBER", "CI_COMMIT_PULL_REQUEST", "CI_COMMIT_SHA",
            "CI_REPO_NAME");

    /** The CIs whose variables are read, in this order: the first that sets one gives it. */
    public static final List<Ci> CIS = List.of(DRONE, WOODPECKER);

    private HostVariables() {
    }
}
