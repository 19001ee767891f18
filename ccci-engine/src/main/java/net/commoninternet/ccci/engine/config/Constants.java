package net.commoninternet.ccci.engine.config;

import org.apiguardian.api.API;

/**
 * Every configuration key of ccci, documented once. Keys are read through JUnit's
 * {@code ConfigurationParameters}, so {@code -Dkey=value} on the Maven command line,
 * {@code junit-platform.properties} and Surefire's {@code configurationParameters} all work.
 * Where the production host already uses an environment variable, it keeps its name and is
 * read when the key is unset.
 */
@API(status = API.Status.EXPERIMENTAL)
public final class Constants {

    /**
     * The recipe to run: a name, several names separated by commas ({@code a,b,c}), or {@code all}
     * for every recipe in {@link #RECIPES}. Several recipes are sibling runs of one test plan, run
     * in parallel ({@link #PARALLEL_ENABLED}); each gets the run id {@code <run id>-<recipe>}.
     * {@code -Drecipe=...} is accepted as a short form.
     */
    public static final String RECIPE = "ccci.recipe";

    /** The value of {@link #RECIPE} that selects every recipe in {@link #RECIPES}. */
    public static final String ALL_RECIPES = "all";

    /** Short form of {@link #RECIPE}, what users type on the Maven command line. */
    public static final String RECIPE_SHORT = "recipe";

    /**
     * Pull request number under test; default the CI's ({@code DRONE_PULL_REQUEST}, else Woodpecker's
     * {@code CI_COMMIT_PULL_REQUEST}), else 0 (no PR).
     */
    public static final String PR = "ccci.pr";

    /**
     * Git ref under test: a branch, a tag or a commit id; default the commit the CI built when the CI's
     * repository is the recipe's own ({@code DRONE_COMMIT} where {@code DRONE_REPO_NAME} is the recipe,
     * {@code CI_COMMIT_SHA} where {@code CI_REPO_NAME} is), else the recipe's checked-out HEAD.
     * A value git could read as an option or a path ({@code --pathspec-from-file=...},
     * {@code HEAD:compose.yml}, {@code ../x}) or one with control characters or spaces is refused
     * at discovery.
     */
    public static final String REF = "ccci.ref";

    /**
     * Run id; default {@code DRONE_BUILD_NUMBER}, else Woodpecker's {@code CI_PIPELINE_NUMBER}, else
     * {@code manual-<pid>}. A command of several
     * recipes is this run id; each of its runs is {@code <run id>-<recipe>}.
     */
    public static final String RUN_ID = "ccci.run-id";

    /**
     * Comma-separated tiers to run ({@code install,upgrade,backup,restore,custom,lint});
     * default all. The environment variable {@code STAGES} is read when the key is unset.
     */
    public static final String STAGES = "ccci.stages";

    /** Directory holding recipe sources, one folder per recipe; default the bundled recipes. */
    public static final String RECIPES = "ccci.recipes";

    /**
     * App driver: the id of one of the drivers on the class path ({@code net.commoninternet.ccci.spi.Driver},
     * found through ServiceLoader); ccci-extensions has {@code swarm} (embedded, the default) and
     * {@code abra}.
     */
    public static final String DRIVER = "ccci.driver";

    /**
     * Hard deadline of the whole command in seconds, every run it starts included: from 1 to
     * 86400; default 3600. At the deadline every run still running is stopped and torn down, no
     * later run starts, and the process exits 142.
     */
    public static final String DEADLINE = "ccci.deadline";

    /** App-domain lockfile directory; environment {@code CCCI_APP_LOCK_DIR}; default /run/lock. */
    public static final String APP_LOCK_DIR = "ccci.app-lock-dir";

    /**
     * The run apps' domain suffix, a run-app namespace; environment {@code CCCI_DOMAIN_SUFFIX};
     * default {@value #DEFAULT_DOMAIN_SUFFIX}. A janitor takes only its own namespace's apps for run
     * apps, so two sets of runs that judge liveness by two lock folders on one engine (the
     * concurrency suite's forks) each need a namespace of their own; every run of one namespace on a
     * host uses one lock folder. Lower-case DNS labels joined by dots, at most 40 characters.
     */
    public static final String DOMAIN_SUFFIX = "ccci.domain-suffix";

    /** The run apps' domain suffix unless {@link #DOMAIN_SUFFIX} says otherwise. */
    public static final String DEFAULT_DOMAIN_SUFFIX = "ci.commoninternet.net";

