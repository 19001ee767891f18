package net.commoninternet.ccci.extensions.recipe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Names of a run's app, following the spec: the domain is unique per (recipe, pr, ref), and
 * everything the run creates on the swarm is namespaced by it.
 */
@API(status = API.Status.INTERNAL)
public final class AppNaming {

    /**
     * The run apps' domain suffix on a host that names none: the default run-app namespace. A host's
     * suffix comes with the run's settings ({@code ccci.domain-suffix} / {@code CCCI_DOMAIN_SUFFIX},
     * read and checked by the engine at discovery); runs of two namespaces never see each other's apps
     * as run apps (the janitor's candidates are its own namespace's, {@code JanitorCandidates}).
     */
    public static final String DEFAULT_SUFFIX = "ci.commoninternet.net";

    /** Each namespace's run-app pattern, compiled once. */
    private static final Map<String, Pattern> RUN_APPS = new ConcurrentHashMap<>();

    /**
     * Whether {@code domain} is a run app of the namespace {@code suffix}. Warm and canonical apps
     * ({@code warm-<recipe>...}) never match, whatever follows {@code warm-}
     * ({@code warm-abc123.ci.commoninternet.net} has the run-app shape, and is still a warm app), so
     * the janitor never probes or reaps them; and {@link #domain} never makes a {@code warm} prefix.
     */
    public static boolean isRunApp(String domain, String suffix) {
        return runApps(suffix).matcher(domain).matches();
    }

    static Pattern runApps(String suffix) {
        return RUN_APPS.computeIfAbsent(suffix,
                s -> Pattern.compile("^(?!warm-)[a-z0-9]{1,4}-[0-9a-f]{6}\\." + Pattern.quote(s) + "$"));
    }

    /** Docker refuses object names longer than this (services, secrets, configs, networks). */
    static final int MAX_SWARM_NAME = 64;

    private AppNaming() {
    }

    /**
     * {@code <recipe[:4]>-<sha1(recipe|pr|ref)[:6]>.<suffix>}, the prefix taken from the recipe's name
     * without its {@code -}s ({@code my-app} is {@code myap}: {@code my-a-...} would not be a run app,
     * and the janitor would never reap what a dead run of it left), and never {@code warm} (the warm
     * apps' prefix, which the janitor never touches).
     */
    public static String domain(String recipe, int pr, String ref, String suffix) {
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
