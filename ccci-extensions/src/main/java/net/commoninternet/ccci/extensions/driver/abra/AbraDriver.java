package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.lint.CcciRules;
import net.commoninternet.ccci.extensions.lint.LintedRecipe;
import net.commoninternet.ccci.extensions.children.ChildEnvironment;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DomainFence;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.workspace.RecipeSetup;
import net.commoninternet.ccci.spi.LintResult;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The abra driver ({@code ccci.driver=abra}): what the production host runs. Every command line
 * and output format lives in {@link AbraCli}; this class only maps the driver's operations onto
 * them. Not exercised against a real abra here (none can be installed): see docs/abra-driver.md
 * for exactly what is and is not verified.
 */
@API(status = API.Status.INTERNAL)
public final class AbraDriver implements AppDriver {

    private static final Logger LOG = LoggerFactory.getLogger(AbraDriver.class);
    /** The abra executable, found on the PATH. */
    static final String ABRA = "abra";

    private final AbraCommands abra;
    private final AbraCommands lint;
    private final StackTeardown teardown;
    private final Path servers;
    private final DeployPolicy policy;

    /** @param policy what the app's compose may ask of the host, checked before abra makes its secrets */
    public AbraDriver(ChildProcesses processes, StackTeardown teardown, Path servers, DeployPolicy policy) {
        this(new AbraCommands(new AbraCli(ABRA), processes, Duration.ofMinutes(15)), AbraRecipeLint.commands(processes),
                teardown, servers, policy);
    }

    /** With the abra commands given: a test's stand-in abra ({@code FakeAbra}). */
    AbraDriver(AbraCommands abra, AbraCommands lint, StackTeardown teardown, Path servers, DeployPolicy policy) {
        this.abra = abra;
        this.lint = lint;
        this.teardown = teardown;
        this.servers = servers;
        this.policy = policy;
    }

    /** Checked before a run creates anything: the driver is useless without the binary. */
    public static void requireBinary(String searchPath) {
        boolean found = Arrays.stream(searchPath.split(":")).filter(dir -> !dir.isEmpty())
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, ABRA)));
        if (!found) {
            throw new IllegalStateException("ccci.driver=abra needs the abra CLI on PATH: install abra, or run with"
                    + " -Dccci.driver=swarm (the embedded driver).");
        }
    }

    @Override
    public App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abraDir) throws IOException, InterruptedException {
        abra.newApp(recipe, RunAbraDir.SERVER, domain);
        Path envFile = abraDir.envFile(domain);
        // the env file only so far: the deploy policy before the first object of the app exists on the engine
        App created = new App(recipe, domain, recipeDir, envFile, Map.of());
        refuseSteering(created);
        policy.check(created);
        abra.generateSecrets(domain);
        // abra prints the generated values but ccci does not parse them: no secret values to scan for.
        return new App(recipe, domain, recipeDir, envFile, Map.of());
    }

    /** {@code abra app deploy}, with ccci's default limits as the last overlay for the services that set none. */
    @Override
    public void deploy(App app) throws IOException, InterruptedException {
        refuseSteering(app);
        RecipeSetup.applyLimits(app, policy.limitsOverlay(app, policy.check(app)));
        abra.deploy(app.domain());
    }

    /**
     * abra reads the app's env file itself, a program ccci does not control: ccci cannot keep a value
     * whose name steers a program ({@code DOCKER_HOST}, {@code LD_PRELOAD}, ...) from steering abra, as
     * it does for its own docker CLI (the swarm driver interpolates in ccci's JVM). So with this driver
     * such a name is refused, naming the driver that runs it.
     */
    private static void refuseSteering(App app) throws IOException {
        for (String name : new java.util.TreeSet<>(app.deployEnv().keySet())) {
            if (ChildEnvironment.steersAChild(name)) {
                throw new IllegalStateException(app.recipe() + ": its env sets " + name + ", and with the abra driver abra"
                        + " reads the app's env itself, where " + name + " could steer abra rather than feed the compose:"
                        + " run it with the embedded driver (-Dccci.driver=swarm), which only interpolates the compose"
                        + " with it, or rename it in .env.sample and the compose.");
            }
        }
    }

    @Override
    public String backup(App app) throws IOException, InterruptedException {
        return abra.backup(app.domain()).id();
    }

    /** abra restores the latest snapshot (see abra-driver.md); a run makes exactly one backup before it. */
    @Override
    public void restore(App app, String snapshotId) throws IOException, InterruptedException {
        abra.restore(app.domain());
    }

    /**
     * {@code abra recipe lint} on the run's recipe tree, as production lints ({@link AbraRecipeLint}),
     * and ccci's own checks beside it on the same tree.
     */
    @Override
    public Map<String, LintResult> lint(App app, Optional<String> headRelease)
            throws IOException, InterruptedException {
        Map<String, LintResult> results = new LinkedHashMap<>(AbraRecipeLint.lint(lint, app.recipe()));
        results.putAll(CcciRules.lint(LintedRecipe.read(app.recipeDir()), headRelease));
        return results;
    }

    /**
     * abra's undeploy and rm, then the swarm-level teardown as the backstop for whatever abra left.
     * Each abra call is fenced as each pass of the teardown is ({@link DomainFence}): once this
     * process's lease on the domain is no longer confirmed the app may be another run's by now (a
     * host that took the lapsed lease and deployed), and abra would remove that run's live app.
     */
    @Override
    public List<String> remove(String domain) throws IOException, InterruptedException {
        String stack = AppNaming.stackName(domain);
        try {
            if (DomainFence.mayAct(stack)) {
                abra.undeploy(domain);
            }
            if (DomainFence.mayAct(stack)) {
                abra.remove(domain);
            }
        } catch (IOException e) { // AbraException, or abra timing out
            LOG.warn("abra could not remove {} ({}); removing it through the engine", domain, e.getMessage());
        }
        // fenced, it removes nothing either and says why in what it reports left
        return teardown.teardownApp(domain, servers);
    }
}