    /** Per-run folders; environment {@code CCCI_RUNS_DIR}; default /var/lib/cc-ci-runs. */
    public static final String RUNS_DIR = "ccci.runs-dir";

    /** Canonical abra directory; environment {@code ABRA_DIR}; default ~/.abra. */
    public static final String ABRA_DIR = "ccci.abra-dir";

    /**
     * {@code true}: copy the recipe clone staged at {@code <abra dir>/recipes/<recipe>} into the
     * run's own tree instead of fetching it (test staging); environment {@code CCCI_SKIP_FETCH=1}.
     */
    public static final String SKIP_FETCH = "ccci.skip-fetch";

    /**
     * Recipes whose own repository's CI code ({@code install_steps.sh}, {@code compose.ccci.yml}) may
     * run, as reviewed: comma-separated {@code <recipe>@sha256:<digest>}, the digest of those files
     * ({@code sha256sum compose.ccci.yml install_steps.sh 2>/dev/null | sha256sum} in the recipe; a run
     * logs it); environment {@code CCCI_APPROVED_RECIPES}; default none. Such code comes with the pull
     * request under test: it runs only while its digest is one listed, and a run whose files differ
     * from every listed digest is refused in one sentence. A name alone is refused.
     */
    public static final String APPROVED_RECIPES = "ccci.approved-recipes";

    /**
     * What a recipe's compose may reach of the host beyond the run's own swarm objects, set by the
     * host's operator (never by anything in the recipe repository): comma-separated
     * {@code <recipe>:<key>=<value>} (or {@code <recipe>:<key>}, every value of the key), where the
     * key is one the deploy policy refuses ({@code volumes}, {@code cap_add}, {@code networks},
     * {@code ports}, ... : {@link net.commoninternet.ccci.lifecycle.DeployAllowance#KEYS}); its refusal
     * names the entry to add, e.g. {@code traefik:volumes=/var/run/docker.sock}. A value may name the
     * run's own stack and domain as {@code ${STACK_NAME}} and {@code ${DOMAIN}} (quote the entry for the
     * shell), so one entry serves every run of a recipe. Default none. A run with an allowance says so
     * as a warning, every time.
     */
    public static final String DEPLOY_ALLOWANCE = "ccci.deploy-allowance";

    /**
     * The boundaries around recipe containers this host's operator accepts to run without,
     * comma-separated: {@code runtime} (the engine's default runtime is not gVisor's runsc, so a
     * recipe's container shares the host's kernel) and {@code egress} (the egress rules of
     * {@code scripts/egress-rules} are not in place, or cannot be checked on a remote engine). Set on
     * the host only (never from the environment); default none: a run on an engine without a
     * boundary says so in one line and refuses. Every run with one accepted warns that it runs without it.
     */
    public static final String HOST_UNCONFINED = "ccci.host.unconfined";

    /**
     * The host file form of {@link #DEPLOY_ALLOWANCE}: one {@code <recipe>:<key>[=<value>]} per
     * line, {@code #} comments. Read only if it is a regular file owned by root and writable by
     * root alone, in a folder of root's; otherwise the run is refused in one sentence (never read).
     * The path is set here only, never by the environment or the recipe. Default
     * {@value #DEFAULT_DEPLOY_ALLOWANCE_FILE}; absent, it allows nothing. Its entries join
     * {@code -Dccci.deploy-allowance}'s, with the same warning on every run and every use.
     */
    public static final String DEPLOY_ALLOWANCE_FILE = "ccci.deploy-allowance-file";

    /**
     * A file that gets the run's whole (secret-filtered) console as well, from the guards to the
     * RUN SUMMARY; it still gets a cancelled run's teardown after Maven is gone. Default none.
     */
    public static final String LOG_FILE = "ccci.log-file";

    /**
     * The image of the short-lived containers that probe an app from the {@code proxy} network
     * (HTTP and TCP, as the proxy reaches it); default {@code ccci.local/busybox:1}, which
     * scripts/setup-local-swarm builds.
     */
    public static final String PROBE_IMAGE = "ccci.probe-image";

    /**
     * Seconds a recipe's backupbot hook ({@code backupbot.backup.pre-hook}, {@code post-hook} and
     * the restore's, run with {@code sh -c} in its app container) may run; from 1 to 3600, default
     * {@value #DEFAULT_HOOK_TIMEOUT_SECONDS}. Set on the host, never by the recipe: a hook that has
     * not ended by then fails its operation in one line, and the run goes on to its teardown (the
     * engine cannot stop an exec; it ends with the container).
     */
    public static final String HOOK_TIMEOUT = "ccci.hook-timeout";

