package net.commoninternet.ccci.engine.config;

import static net.commoninternet.ccci.engine.config.Constants.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.HostVariables;
import net.commoninternet.ccci.lifecycle.RunBudget;
import net.commoninternet.ccci.lifecycle.RunSettings;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import net.commoninternet.ccci.spi.Driver;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * Reads {@link RunSettings} from configuration parameters and the environment. Every
 * problem a user can cause becomes one sentence that names the fix; nothing is created on
 * the host while reading.
 */
@API(status = API.Status.INTERNAL)
public final class SettingsReader {

    /** Plain recipe names only: the name becomes a path segment, a domain prefix and a stack name. */
    public static final Pattern RECIPE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    /** Run ids become a folder name under the runs directory. */
    static final Pattern RUN_ID_PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");

    private final ConfigurationParameters config;
    private final Map<String, String> env;
    private final long pid;
    private final Set<String> drivers;
    private final List<String> problems = new ArrayList<>();
    /** What a relative path setting is relative to: the working directory of the JVM that runs the recipes. */
    private final Path base;

    /** @param drivers the ids of the drivers on the class path, what {@code ccci.driver} may name */
    public SettingsReader(ConfigurationParameters config, Map<String, String> env, long pid, Set<String> drivers) {
        this(config, env, pid, drivers, Path.of("").toAbsolutePath());
    }

    private SettingsReader(ConfigurationParameters config, Map<String, String> env, long pid, Set<String> drivers, Path base) {
        this.config = config;
        this.env = env;
        this.pid = pid;
        this.drivers = new TreeSet<>(drivers);
        this.base = base;
    }

    /** The one place ccci reads its process's environment: once, at discovery. */
    public static SettingsReader fromProcess(ConfigurationParameters config, Set<String> drivers) {
        return fromProcess(config, drivers, Path.of("").toAbsolutePath());
    }

    /**
     * The settings as a JVM working in {@code base} reads them, with this process's environment:
     * {@link SelectionCheck}'s, in Maven's JVM, for the run's JVM (Surefire's fork works in the module's folder).
     */
    public static SettingsReader fromProcess(ConfigurationParameters config, Set<String> drivers, Path base) {
        return new SettingsReader(config, System.getenv(), ProcessHandle.current().pid(), drivers, base);
    }

    /** A path setting as the reading JVM resolves it: relative to {@link #base}, normalized. */
    private Path absolute(String path) {
        return base.resolve(path).toAbsolutePath().normalize();
    }

    /**
     * The recipes named by {@code ccci.recipe} or {@code recipe}, in the order given, each once;
     * empty if none. {@code all} stays as it is: what it means depends on {@link #recipesDirectory()}.
     */
    public List<String> recipes() {
        String raw = config.get(RECIPE).or(() -> config.get(RECIPE_SHORT)).orElse("");
        return Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
    }

    /** The directory {@code ccci.recipes} names (or the default), whether or not it exists. */
    public Path recipesDirectory() {
        return absolute(config.get(RECIPES).map(String::trim).filter(s -> !s.isEmpty()).orElse("recipes"));
    }

