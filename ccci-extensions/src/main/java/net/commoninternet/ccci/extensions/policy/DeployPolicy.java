package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import net.commoninternet.ccci.lifecycle.RunBudget;
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
    private final RunBudget budget;
    private final RunSettings.Bounds bounds;
    private final ChildProcesses children;
    private final RunShare.Nodes nodes;

    /** The host's policy: its allowance, the bound of a recipe's hooks, one run's share of the host and its other bounds. */
    public DeployPolicy(RunSettings.HostTrust trust, ChildProcesses children) {
        this(trust, children, () -> swarmNodes(children));
    }

    /** {@code nodes}: how many nodes a global service runs on. */
    DeployPolicy(RunSettings.HostTrust trust, ChildProcesses children, RunShare.Nodes nodes) {
        this.allowance = trust.deployAllowance();
        this.hookTimeout = trust.hookTimeout();
        this.budget = trust.budget();
        this.bounds = trust.bounds();
        this.children = children;
        this.nodes = nodes;
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
        ComposeJudging judging = new ComposeJudging(app, compose.tree());
        ComposeAllowlist.findings(judging);
        // one entry serves every run of the recipe: ${STACK_NAME} and ${DOMAIN} stand for this run's
        DeployAllowance forRun = allowance.forRun(app.stack(), app.domain());
        List<Finding> refused = new ArrayList<>();
        for (Finding finding : judging.findings()) {
            Optional<DeployAllowance.Entry> allowed = forRun.allowing(app.recipe(), finding.key(), finding.value());
            if (allowed.isEmpty()) {
                refused.add(finding);
            } else {
                LOG.warn("!! deploy allowance {} (set on this host): {} {} {} — allowed, not refused !!", allowed.get(),
                        finding.where(), finding.what(), finding.value());
            }
        }
        for (String note : judging.notes()) {
            LOG.warn("lint: {}: {}", app.recipe(), note);
        }
        if (!refused.isEmpty()) {
            throw new IllegalStateException(Finding.refusal(app, refused));
        }
        defaults(app, compose);
    }

    /** The lint findings of the app's compose: what it holds that nothing on this host reads or acts on. */
    public static List<String> notes(App app, ComposeConfig compose) throws IOException {
        ComposeJudging judging = new ComposeJudging(app, compose.tree());
        ComposeAllowlist.findings(judging);
        return judging.notes();
    }

    /**
     * What ccci gives the services of the judged compose (limits, tmpfs sizes, log rotation), once the
     * sum over them fits one run's share of the host ({@link RunShare}); else one sentence naming every
     * service's part.
     */
    ResourceBounds.Defaults defaults(App app, ComposeConfig judged) throws IOException {
        try {
            return RunShare.judge(app.recipe(), RunShare.parts(judged.tree(), nodes), budget);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while counting the swarm's nodes", e);
        }
    }

    /**
     * Writes the compose a deploy of {@code judged} gets ({@link ComposeConfig#writeDeployable}), with
     * what ccci gives its services; returns, for the log, what it gave and lowered.
     */
    public String writeDeployable(App app, ComposeConfig judged, Path file) throws IOException {
        return writeDeployable(app, judged, file, ProxyNetwork.AS_WRITTEN);
    }

    /**
     * {@link #writeDeployable(App, ComposeConfig, Path)}, joining {@code proxy} where the recipe names
     * the shared proxy network: the run's own network ({@link ProxyNetwork}).
     */
    public String writeDeployable(App app, ComposeConfig judged, Path file, ProxyNetwork proxy) throws IOException {
        return judged.writeDeployable(file, defaults(app, judged), proxy);
    }

    /** ccci's defaults for {@code judged} as a compose overlay (for the abra driver), or null if none. */
    public JsonNode limitsOverlay(App app, ComposeConfig judged) throws IOException {
        return ResourceBounds.overlay(judged.tree(), defaults(app, judged));
    }

    /**
     * How many nodes a global service of the run would run on: every node of the swarm that is not
     * drained (its placement constraints may name fewer: counting every one is the bound), as the
     * run's engine says.
     */
    private static int swarmNodes(ChildProcesses children) throws IOException, InterruptedException {
        ChildProcesses.Whole listed = children.runWhole(List.of("docker", "node", "ls", "--format", "{{.Availability}}"),
                Path.of("/"), Map.of(), Duration.ofMinutes(1), 1 << 20);
        if (!listed.ok()) {
            throw new IOException("the swarm's nodes, which a global service runs on, could not be counted: "
                    + listed.stderr().strip());
        }
        return (int) listed.stdout().lines().map(String::strip).filter(a -> !a.isEmpty() && !a.equalsIgnoreCase("drain"))
                .count();
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

        /**
         * The allowance entry that lets exactly this through, as the operator writes it: the run's stack
         * and domain as {@code ${STACK_NAME}} and {@code ${DOMAIN}}, so the entry serves every run.
         */
        String entry(App app) {
            return DeployAllowance.Entry.forRun(app.recipe(), key, value, app.stack(), app.domain()).toString();
        }

        /** The sentence for this finding, ending with the allowance that would let it through, quoted for a shell. */
        String sentence(App app) {
            String entry = entry(app);
            // -Dccci.deploy-allowance is a comma-separated list: an entry with a comma goes in the host's file
            String allow = entry.contains(",") ? "add the line " + ShellWords.quoted(entry) + " to the host's deploy"
                    + " allowance file (-Dccci.deploy-allowance-file, by default /etc/ccci/deploy-allowance)"
                    : "run with -Dccci.deploy-allowance=" + ShellWords.quoted(entry);
            return where + " " + reason.what() + " " + value + " (" + key + "), which " + reason.why() + ": " + reason.fix()
                    + " If this host's operator trusts " + app.recipe() + " with it, " + allow + ".";
        }

        /**
         * The refusal of a compose: every finding at once (an operator fixes or allows them all in one
         * go, not one per run), each with its allowance entry; one finding is one sentence.
         */
        static String refusal(App app, List<Finding> refused) {
            String recipe = app.recipe();
            if (refused.size() == 1) {
                return recipe + ": " + refused.get(0).sentence(app);
            }
            StringBuilder text = new StringBuilder(recipe + ": the deploy policy refuses " + refused.size()
                    + " things of its compose, before anything of the app exists on the engine:");
            List<String> entries = new ArrayList<>();
            for (int i = 0; i < refused.size(); i++) {
                text.append("\n  ").append(i + 1).append(". ").append(refused.get(i).sentence(app));
                entries.add(refused.get(i).entry(app));
            }
            if (entries.stream().noneMatch(e -> e.contains(","))) {
                text.append("\nTo allow all of them: -Dccci.deploy-allowance=").append(ShellWords.quoted(
                        String.join(",", entries.stream().distinct().toList())));
            }
            return text.toString();
        }
    }

    /** Everything of the final compose ccci refuses, in file order. */
    static List<Finding> findings(App app, JsonNode tree) throws IOException {
        return ComposeAllowlist.findings(new ComposeJudging(app, tree));
    }
}