    /**
     * How many times a failed check is tried against the same live app before its failure stands; from
     * 1 (never again) to 10, default {@value #DEFAULT_CHECK_ATTEMPTS}. A check is a look at the app's
     * state: trying it again costs its own time and a pause ({@link #CHECK_BACKOFF}), never a redeploy
     * (a tier's operation, the deploy, the upgrade, the backup, is never repeated). A check that fails
     * and then passes is {@code flaky} ({@link #ALLOW_FLAKY}); one that fails every time is
     * {@code deterministic}; every attempt's reason is kept in results.json and Surefire's XML
     * ({@code flakyFailure}, {@code rerunFailure}). Set on the host, never by the recipe.
     */
    public static final String CHECK_ATTEMPTS = "ccci.check-attempts";

    /** The default of {@link #CHECK_ATTEMPTS}. */
    public static final int DEFAULT_CHECK_ATTEMPTS = 3;

    /**
     * Seconds before a failed check's second attempt, doubled before each later one (1, then 2 by
     * default); from 0 to 60, default {@value #DEFAULT_CHECK_BACKOFF_SECONDS}.
     */
    public static final String CHECK_BACKOFF = "ccci.check-backoff";

    /** The default of {@link #CHECK_BACKOFF}. */
    public static final int DEFAULT_CHECK_BACKOFF_SECONDS = 1;

    /**
     * {@code true} lets a flaky check (failed, then passed on a later attempt) pass its tier; default
     * {@code false}: the tier fails, naming the check and its attempts, so a flake is never green
     * unless the host's operator accepts flakes. Set on the host, never by the recipe.
     */
    public static final String ALLOW_FLAKY = "ccci.allow-flaky";

    /**
     * The releases the UPGRADE tier upgrades from: {@code previous} (the default: the release the upgrade
     * plan picks, or the recipe's {@code UPGRADE_BASE_VERSION}), {@code last:N} (the N newest releases
     * older than the head, stable ones before pre-releases, N from 1 to 20), {@code all}, or a
     * comma-separated list of release tags. The previous release is always the first base (the one
     * INSTALL and the other tiers run on); each other base is an upgrade run of its own (its own app
     * domain, one deploy of the base and the upgrade), side by side with the run within
     * {@link #PARALLEL_PARALLELISM}. A base that cannot be deployed here (no such release tag, its images
     * gone, refused by the policy) is a skip with its reason; the upgrade rung holds only if every other
     * base passed; what an operator upgrading from each base must do by hand is reported as findings
     * (docs/tiers.md, "Upgrades from several releases").
     */
    public static final String UPGRADE_FROM = "ccci.upgrade-from";

    /**
     * One run's share of the host's memory, in bytes or with a binary unit ({@code 8g}, {@code 512m});
     * default {@code 8g}, at least {@code 64m}. Judged on the resolved compose before the deploy: the
     * sum over the run's services of replicas (a global service: once per node of the swarm) times its
     * memory limit plus its tmpfs sizes (an unsized tmpfs at ccci's default size) must fit; a service
     * without a memory limit is given ccci's default (1 GiB), or an equal share of what the others leave
     * if that is less. A recipe over it is refused in one sentence naming every service's part. Set on
     * the host only (configuration parameters, never the environment or the recipe), like every
     * {@code ccci.budget.} key.
     */
    public static final String BUDGET_MEMORY = "ccci.budget.memory";

    /**
     * One run's share of processes: the sum of its services' pids limits, replicas counted; default
     * 4096, from 64 to 4194304. A service without one is given ccci's default (1024), or an equal share
     * of what the others leave if that is less.
     */
    public static final String BUDGET_PIDS = "ccci.budget.pids";

    /**
     * One run's share of reserved CPUs: the sum of its services' {@code reservations.cpus}, replicas
     * counted; default 2, from 0 to 1024. A reservation is CPU swarm sets aside: another run's task
     * cannot be scheduled on it.
     */
    public static final String BUDGET_CPUS = "ccci.budget.cpus";

    /** One run's share of containers at once: replicas summed over its services; default 16, from 1 to 1000. */
    public static final String BUDGET_TASKS = "ccci.budget.tasks";

    /**
     * One run's share of the host's disk, in bytes or with a binary unit; default {@code 4g}, at least
     * {@code 64m}: what the run's volumes, its containers' writable layers and their log files hold,
     * measured while the run goes on. A run that crosses it has its containers paused and is stopped,
     * torn down and failed in one sentence naming what held the bytes.
     */
    public static final String BUDGET_DISK = "ccci.budget.disk";

