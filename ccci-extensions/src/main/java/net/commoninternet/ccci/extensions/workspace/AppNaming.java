package net.commoninternet.ccci.extensions.workspace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Names of a run's app, following the spec: the domain is unique per (recipe, pr, ref), and
 * everything the run creates on the swarm is namespaced by it.
 */
@API(status = API.Status.INTERNAL)
public final class AppNaming {

    /**
     * The environment variable naming the run apps' domain suffix, {@value #DEFAULT_SUFFIX} unless
     * set: a run-app namespace. Runs of two namespaces never see each other's apps as run apps (the
     * janitor's candidates are its own namespace's), so two sets of runs that judge liveness by two
     * lock folders on one engine (the concurrency suite's forks) must each have a namespace of their
     * own; every run of one namespace on a host uses one lock folder.
     */
    public static final String ENV_DOMAIN_SUFFIX = "CCCI_DOMAIN_SUFFIX";

    static final String DEFAULT_SUFFIX = "ci.commoninternet.net";

    /** Lower-case DNS labels joined by dots, short enough that every swarm name of the stack fits. */
    private static final Pattern SUFFIX = Pattern.compile("^(?=.{1,40}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$");

    /** This host's suffix, from {@link #ENV_DOMAIN_SUFFIX}; null when it is not a domain (see {@link #domain}). */
    private static final String HOST_SUFFIX = suffix(System.getenv().getOrDefault(ENV_DOMAIN_SUFFIX, DEFAULT_SUFFIX));

    /**
     * Run apps of this host's namespace and only those. Warm and canonical apps ({@code warm-<recipe>...})
     * never match, whatever follows {@code warm-} ({@code warm-abc123.ci.commoninternet.net} has the
     * run-app shape, and is still a warm app), so the janitor never probes or reaps them; and
     * {@link #domain} never makes a {@code warm} prefix. With an invalid suffix nothing matches: a
     * janitor then reaps nothing.
     */
    static final Pattern RUN_APP_RE = runApps(HOST_SUFFIX);

    public static boolean isRunApp(String domain) {
        return RUN_APP_RE.matcher(domain).matches();
    }

    /** {@code value} if it is a domain suffix, else null. */
    static String suffix(String value) {
        return SUFFIX.matcher(value).matches() ? value : null;
    }

    static Pattern runApps(String suffix) {
        return Pattern.compile(suffix == null ? "(?!)" : "^(?!warm-)[a-z0-9]{1,4}-[0-9a-f]{6}\\." + Pattern.quote(suffix) + "$");
    }

    /** Docker refuses object names longer than this (services, secrets, configs, networks). */
    static final int MAX_SWARM_NAME = 64;

    private AppNaming() {
    }

    /**
     * {@code <recipe[:4]>-<sha1(recipe|pr|ref)[:6]>.<suffix>} ({@code ci.commoninternet.net} unless
     * {@link #ENV_DOMAIN_SUFFIX} says otherwise), the prefix taken from the recipe's name without its
     * {@code -}s ({@code my-app} is {@code myap}: {@code my-a-...} would not be a run app, and the
     * janitor would never reap what a dead run of it left), and never {@code warm} (the warm apps'
     * prefix, which the janitor never touches).
     *
     * @throws IllegalStateException naming the fix, when {@link #ENV_DOMAIN_SUFFIX} is not a domain
     */
    public static String domain(String recipe, int pr, String ref) {
        if (HOST_SUFFIX == null) {
            throw new IllegalStateException(ENV_DOMAIN_SUFFIX + "='" + System.getenv(ENV_DOMAIN_SUFFIX) + "' is not a domain"
                    + " suffix: give lower-case DNS labels joined by dots, at most 40 characters (e.g. ci.example.org),"
                    + " or unset it for " + DEFAULT_SUFFIX + ".");
        }
        return domain(recipe, pr, ref, HOST_SUFFIX);
    }

    static String domain(String recipe, int pr, String ref, String suffix) {
        String letters = recipe.replace("-", "");
        String prefix = letters.substring(0, Math.min(4, letters.length()));
        if (prefix.equals("warm")) {
            prefix = "wrm";
        }
        return prefix + "-" + sha1(recipe + "|" + pr + "|" + ref).substring(0, 6) + "." + suffix;
    }

    /** The stack name abra derives from a domain: dots become underscores. */
    public static String stackName(String domain) {
        return domain.replace('.', '_');
    }

    /** A swarm object name as the recipe's compose names it, refused rather than silently truncated. */
    public static String swarmName(String name) {
        if (name.length() > MAX_SWARM_NAME) {
            throw new IllegalArgumentException("swarm object name " + name + " is longer than " + MAX_SWARM_NAME
                    + " characters: shorten the recipe's secret or config name.");
        }
        return name;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }
}