    /**
     * The key, when {@code ccci.recipe} or {@code recipe} is given but names nothing
     * ({@code -Drecipe=} from a CI job whose RECIPE variable is empty): such a run must fail, never
     * run no recipe and pass.
     */
    public Optional<String> blankRecipeKey() {
        for (String key : List.of(RECIPE, RECIPE_SHORT)) {
            if (config.get(key).filter(String::isBlank).isPresent()) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /**
     * How a failed check is tried again ({@link CheckAttempts}): the same for every run of the command,
     * read apart from a run's settings; each value out of bounds is one sentence in {@code found}, and
     * the default stands for it.
     */
    public CheckAttempts checkAttempts(List<String> found) {
        long attempts = number(CHECK_ATTEMPTS, DEFAULT_CHECK_ATTEMPTS, found);
        if (attempts < 1 || attempts > CheckAttempts.MAX_ATTEMPTS) {
            found.add(CHECK_ATTEMPTS + "=" + attempts + " is out of bounds: pass how many times a failed check is tried,"
                    + " from 1 (never again) to " + CheckAttempts.MAX_ATTEMPTS + " (the default is " + DEFAULT_CHECK_ATTEMPTS + ").");
            attempts = DEFAULT_CHECK_ATTEMPTS;
        }
        long backoff = number(CHECK_BACKOFF, DEFAULT_CHECK_BACKOFF_SECONDS, found);
        if (backoff < 0 || backoff > CheckAttempts.MAX_BACKOFF_SECONDS) {
            found.add(CHECK_BACKOFF + "=" + backoff + " is out of bounds: pass a number of seconds from 0 to "
                    + CheckAttempts.MAX_BACKOFF_SECONDS + " (the default is " + DEFAULT_CHECK_BACKOFF_SECONDS + ").");
            backoff = DEFAULT_CHECK_BACKOFF_SECONDS;
        }
        String flaky = config.get(ALLOW_FLAKY).map(v -> v.trim().toLowerCase(Locale.ROOT)).orElse("false");
        if (!flaky.equals("true") && !flaky.equals("false")) {
            found.add(ALLOW_FLAKY + "='" + printable(flaky) + "' is neither true nor false: pass -D" + ALLOW_FLAKY
                    + "=true to let a flaky check pass its tier, or leave it out.");
        }
        return new CheckAttempts((int) attempts, Duration.ofSeconds(backoff), flaky.equals("true"));
    }

    private long number(String key, long fallback, List<String> found) {
        String raw = config.get(key).map(String::trim).orElse(Long.toString(fallback));
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            found.add(key + "='" + printable(raw) + "' is not a number: pass a whole number such as -D" + key + "=" + fallback + ".");
            return fallback;
        }
    }

    /** Problems found by the last {@link #read}, each one sentence. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Reads the settings for {@code recipe}; empty if any problem was found. */
    public Optional<RunSettings> read(String recipe) {
        problems.clear();
        if (!RECIPE_NAME.matcher(recipe).matches()) {
            problems.add("'" + recipe + "' is not a recipe name: use lower-case letters, digits and '-' only"
                    + " (no '/', '..' or spaces), for example -Drecipe=custom-html.");
        }
        int pr = pullRequest();
        if (pr < 0) {
            problems.add(PR + " must not be negative; pass the pull request number, or 0 for none.");
        }
        // control characters are refused, never trimmed away (trim() drops them at the ends)
        String ref = config.get(REF).or(() -> ciCommit(recipe))
                .map(r -> r.chars().anyMatch(Character::isISOControl) ? r : r.strip()).filter(s -> !s.isEmpty()).orElse(null);
        if (ref != null && !plainRef(ref)) {
            problems.add(REF + "='" + printable(ref) + "' is not a plain git ref: name a branch, a tag or a commit id"
                    + " (letters, digits, '.', '_', '-', '+', '/', '~', '^'; not starting with '-' or '/', no '..', ':',"
                    + " spaces or control characters), for example -D" + REF + "=main.");
        }
        String runId = config.get(RUN_ID).map(String::trim).filter(s -> !s.isEmpty())
                .or(() -> fromCi(HostVariables.Ci::runId).map(Map.Entry::getValue))
                .orElse("manual-" + pid);
        if (!RUN_ID_PATTERN.matcher(runId).matches()) {
            problems.add("run id '" + runId + "' is not usable as a folder name: use letters, digits, '.', '_'"
                    + " and '-' only, for example -Dccci.run-id=1234.");
        }
        Set<Tier> stages = stages();
        String driver = config.get(DRIVER).map(d -> d.trim().toLowerCase(Locale.ROOT)).orElse(Driver.DEFAULT);
        if (!drivers.contains(driver)) {
            problems.add("unknown driver '" + driver + "' in " + DRIVER + ": " + (drivers.isEmpty()
                    ? "no driver is on the class path; add net.commoninternet.ccci:ccci-extensions as a test dependency."
                    : "use " + String.join(" or ", drivers) + " (" + Driver.DEFAULT + " is the embedded default)."
                            + Suggestions.didYouMean(driver, List.copyOf(drivers))));
        }
        long deadline = parse(DEADLINE, Long.toString(DEFAULT_DEADLINE_SECONDS), Long::parseLong,
                "a number of seconds such as -Dccci.deadline=3600");
        if (deadline <= 0 || deadline > MAX_DEADLINE_SECONDS) {
            problems.add(DEADLINE + "=" + deadline + " is out of bounds: pass a number of seconds from 1 to "
                    + MAX_DEADLINE_SECONDS + " (24 hours; the default is " + DEFAULT_DEADLINE_SECONDS + "): a longer one"
                    + " would let a wedged run hold its host and its app lock for good.");
        }
        RunSettings.Lease lease = lease();
        Path recipes = recipesDir();
        Path lockDir = folder(APP_LOCK_DIR, HostVariables.APP_LOCK_DIR, "/run/lock");
        String domainSuffix = domainSuffix();
        Path runsDir = folder(RUNS_DIR, HostVariables.RUNS_DIR, "/var/lib/cc-ci-runs");
        Path abraDir = path(ABRA_DIR, HostVariables.ABRA_DIR, System.getProperty("user.home") + "/.abra");
        Optional<Path> logFile = config.get(LOG_FILE).map(String::trim).filter(s -> !s.isEmpty())
                .map(this::absolute);
        boolean skipFetch = skipFetch();
        Set<String> approved = approvedRecipes();
        DeployAllowance allowance = deployAllowance();
        long hookTimeout = parse(HOOK_TIMEOUT, Long.toString(DEFAULT_HOOK_TIMEOUT_SECONDS), Long::parseLong,
                "a number of seconds such as -D" + HOOK_TIMEOUT + "=" + DEFAULT_HOOK_TIMEOUT_SECONDS);
        if (hookTimeout < 1 || hookTimeout > MAX_HOOK_TIMEOUT_SECONDS) {
            problems.add(HOOK_TIMEOUT + "=" + hookTimeout + " is out of bounds: pass a number of seconds from 1 to "
                    + MAX_HOOK_TIMEOUT_SECONDS + " (the default is " + DEFAULT_HOOK_TIMEOUT_SECONDS + ").");
        }
        Set<RunSettings.HostTrust.Boundary> unconfined = unconfined();
        RunBudget budget = budget();
        RunSettings.Bounds bounds = bounds();
        String probeImage = config.get(PROBE_IMAGE).map(String::trim).filter(s -> !s.isEmpty()).orElse(DEFAULT_PROBE_IMAGE);
        UpgradeFrom upgradeFrom = upgradeFrom();
        if (!problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RunSettings(new RunSettings.Subject(recipe, pr, ref, runId, upgradeFrom), stages, driver,
                new RunSettings.HostPaths(recipes, new RunSettings.Namespace(lockDir, domainSuffix), runsDir, abraDir, logFile),
                new RunSettings.Options(Duration.ofSeconds(deadline), skipFetch, new RunSettings.HostTrust(approved, allowance,
                        Duration.ofSeconds(hookTimeout), unconfined, budget.withBounds(bounds)),
                        probeImage, lease)));
    }

    /** {@code ccci.upgrade-from}: which releases the run upgrades from; the previous one unless given. */
    private UpgradeFrom upgradeFrom() {
        Optional<String> raw = config.get(UPGRADE_FROM);
        if (raw.isEmpty()) {
            return UpgradeFrom.PREVIOUS;
        }
        return UpgradeFrom.parse(raw.get()).orElseGet(() -> {
            problems.add(UPGRADE_FROM + "='" + printable(raw.get()) + "' names no upgrade bases: pass previous (the default),"
                    + " last:N (the N newest releases older than the head, N from 1 to " + UpgradeFrom.MAX_LAST + "), all,"
                    + " or a comma-separated list of release tags, for example -D" + UPGRADE_FROM + "=last:3.");
            return UpgradeFrom.PREVIOUS;
        });
    }

    /**
     * A ref git reads as nothing but a ref: never an option ({@code --pathspec-from-file=...}), a
     * path ({@code ../x}, {@code /etc/x}, {@code HEAD:compose.yml}) or anything with spaces or
     * control characters. Checked at discovery, before any git runs.
     */
    static boolean plainRef(String ref) {
        return PLAIN_REF.matcher(ref).matches() && !ref.contains("..") && !ref.contains("//") && !ref.endsWith("/")
                && !ref.endsWith(".lock");
    }

    private static final Pattern PLAIN_REF = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._/~^+-]{0,199}");

