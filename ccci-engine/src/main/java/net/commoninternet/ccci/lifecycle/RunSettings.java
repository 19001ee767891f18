package net.commoninternet.ccci.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.Tier;
import org.apiguardian.api.API;

/**
 * Everything a run is told from outside, read once at discovery (see the engine's
 * {@code Constants} for each key). Immutable and validated: a run never re-reads the
 * environment half-way. Internal: the engine reads it and ccci's own lifecycle acts on it; tiers
 * and extensions see a {@link net.commoninternet.ccci.spi.RunContext}, never the settings.
 *
 * @param subject what is tested: recipe, pull request, ref, run id
 * @param stages the tiers selected by {@code ccci.stages}
 * @param driver the id of who acts on the app ({@code ccci.driver}), one of the
 *        {@link net.commoninternet.ccci.spi.Driver}s found on the class path
 * @param paths where the run's inputs and its host state live
 * @param options how the run behaves: deadline, staging, the approved list, the probe image
 */
@API(status = API.Status.INTERNAL)
public record RunSettings(Subject subject, Set<Tier> stages, String driver, HostPaths paths, Options options) {

    /**
     * @param recipe the recipe name, already checked to be a plain name
     * @param pr the pull request number, 0 for none
     * @param ref the git ref under test, or null for the recipe's checked-out HEAD
     * @param runId the run id (Drone build number, or {@code manual-<pid>})
     * @param upgradeFrom the releases the run upgrades from ({@code ccci.upgrade-from})
     */
    public record Subject(String recipe, int pr, String ref, String runId, UpgradeFrom upgradeFrom) {
        public Subject {
            Objects.requireNonNull(recipe, "recipe");
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(upgradeFrom, "upgradeFrom");
        }

        /** Upgrading from the previous release alone. */
        public Subject(String recipe, int pr, String ref, String runId) {
            this(recipe, pr, ref, runId, UpgradeFrom.PREVIOUS);
        }
    }

    /**
     * @param recipesDir the directory that holds the recipe sources
     * @param apps the run-app namespace: its lock folder and its domain suffix
     * @param runsDir where per-run folders live
     * @param abraDir the canonical abra directory (servers, catalogue)
     * @param logFile a file that also gets the run's whole (masked) console, if any
     */
    public record HostPaths(Path recipesDir, Namespace apps, Path runsDir, Path abraDir, Optional<Path> logFile) {
        public HostPaths {
            Objects.requireNonNull(apps, "apps");
            Objects.requireNonNull(logFile, "logFile");
        }

        /** Where app-domain lockfiles live: the namespace's, shared by every run of it on the host. */
        public Path appLockDir() {
            return apps.appLockDir();
        }

        /** The run apps' domain suffix: the namespace whose run apps this run's janitor judges. */
        public String domainSuffix() {
            return apps.domainSuffix();
        }
    }

    /**
     * A run-app namespace: the run apps whose domains end in {@code domainSuffix} (validated at
     * discovery: lower-case DNS labels), whose runs hold their app locks in {@code appLockDir}. A
     * janitor judges liveness by its own lock folder and takes only its own namespace's apps for run
     * apps, so every run of one namespace on a host must use one lock folder, and two lock folders
     * on one engine need two namespaces.
     */
    public record Namespace(Path appLockDir, String domainSuffix) {
        public Namespace {
            Objects.requireNonNull(appLockDir, "appLockDir");
            Objects.requireNonNull(domainSuffix, "domainSuffix");
        }
    }

    /**
     * @param deadline the hard deadline of the whole run
     * @param skipFetch copy the clone staged in the canonical abra directory instead of fetching
     * @param trust what the host lets recipes do: run their own CI code, reach the host
     * @param probeImage the image of the containers that probe apps from the run's network
     * @param lease the app-domain lease's times, across the runner hosts of one swarm
     */
    public record Options(Duration deadline, boolean skipFetch, HostTrust trust, String probeImage, Lease lease) {

        public Options {
            Objects.requireNonNull(deadline, "deadline");
            Objects.requireNonNull(trust, "trust");
            Objects.requireNonNull(probeImage, "probeImage");
            Objects.requireNonNull(lease, "lease");
        }

        /** With the default lease times. */
        public Options(Duration deadline, boolean skipFetch, HostTrust trust, String probeImage) {
            this(deadline, skipFetch, trust, probeImage, Lease.DEFAULT);
        }

