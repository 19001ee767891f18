package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a recipe's compose may ask of the host: only its own swarm objects. The compose comes with
 * the pull request under test, and ccci runs as root with the Docker socket, so the policy is an
 * allowlist ({@link ComposeAllowlist}): every key of the final compose, at every level, must be one
 * ccci knows to be safe, with a value it accepts; anything else is refused in one sentence naming
 * the service, the key and the fix (or the operator's allowance). It judges the final compose
 * whole ({@link ComposeConfig}: {@code docker stack config} over every {@code COMPOSE_FILE} file,
 * overlays included, interpolated as the deploy is; the files themselves read whole and their
 * env_files judged before the CLI opens them, {@link ComposeFiles}), before each deploy and before
 * the app's secrets are made, so a refused recipe leaves nothing on the engine; and the swarm
 * driver deploys exactly what was judged ({@link ComposeConfig#writeDeployable}).
 *
 * <p>An operator's allowance ({@link DeployAllowance}, {@code -Dccci.deploy-allowance}) lets one
 * recipe one key and value; each use is logged as a warning.
 */
@API(status = API.Status.INTERNAL)
public final class DeployPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(DeployPolicy.class);

    /** The one external network a recipe may join: the proxy's. */
    static final String PROXY_NETWORK = "proxy";

    private final DeployAllowance allowance;
    private final Duration hookTimeout;
    private final RunSettings.Bounds bounds;
    private final ChildProcesses children;

    /** The host's policy: its allowance, the bound of a recipe's hooks and the run's other bounds. */
    public DeployPolicy(RunSettings.HostTrust trust, ChildProcesses children) {
        this.allowance = trust.deployAllowance();
        this.hookTimeout = trust.hookTimeout();
        this.bounds = trust.bounds();
        this.children = children;
    }

    /** {@code allowance}, hooks bounded by the default. */
    public DeployPolicy(DeployAllowance allowance, ChildProcesses children) {
        this(new RunSettings.HostTrust(Set.of(), allowance), children);
    }

    /** How long the host lets one of the recipe's hooks run in its container ({@code ccci.hook-timeout}). */
    public Duration hookTimeout() {
        return hookTimeout;
    }

    /**
     * The host's bounds on the run ({@code ccci.run-budget}, {@code ccci.max-deploy-timeout},
     * {@code ccci.fetch.*}): what a recipe may make the run wait for, and write.
     */
    public RunSettings.Bounds bounds() {
        return bounds;
    }

    /**
     * How long a deploy of {@code app} may take to converge: what the customization or the recipe's
     * timeout label asks for, never longer than this host's {@code ccci.max-deploy-timeout}
     * ({@link DeployTimeout}).
     */
    public Duration deployTimeout(CiKeys keys, App app) throws IOException, InterruptedException {
        return DeployTimeout.of(keys, app, children, bounds.maxDeployTimeout());
    }

    /** The app's final compose, refused in one sentence if it asks for more than its own objects. */
    public ComposeConfig check(App app) throws IOException, InterruptedException {
        ComposeConfig compose = ComposeConfig.of(app, children);
        check(app, compose);
        return compose;
    }

    /** {@link #check(App)} of a compose already read. */
    public void check(App app, ComposeConfig compose) throws IOException {
        backupPaths(app.recipe(), compose.tree());
        for (Finding finding : findings(app, compose.tree())) {
            Optional<DeployAllowance.Entry> allowed = allowance.allowing(app.recipe(), finding.key(), finding.value());
            if (allowed.isEmpty()) {
                throw new IllegalStateException(finding.refusal(app.recipe()));
            }
            LOG.warn("!! deploy allowance {} (set on this host): {} {} {} — allowed, not refused !!", allowed.get(),
                    finding.where(), finding.what(), finding.value());
        }
    }

    /**
     * A backupbot path with a {@code ..} segment is refused before anything exists: restic (root,
     * on the host) reads and a restore writes what a backup path names, so a path that climbs
     * ({@code /var/www/../../etc}) could reach the host; no allowance lets one through. The run
     * checks again, at backup and restore, that each path, links followed, is inside the
     * service's own volume ({@code BackupLabels}).
     */
    static void backupPaths(String recipe, JsonNode tree) {
        for (Map.Entry<String, JsonNode> service : RecipeLabels.services(tree)) {
            for (Map.Entry<String, String> label : RecipeLabels.deployLabels(service.getValue()).entrySet()) {
                String key = label.getKey();
                boolean path = key.equals("backupbot.backup.path")
                        || key.startsWith("backupbot.backup.volumes.") && key.endsWith(".path");
                if (path && Arrays.stream(label.getValue().split("[,/]")).map(String::strip).anyMatch(".."::equals)) {
                    throw new IllegalStateException(recipe + ": service " + service.getKey() + " has the label " + key + "="
                            + label.getValue() + ", a backup path that climbs out with '..': a backup holds only the"
                            + " service's own volumes; name the path inside its volume without '..'.");
                }
            }
        }
    }

    /**
     * One thing of the compose ccci refuses: at {@code where} (a service, a network, ...), the key
     * {@code key} (its path within it, which the operator's allowance names) with {@code value};
     * the sentence says {@code what} it does, {@code why} that is refused, and the {@code fix}.
     */
    record Finding(String where, String key, String value, Reason reason) {

        /** What the value does, why that is refused, and the fix, as the sentence says them. */
        record Reason(String what, String why, String fix) {
        }

        String what() {
            return reason.what();
        }

        String refusal(String recipe) {
            String what = reason.what();
            String why = reason.why();
            String fix = reason.fix();
            // a value with a comma cannot be one entry of -Dccci.deploy-allowance's list: the key alone, then
            String entry = recipe + ":" + key + (value.contains(",") || value.isEmpty() ? "" : "=" + value);
            return recipe + ": " + where + " " + what + " " + value + " (" + key + "), which " + why + ": " + fix
                    + " If this host's operator trusts " + recipe + " with it, run with -Dccci.deploy-allowance=" + entry + ".";
        }
    }

    /** Everything of the final compose ccci refuses, in file order. */
    static List<Finding> findings(App app, JsonNode tree) throws IOException {
        return ComposeAllowlist.findings(new ComposeJudging(app, tree));
    }
}