    /** A value as it can be printed in one line: control characters as {@code ?}. */
    private static String printable(String raw) {
        return raw.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    /**
     * {@code ccci.deploy-allowance}: comma-separated {@code <recipe>:<key>[=<value>]}, and the same
     * entries one per line in the operator's file ({@code ccci.deploy-allowance-file},
     * {@link DeployAllowanceFile}). Both are read from the configuration parameters only (the Maven
     * command on the host, {@code -D}), never from the environment, which a pipeline file could set.
     */
    private DeployAllowance deployAllowance() {
        List<DeployAllowanceFile.Line> lines = new ArrayList<>();
        for (String item : config.get(DEPLOY_ALLOWANCE).orElse("").split(",")) {
            lines.add(new DeployAllowanceFile.Line(item.trim(), DEPLOY_ALLOWANCE));
        }
        Optional<String> named = config.get(DEPLOY_ALLOWANCE_FILE).map(String::trim).filter(s -> !s.isEmpty());
        Path file = absolute(named.orElse(DEFAULT_DEPLOY_ALLOWANCE_FILE));
        List<DeployAllowanceFile.Line> fromFile = DeployAllowanceFile.read(file, named.isPresent(), problems);
        lines.addAll(fromFile);
        Set<DeployAllowance.Entry> entries = new LinkedHashSet<>();
        for (DeployAllowanceFile.Line line : lines) {
            String entry = line.entry();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.indexOf(':');
            int equals = entry.indexOf('=');
            String recipe = colon < 0 ? "" : entry.substring(0, colon);
            String key = colon < 0 ? "" : entry.substring(colon + 1, equals < 0 ? entry.length() : equals);
            Optional<String> value = equals < 0 ? Optional.empty() : Optional.of(entry.substring(equals + 1));
            if (!RECIPE_NAME.matcher(recipe).matches() || !DeployAllowance.isKey(key)
                    || value.filter(String::isEmpty).isPresent()) {
                problems.add("'" + printable(entry) + "' in " + line.where() + " is not <recipe>:<key>[=<value>] with"
                        + " a compose key (such as " + String.join(", ", new TreeSet<>(DeployAllowance.KEYS))
                        + ", or the key path a refusal names): copy the entry the deploy policy's refusal names, for example -D" + DEPLOY_ALLOWANCE
                        + "=traefik:volumes=/var/run/docker.sock.");
            } else {
                entries.add(new DeployAllowance.Entry(recipe, key, value));
            }
        }
        String source = "-D" + DEPLOY_ALLOWANCE + (fromFile.isEmpty() ? "" : " and the file " + file);
        return new DeployAllowance(entries, source);
    }

    /** {@code ccci.host.unconfined}: from the configuration parameters only, each a boundary's name. */
    private Set<RunSettings.HostTrust.Boundary> unconfined() {
        Set<RunSettings.HostTrust.Boundary> accepted = EnumSet.noneOf(RunSettings.HostTrust.Boundary.class);
        for (String name : config.get(HOST_UNCONFINED).map(String::trim).filter(s -> !s.isEmpty()).stream()
                .flatMap(v -> Arrays.stream(v.split(","))).map(String::trim).toList()) {
            Arrays.stream(RunSettings.HostTrust.Boundary.values()).filter(b -> b.key().equals(name)).findFirst()
                    .ifPresentOrElse(accepted::add, () -> problems.add(HOST_UNCONFINED + " names '" + printable(name)
                            + "', which is no boundary ccci keeps: pass runtime, egress or both (-D" + HOST_UNCONFINED
                            + "=runtime,egress), or leave the key out."));
        }
        return accepted;
    }

    /**
     * {@code ccci.budget.*}: one run's share of the host, from the configuration parameters only (the
     * host's Maven command), never the environment, which a pipeline file can set.
     */
    private RunBudget budget() {
        RunBudget fallback = RunBudget.DEFAULT;
        long memory = size(BUDGET_MEMORY, fallback.limits().memory(), 64L << 20, 1L << 50);
        long pids = count(BUDGET_PIDS, fallback.limits().pids(), 64, 4_194_304);
        String cpusText = config.get(BUDGET_CPUS).map(String::trim).orElse("2");
        double cpus = -1;
        try {
            cpus = Double.parseDouble(cpusText);
        } catch (NumberFormatException notANumber) {
            // said below
        }
        if (!(cpus >= 0 && cpus <= 1024)) {
            problems.add(BUDGET_CPUS + "='" + printable(cpusText) + "' is not a number of CPUs from 0 to 1024: pass one"
                    + " such as -D" + BUDGET_CPUS + "=2 (the default).");
        }
        long tasks = count(BUDGET_TASKS, fallback.limits().tasks(), 1, 1000);
        long disk = size(BUDGET_DISK, fallback.disk(), 64L << 20, 1L << 50);
        long logSize = size(BUDGET_LOG_MAX_SIZE, fallback.logs().maxSize(), 64L << 10, 1L << 30);
        long logFiles = count(BUDGET_LOG_MAX_FILE, fallback.logs().maxFiles(), 1, 100);
        return new RunBudget(new RunBudget.Limits(memory, pids, Math.max(cpus, 0), (int) tasks), disk,
                new RunBudget.Logs(logSize, (int) logFiles));
    }

    /** A size key ({@code 8g}, {@code 512m}, bytes) from {@code min} to {@code max}, else a problem naming both. */
    private long size(String key, long fallback, long min, long max) {
        Optional<String> raw = config.get(key).map(String::trim).filter(v -> !v.isEmpty());
        long bytes = raw.map(RunBudget::bytes).orElse(fallback);
        if (bytes < min || bytes > max) {
            problems.add(key + "='" + printable(raw.orElse("")) + "' is not a size from " + RunBudget.shown(min) + " to "
                    + RunBudget.shown(max) + ": pass bytes or a binary unit, for example -D" + key + "="
                    + RunBudget.shown(fallback).replace(" ", "").replace("iB", "").toLowerCase(Locale.ROOT) + " (the default).");
            return fallback;
        }
        return bytes;
    }

    /** A whole-number key from {@code min} to {@code max}, else a problem naming both. */
    private long count(String key, long fallback, long min, long max) {
        String raw = config.get(key).map(String::trim).filter(v -> !v.isEmpty()).orElse(Long.toString(fallback));
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            value = min - 1;
        }
        if (value < min || value > max) {
            problems.add(key + "='" + printable(raw) + "' is not a whole number from " + min + " to " + max + ": pass one,"
                    + " for example -D" + key + "=" + fallback + " (the default).");
            return fallback;
        }
        return value;
    }