        /** No deploy allowance, the default lease times. */
        public Options(Duration deadline, boolean skipFetch, Set<String> approvedRecipes, String probeImage) {
            this(deadline, skipFetch, new HostTrust(approvedRecipes, DeployAllowance.NONE), probeImage);
        }

        /** Recipes whose own repository's CI code may run. */
        public Set<String> approvedRecipes() {
            return trust.approvedRecipes();
        }
    }

    /**
     * How long a failed run's app is kept after the command ({@code ccci.keep-on-failure}), bounded by
     * the host's most ({@code ccci.keep-on-failure.max}).
     *
     * @param asked what the host asked for; zero is off
     * @param max the host's most: a longer {@code asked} is clamped to it
     */
    public record Keep(Duration asked, Duration max) {
        public static final Keep OFF = new Keep(Duration.ZERO, Duration.ofHours(1));

        public Keep {
            Objects.requireNonNull(asked, "asked");
            Objects.requireNonNull(max, "max");
        }

        public boolean on() {
            return !asked.isZero() && !asked.isNegative();
        }

        /** How long the app is kept: what was asked, at most the host's most. */
        public Duration duration() {
            return asked.compareTo(max) > 0 ? max : asked;
        }

        public boolean clamped() {
            return asked.compareTo(max) > 0;
        }
    }

    /**
     * The app-domain lease's times ({@code ccci.lease.ttl}, {@code ccci.lease.heartbeat}).
     *
     * @param ttl how long a lease must stay unrenewed before another host's run or janitor takes it over
     * @param heartbeat how often the holder renews it (at most a quarter of the TTL)
     */
    public record Lease(Duration ttl, Duration heartbeat) {
        public static final Lease DEFAULT = new Lease(Duration.ofSeconds(90), Duration.ofSeconds(10));

        public Lease {
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(heartbeat, "heartbeat");
        }
    }

    /**
     * What the host trusts recipes with; set on the host, never by a recipe repository.
     *
     * @param approvedRecipes {@code <recipe>@sha256:<digest>}: the recipe's own repository's CI code
     *        ({@code install_steps.sh}, {@code compose.ccci.yml}) may run when its digest is one listed
     *        ({@link #approvedDigests}); for any other recipe such files are ignored
     * @param deployAllowance what each recipe's compose may reach of the host beyond its own swarm
     *        objects ({@code ccci.deploy-allowance}); by default nothing
     * @param hookTimeout how long a recipe's backupbot hook may run in its container ({@code ccci.hook-timeout})
     * @param unconfined the boundaries around recipe containers this host's operator accepts to run without
     *        ({@code ccci.host.unconfined}); by default none: a run on an engine without one refuses
     * @param budget one run's share of the host ({@code ccci.budget.*}): what its services may take in sum,
     *        its disk and its logs; and its clock and what a fetch of its recipe may write ({@link Bounds})
     */
    public record HostTrust(Set<String> approvedRecipes, DeployAllowance deployAllowance, Duration hookTimeout,
            Set<Boundary> unconfined, RunBudget budget) {
        /** The default bound of a recipe's hook. */
        public static final Duration DEFAULT_HOOK_TIMEOUT = Duration.ofMinutes(10);

        /** A boundary the host keeps around every recipe container (docs/security.md). */
        public enum Boundary {
            /** gVisor (runsc) as the engine's default runtime: a container's system calls never reach the host's kernel. */
            RUNTIME,
            /** The egress rules: no container reaches the host, its LAN, link-local or private ranges. */
            EGRESS;

            /** As the operator writes it in {@code ccci.host.unconfined}. */
            public String key() {
                return name().toLowerCase(Locale.ROOT);
            }
        }

        public HostTrust {
            approvedRecipes = Set.copyOf(approvedRecipes);
            Objects.requireNonNull(deployAllowance, "deployAllowance");
            Objects.requireNonNull(hookTimeout, "hookTimeout");
            unconfined = Set.copyOf(unconfined);
            Objects.requireNonNull(budget, "budget");
        }

        /** With the default run budget. */
        public HostTrust(Set<String> approvedRecipes, DeployAllowance deployAllowance, Duration hookTimeout,
                Set<Boundary> unconfined) {
            this(approvedRecipes, deployAllowance, hookTimeout, unconfined, RunBudget.DEFAULT);
        }

        /**
         * The digests ({@code sha256:<hex>}) of {@code recipe}'s own CI code that the host approved, as
         * reviewed: empty if none, and then that code never runs.
         */
        public Set<String> approvedDigests(String recipe) {
            return approvedRecipes.stream().filter(e -> e.startsWith(recipe + "@")).map(e -> e.substring(recipe.length() + 1))
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());
        }