    /**
     * The size at which a container's log file is rotated, set on every service of the run
     * ({@code json-file} or {@code local} {@code max-size}); default {@code 10m}, from {@code 64k} to
     * {@code 1g}. A recipe may set a smaller one; a larger one is lowered to this.
     */
    public static final String BUDGET_LOG_MAX_SIZE = "ccci.budget.log-max-size";

    /**
     * How many log files a container keeps ({@code max-file}), set on every service of the run; default
     * 3, from 1 to 100. A recipe may set fewer; more are lowered to this.
     */
    public static final String BUDGET_LOG_MAX_FILE = "ccci.budget.log-max-file";

    /**
     * Seconds one run may take, from its start to its teardown, whatever its recipe asks for; from 1
     * to 86400, default {@value #DEFAULT_RUN_BUDGET_SECONDS}. Set on the host, never by the recipe, and
     * well under {@link #DEADLINE} (the command's): a run still going then is stopped as a SIGTERM would
     * stop it, but alone (its work interrupted, its children killed, its teardown in {@code finally},
     * its app lock and slot freed) and fails in one sentence naming this key, while the command's other
     * runs go on. The teardown after it is not bounded by it.
     */
    public static final String RUN_BUDGET = "ccci.run-budget";

    /**
     * How long a failed run's app stays deployed after the command ends, for a maintainer to look at:
     * seconds, or {@code <N>m} / {@code <N>h} ({@code 30m}). Off unless given; set on the host, never by
     * the recipe. Only a failed run keeps its app (a stopped one, by SIGTERM, the deadline or its budget,
     * is torn down as always), handed with its app lock to a keeper process that tears it down at the
     * end of this time, on a new run of the same domain, or on its end command (docs/lifetime.md, "A failed run's app kept for a while").
     * Longer than {@link #KEEP_ON_FAILURE_MAX}: clamped to it, and the run says so in one line.
     */
    public static final String KEEP_ON_FAILURE = "ccci.keep-on-failure";

    /**
     * The longest keep {@link #KEEP_ON_FAILURE} may ask for on this host, in the same form; default
     * {@code 1h}, from 1 s to a day.
     */
    public static final String KEEP_ON_FAILURE_MAX = "ccci.keep-on-failure.max";

    /**
     * The longest deploy wait a recipe may set, in seconds: its {@code coop-cloud.${STACK_NAME}.timeout}
     * label (and a customization's {@code DEPLOY_TIMEOUT}) may shorten the wait for convergence, never
     * lengthen it past this; from 1 to 86400, default {@value #DEFAULT_MAX_DEPLOY_TIMEOUT_SECONDS}. A
     * longer value is clamped, and the run says so in one line.
     */
    public static final String MAX_DEPLOY_TIMEOUT = "ccci.max-deploy-timeout";

    /**
     * The most bytes a fetch of a recipe may write into the run's folder, measured before it writes
     * them: the recipe's repository ({@code .git}) and the tree at each ref the run checks out, each at
     * most this many bytes (a tree's size is read from git's object headers, so a few MiB of packed
     * zeros that would inflate to gigabytes are refused before the checkout). From 1024 to 2^40,
     * default {@value #DEFAULT_FETCH_MAX_BYTES} (100 MiB). A recipe past it is refused in one sentence
     * and nothing of it is left in the runs folder.
     */
    public static final String FETCH_MAX_BYTES = "ccci.fetch.max-bytes";

    /**
     * The most files a tree of a recipe may hold at any ref the run checks out, counted before the
     * checkout; from 1 to 10000000, default {@value #DEFAULT_FETCH_MAX_FILES}. As {@link #FETCH_MAX_BYTES}.
     */
    public static final String FETCH_MAX_FILES = "ccci.fetch.max-files";

    /**
     * Seconds an app-domain lease (held in the swarm's raft store beside the host's flock, so that
     * several runner hosts of one swarm never run one domain at once) must stay unrenewed before
     * another host's run or janitor takes it over; from 3 to 3600, default {@value #DEFAULT_LEASE_TTL_SECONDS}.
     * Above a manager leader election (10-20 s, during which every renewal stalls) plus a heartbeat,
     * so a live, reachable holder's lease never expires. A holder that could not renew for two thirds
     * of it stops its own run. Only a dead or cut-off host's apps wait this long for a reap; on one
     * host a dead run's free flock lets its lease be taken at once. Every runner host of a swarm must
     * use the same value.
     */
    public static final String LEASE_TTL = "ccci.lease.ttl";