    /**
     * The host's bounds on a run ({@code ccci.run-budget}, {@code ccci.max-deploy-timeout},
     * {@code ccci.fetch.max-bytes}, {@code ccci.fetch.max-files}), each within its own range: a bound
     * of zero or one too large to hold would disable it.
     */
    private RunSettings.Bounds bounds() {
        long budget = bounded(RUN_BUDGET, DEFAULT_RUN_BUDGET_SECONDS, 1, MAX_DEADLINE_SECONDS, "seconds");
        long deploy = bounded(MAX_DEPLOY_TIMEOUT, DEFAULT_MAX_DEPLOY_TIMEOUT_SECONDS, 1, MAX_DEADLINE_SECONDS, "seconds");
        long bytes = bounded(FETCH_MAX_BYTES, DEFAULT_FETCH_MAX_BYTES, MIN_FETCH_MAX_BYTES, MAX_FETCH_MAX_BYTES, "bytes");
        long files = bounded(FETCH_MAX_FILES, DEFAULT_FETCH_MAX_FILES, 1, MAX_FETCH_MAX_FILES, "files");
        RunSettings.Keep keep = keep();
        return problems.isEmpty() ? new RunSettings.Bounds(Duration.ofSeconds(budget), Duration.ofSeconds(deploy), bytes, files,
                keep) : RunSettings.Bounds.DEFAULT;
    }