        /** The run's clock and what a fetch of its recipe may write: part of its budget. */
        public Bounds bounds() {
            return budget.bounds();
        }

        /** With every boundary required. */
        public HostTrust(Set<String> approvedRecipes, DeployAllowance deployAllowance, Duration hookTimeout) {
            this(approvedRecipes, deployAllowance, hookTimeout, Set.of());
        }

        /** With the default hook bound. */
        public HostTrust(Set<String> approvedRecipes, DeployAllowance deployAllowance) {
            this(approvedRecipes, deployAllowance, DEFAULT_HOOK_TIMEOUT);
        }
    }

    /**
     * The host's bounds on one run, whatever its recipe says (a recipe may ask for less, never more).
     *
     * @param runBudget how long the run may take before it is stopped alone and torn down ({@code ccci.run-budget})
     * @param maxDeployTimeout the longest wait for convergence a recipe's timeout label may set
     *        ({@code ccci.max-deploy-timeout}); a longer one is clamped to it
     * @param fetchMaxBytes the most bytes of the recipe's repository, and of its tree at any ref the run checks
     *        out, a fetch may write ({@code ccci.fetch.max-bytes})
     * @param fetchMaxFiles the most files of its tree at any ref the run checks out ({@code ccci.fetch.max-files})
     * @param keep how long a failed run's app outlives the command ({@code ccci.keep-on-failure}, within its host maximum)
     */
    public record Bounds(Duration runBudget, Duration maxDeployTimeout, long fetchMaxBytes, long fetchMaxFiles, Keep keep) {
        /** The defaults of the keys. */
        public static final Bounds DEFAULT = new Bounds(Duration.ofMinutes(20), Duration.ofMinutes(15), 100L << 20, 10_000);

        /** No keep on failure. */
        public Bounds(Duration runBudget, Duration maxDeployTimeout, long fetchMaxBytes, long fetchMaxFiles) {
            this(runBudget, maxDeployTimeout, fetchMaxBytes, fetchMaxFiles, Keep.OFF);
        }

        public Bounds {
            Objects.requireNonNull(keep, "keep");
            Objects.requireNonNull(runBudget, "runBudget");
            Objects.requireNonNull(maxDeployTimeout, "maxDeployTimeout");
            if (runBudget.isNegative() || runBudget.isZero() || maxDeployTimeout.isNegative() || maxDeployTimeout.isZero()
                    || fetchMaxBytes < 1 || fetchMaxFiles < 1) {
                throw new IllegalArgumentException("every bound of a run must be positive: " + runBudget + ", "
                        + maxDeployTimeout + ", " + fetchMaxBytes + " bytes, " + fetchMaxFiles + " files");
            }
        }
    }

    public RunSettings {
        Objects.requireNonNull(subject, "subject");
        stages = stages.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(stages));
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(paths, "paths");
        Objects.requireNonNull(options, "options");
    }

    public String recipe() {
        return subject.recipe();
    }

    /** The same settings under another run id (a run of a plan of several is {@code <run id>-<recipe>}). */
    public RunSettings withRunId(String runId) {
        return new RunSettings(new Subject(subject.recipe(), subject.pr(), subject.ref(), runId, subject.upgradeFrom()), stages,
                driver, paths, options);
    }

    public String runId() {
        return subject.runId();
    }

    /** The run's own folder, {@code <runs dir>/<run id>}: its ABRA_DIR, state files, logs and results. */
    public Path runDir() {
        return paths.runsDir().resolve(subject.runId());
    }

    /** Whether code shipped inside this recipe's own repository may run, for some content (it is on the approved list). */
    public boolean recipeCodeApproved() {
        return !approvedDigests().isEmpty();
    }

    /** The digests of this recipe's own CI code the host approved ({@link HostTrust#approvedDigests}). */
    public Set<String> approvedDigests() {
        return options.trust().approvedDigests(subject.recipe());
    }
}