    /**
     * Seconds between two renewals of a held app-domain lease; from 1 to a quarter of
     * {@link #LEASE_TTL}, default {@value #DEFAULT_LEASE_HEARTBEAT_SECONDS}.
     */
    public static final String LEASE_HEARTBEAT = "ccci.lease.heartbeat";

    /**
     * {@code true} (the default): the runs of a command of several recipes run in parallel, through
     * the JUnit Platform's own parallel executor; {@code false}: one after another. A single recipe
     * always runs on the thread that runs the engine.
     */
    public static final String PARALLEL_ENABLED = "ccci.parallel.enabled";

    /**
     * How many runs of a command go on at once, at most; default {@value #DEFAULT_PARALLELISM}. A
     * bound ccci holds itself ({@code RunSlots}): a run beyond it waits for a slot and says so once.
     */
    public static final String PARALLEL_PARALLELISM = "ccci.parallel.parallelism";

    /**
     * Prefix of JUnit's own parallel execution keys, as Jupiter reads them under
     * {@code junit.jupiter.execution.parallel.config.}: e.g. {@code ccci.parallel.config.executor-service}
     * ({@code fork_join_pool}, JUnit 6.1's default, or {@code worker_thread_pool}) or
     * {@code ccci.parallel.config.strategy}. Without them ccci uses the {@code fixed} strategy with a
     * thread for each run of the command (no more: max pool size and saturation); they shape the
     * pool, never the bound ({@link #PARALLEL_PARALLELISM}).
     */
    public static final String PARALLEL_CONFIG_PREFIX = "ccci.parallel.config.";

    /**
     * Prefix of the keys of ccci's own build, never of a run: the concurrency suite's forks
     * ({@code ccci.test.forks}, and {@code ccci.test.fork}, {@code ccci.test.build} in each fork). The
     * engine reads none of them, and, being ccci's, refuses none (any other unknown {@code ccci.*} key is
     * refused: {@code ConfigurationKeys}).
     */
    public static final String PROJECT_BUILD_PREFIX = "ccci.test.";

    /** ccci's own build's switch that skips the project's tests ({@code scripts/bench pit}); never read by the engine. */
    public static final String SKIP_PROJECT_TESTS = "ccci.skipProjectTests";

    /**
     * Default of {@link #PARALLEL_PARALLELISM}, from the measured fan-out curve (docs/benchmarks.md,
     * {@code scripts/bench fanout}): on 2 cores, 4 at once kept a command of up to 32 runs within
     * 1.17x of ceil(N/4) runs alone (runs mostly wait on the engine); 8 at once did not (1.46x).
     */
    public static final int DEFAULT_PARALLELISM = 4;

    static final String DEFAULT_PROBE_IMAGE = "ccci.local/busybox:1";
    static final String DEFAULT_DEPLOY_ALLOWANCE_FILE = "/etc/ccci/deploy-allowance";
    static final long DEFAULT_DEADLINE_SECONDS = 3600;
    static final long DEFAULT_HOOK_TIMEOUT_SECONDS = 600;
    static final long MAX_HOOK_TIMEOUT_SECONDS = 3600;
    static final long DEFAULT_RUN_BUDGET_SECONDS = 1200;
    static final long DEFAULT_MAX_DEPLOY_TIMEOUT_SECONDS = 900;
    static final long DEFAULT_KEEP_ON_FAILURE_MAX_SECONDS = 3600;
    static final long DEFAULT_FETCH_MAX_BYTES = 100L << 20;
    static final long MIN_FETCH_MAX_BYTES = 1024;
    static final long MAX_FETCH_MAX_BYTES = 1L << 40;
    static final long DEFAULT_FETCH_MAX_FILES = 10_000;
    static final long MAX_FETCH_MAX_FILES = 10_000_000;
    static final long DEFAULT_LEASE_TTL_SECONDS = 90;
    static final long DEFAULT_LEASE_HEARTBEAT_SECONDS = 10;
    static final long MIN_LEASE_TTL_SECONDS = 3;
    static final long MAX_LEASE_TTL_SECONDS = 3600;
    /** A day: a deadline is a bound, and a huge one (or one whose nanoseconds overflow) would disable it. */
    static final long MAX_DEADLINE_SECONDS = 86_400;

    private Constants() {
    }
}