    /** A whole number of {@code unit} for {@code key}, from {@code min} to {@code max}, or a problem naming the range. */
    private long bounded(String key, long fallback, long min, long max, String unit) {
        long value = parse(key, Long.toString(fallback), Long::parseLong, "a number of " + unit + " such as -D" + key + "=" + fallback);
        if (value < min || value > max) {
            problems.add(key + "=" + value + " is out of bounds: pass a number of " + unit + " from " + min + " to " + max
                    + " (the default is " + fallback + ").");
        }
        return value;
    }

    /**
     * {@code ccci.keep-on-failure} (off unless given) and its host maximum {@code ccci.keep-on-failure.max}:
     * seconds, {@code <N>m} or {@code <N>h}; a malformed one is a problem naming the form.
     */
    private RunSettings.Keep keep() {
        Duration max = keepDuration(KEEP_ON_FAILURE_MAX).orElse(Duration.ofSeconds(DEFAULT_KEEP_ON_FAILURE_MAX_SECONDS));
        return new RunSettings.Keep(keepDuration(KEEP_ON_FAILURE).orElse(Duration.ZERO), max);
    }

    private static final Pattern KEEP_FORM = Pattern.compile("([0-9]{1,6})([smh]?)");

    private Optional<Duration> keepDuration(String key) {
        Optional<String> raw = config.get(key).map(String::trim).filter(v -> !v.isEmpty());
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        java.util.regex.Matcher m = KEEP_FORM.matcher(raw.get());
        long seconds = m.matches() ? Long.parseLong(m.group(1)) * switch (m.group(2)) {
            case "m" -> 60;
            case "h" -> 3600;
            default -> 1;
        } : 0;
        if (seconds < 1 || seconds > MAX_DEADLINE_SECONDS) {
            problems.add(key + "='" + printable(raw.get()) + "' is not a duration from 1 s to 24 h: pass seconds, or"
                    + " minutes or hours with m or h, for example -D" + key + "=30m.");
            return Optional.empty();
        }
        return Optional.of(Duration.ofSeconds(seconds));
    }

    /** {@code ccci.lease.ttl} and {@code ccci.lease.heartbeat}, within their bounds. */
    private RunSettings.Lease lease() {
        long ttl = parse(LEASE_TTL, Long.toString(DEFAULT_LEASE_TTL_SECONDS), Long::parseLong,
                "a number of seconds such as -D" + LEASE_TTL + "=" + DEFAULT_LEASE_TTL_SECONDS);
        long heartbeat = parse(LEASE_HEARTBEAT, Long.toString(DEFAULT_LEASE_HEARTBEAT_SECONDS), Long::parseLong,
                "a number of seconds such as -D" + LEASE_HEARTBEAT + "=" + DEFAULT_LEASE_HEARTBEAT_SECONDS);
        if (ttl < MIN_LEASE_TTL_SECONDS || ttl > MAX_LEASE_TTL_SECONDS) {
            problems.add(LEASE_TTL + "=" + ttl + " is out of bounds: pass a number of seconds from " + MIN_LEASE_TTL_SECONDS
                    + " to " + MAX_LEASE_TTL_SECONDS + " (the default is " + DEFAULT_LEASE_TTL_SECONDS + "; keep it above a"
                    + " manager election, 20 s, plus a heartbeat).");
        } else if (heartbeat < 1 || heartbeat * 4 > ttl) {
            problems.add(LEASE_HEARTBEAT + "=" + heartbeat + " does not fit " + LEASE_TTL + "=" + ttl + ": pass a number of"
                    + " seconds from 1 to a quarter of the TTL (" + Math.max(1, ttl / 4) + "), so a holder renews several"
                    + " times before it must stop its run.");
        }
        return new RunSettings.Lease(Duration.ofSeconds(ttl), Duration.ofSeconds(heartbeat));
    }

    /**
     * {@code ccci.approved-recipes} or {@code CCCI_APPROVED_RECIPES}: comma-separated
     * {@code <recipe>@sha256:<digest>}, each the digest of the recipe's own CI code as it was reviewed
     * ({@link RunSettings.HostTrust#approvedDigests}). A name alone approves no content: refused in one
     * sentence naming the form, since it would run whatever the next pull request puts there.
     */
    private Set<String> approvedRecipes() {
        String raw = config.get(APPROVED_RECIPES).or(() -> Optional.ofNullable(env.get(HostVariables.APPROVED_RECIPES))).orElse("");
        Set<String> approved = new TreeSet<>();
        for (String item : raw.split(",")) {
            String entry = item.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int at = entry.indexOf('@');
            String name = at < 0 ? entry : entry.substring(0, at);
            if (!RECIPE_NAME.matcher(name).matches()) {
                problems.add("'" + printable(name) + "' in " + APPROVED_RECIPES + " is not a recipe name: list"
                        + " <recipe>@sha256:<digest> entries separated by commas, for example -D" + APPROVED_RECIPES
                        + "=custom-html@sha256:<digest>.");
            } else if (at < 0) {
                problems.add("'" + name + "' in " + APPROVED_RECIPES + " approves the recipe's own CI code by its name"
                        + " alone, which binds nothing to what was reviewed: write " + name + "@sha256:<digest> with the"
                        + " digest a run of " + name + " logs for its compose.ccci.yml and install_steps.sh (in the"
                        + " recipe: sha256sum compose.ccci.yml install_steps.sh 2>/dev/null | sha256sum).");
            } else if (!APPROVED_DIGEST.matcher(entry.substring(at + 1)).matches()) {
                problems.add("'" + printable(entry) + "' in " + APPROVED_RECIPES + " is not <recipe>@sha256:<64 hex"
                        + " digits>: copy the entry a run of " + name + " logs for its reviewed CI code.");
            } else {
                approved.add(name + "@" + entry.substring(at + 1).toLowerCase(Locale.ROOT));
            }
        }
        return approved;
    }

    private static final Pattern APPROVED_DIGEST = Pattern.compile("sha256:[0-9a-fA-F]{64}");

    private Set<Tier> stages() {
        Optional<String> raw = config.get(STAGES).or(() -> Optional.ofNullable(env.get(HostVariables.STAGES)))
                .map(String::trim).filter(s -> !s.isEmpty());
        if (raw.isEmpty()) {
            return EnumSet.allOf(Tier.class);
        }
        List<String> valid = Arrays.stream(Tier.values()).map(Tier::id).collect(Collectors.toList());
        Set<Tier> stages = EnumSet.noneOf(Tier.class);
        for (String name : raw.get().split(",")) {
            if (name.isBlank()) {
                continue;
            }
            Optional<Tier> tier = Tier.fromId(name);
            if (tier.isPresent()) {
                stages.add(tier.get());
            } else {
                problems.add("unknown stage '" + name.trim() + "' in " + STAGES + ": use a comma-separated list of "
                        + String.join(", ", valid) + "." + Suggestions.didYouMean(name.trim(), valid));
            }
        }
        if (stages.isEmpty() && problems.isEmpty()) {
            problems.add(STAGES + " names no stage: use a comma-separated list of " + String.join(", ", valid) + ".");
        }
        return stages;
    }

    private boolean skipFetch() {
        String raw = config.get(SKIP_FETCH).or(() -> Optional.ofNullable(env.get(HostVariables.SKIP_FETCH)))
                .map(String::trim).orElse("");
        if (!Set.of("", "0", "1", "true", "false").contains(raw)) {
            problems.add(SKIP_FETCH + "/" + HostVariables.SKIP_FETCH + "='" + raw + "' is not a switch: use 1 (copy the staged"
                    + " clone) or leave it unset.");
        }
        return raw.equals("1") || raw.equals("true");
    }

    private Path recipesDir() {
        Optional<String> configured = config.get(RECIPES).map(String::trim).filter(s -> !s.isEmpty());
        Path dir = recipesDirectory();
        if (!Files.isDirectory(dir)) {
            problems.add(configured.isPresent()
                    ? RECIPES + " points at " + dir + ", which is not a directory: pass the directory that holds the recipe folders."
                    : "no recipes directory here (" + dir + "): run from recipe-suites (or the repository root),"
                            + " or pass -D" + RECIPES + "=<directory holding recipe folders>.");
        }
        return dir;
    }

    /** A folder the run creates if missing; one that exists as something else is a problem (checked, not created). */
    /** Lower-case DNS labels joined by dots, short enough that every swarm name of a run app's stack fits. */
    private static final Pattern DOMAIN_SUFFIX_SHAPE =
            Pattern.compile("^(?=.{1,40}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$");

    private String domainSuffix() {
        String suffix = config.get(DOMAIN_SUFFIX).or(() -> Optional.ofNullable(env.get(HostVariables.DOMAIN_SUFFIX)))
                .map(String::trim).filter(s -> !s.isEmpty()).orElse(DEFAULT_DOMAIN_SUFFIX);
        if (!DOMAIN_SUFFIX_SHAPE.matcher(suffix).matches()) {
            problems.add(DOMAIN_SUFFIX + " / " + HostVariables.DOMAIN_SUFFIX + "='" + suffix + "' is not a domain suffix: give"
                    + " lower-case DNS labels joined by dots, at most 40 characters (e.g. ci.example.org), or unset it for "
                    + DEFAULT_DOMAIN_SUFFIX + ".");
        }
        return suffix;
    }

    private Path folder(String key, String envName, String fallback) {
        Path dir = path(key, envName, fallback);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            problems.add(key + " / " + envName + " points at " + dir + ", which is a file, not a folder: point it at a"
                    + " folder (default " + fallback + "), or remove the file.");
        }
        return dir;
    }

    private Path path(String key, String envName, String fallback) {
        return absolute(config.get(key).or(() -> Optional.ofNullable(env.get(envName)))
                .map(String::trim).filter(s -> !s.isEmpty()).orElse(fallback));
    }

    /**
     * The first CI's {@code variable} (its name and value) that is set and not blank: Drone's, then
     * Woodpecker's ({@link HostVariables#CIS}).
     */
    private Optional<Map.Entry<String, String>> fromCi(Function<HostVariables.Ci, String> variable) {
        return HostVariables.CIS.stream().map(variable).filter(name -> env.get(name) != null && !env.get(name).isBlank())
                .findFirst().map(name -> Map.entry(name, env.get(name).trim()));
    }

    /** {@code ccci.pr}, else the CI's pull request ({@code DRONE_PULL_REQUEST}, {@code CI_COMMIT_PULL_REQUEST}), else 0. */
    private int pullRequest() {
        if (config.get(PR).isPresent()) {
            return parse(PR, "0", Integer::parseInt, "a pull request number such as -Dccci.pr=42");
        }
        Optional<Map.Entry<String, String>> ci = fromCi(HostVariables.Ci::pullRequest);
        try {
            return ci.map(e -> Integer.parseInt(e.getValue())).orElse(0);
        } catch (NumberFormatException e) {
            problems.add(ci.get().getKey() + "='" + printable(ci.get().getValue()) + "' is not a pull request number: unset it,"
                    + " or pass the number with -D" + PR + "=42 (which wins over it).");
            return 0;
        }
    }

    /**
     * The commit the CI built, as the ref under test of {@code recipe}: only where the CI's repository
     * is the recipe's own (its name is the recipe's), since a pipeline of another repository (ccci's
     * own) builds a commit the recipe does not have.
     */
    private Optional<String> ciCommit(String recipe) {
        return HostVariables.CIS.stream().filter(ci -> recipe.equals(env.get(ci.repository())))
                .map(ci -> env.get(ci.commit())).filter(c -> c != null && !c.isBlank()).findFirst();
    }

    private <T> T parse(String key, String fallback, Function<String, T> parser, String example) {
        String raw = config.get(key).map(String::trim).orElse(fallback);
        try {
            return parser.apply(raw);
        } catch (NumberFormatException e) {
            problems.add(key + "='" + raw + "' is not a number: pass " + example + ".");
            return parser.apply(fallback);
        }
    }
}
