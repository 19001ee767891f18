package net.commoninternet.ccci.extensions.driver.swarm;

import net.commoninternet.ccci.spi.LintResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.model.SecretSpec;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeTree;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.policy.ImageRegistry;
import net.commoninternet.ccci.extensions.policy.ProxyNetwork;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded swarm driver: what {@code abra app new|secret generate|deploy} do, done against
 * the local engine. Compose translation is the docker CLI's ({@code docker stack deploy});
 * everything else goes through docker-java.
 */
@API(status = API.Status.INTERNAL)
public final class SwarmDriver implements AppDriver {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmDriver.class);

    private final DockerEngine docker;
    private final ChildProcesses processes;
    private final BackupBot backupBot;
    private final Path servers;
    private final DeployPolicy policy;
    private final SecureRandom random = new SecureRandom();
    /** The run's network, on which its app and its cold dependencies are deployed; null: each app on a network of its own. */
    private volatile RunNetwork network;

    /**
     * @param backupDir where this run's backup repository lives (in its run folder)
     * @param servers the canonical abra servers directory (env files)
     * @param policy what the app's compose may ask of the host, checked before its secrets are made
     */
    public SwarmDriver(DockerEngine docker, ChildProcesses processes, Path backupDir, Path servers, DeployPolicy policy) {
        this.docker = docker;
        this.processes = processes;
        this.backupBot = new BackupBot(docker, processes, backupDir, policy.hookTimeout());
        this.servers = servers;
        this.policy = policy;
    }

    private SwarmDriver(SwarmDriver like, RunNetwork network) {
        this.docker = like.docker;
        this.processes = like.processes;
        this.backupBot = like.backupBot;
        this.servers = like.servers;
        this.policy = like.policy;
        this.network = network;
    }

    @Override
    public SwarmDriver onNetwork(RunNetwork network) {
        return new SwarmDriver(this, network);
    }

    /**
     * The run's network ({@link RunNetwork}): every app this driver deploys, the run's app and its
     * cold dependencies, joins it where its compose names the shared proxy. Set once, by the run,
     * before its first deploy; a driver without one gives each app it deploys a network of its own.
     */
    public SwarmDriver onRunNetwork(RunNetwork network) {
        this.network = network;
        return this;
    }

    /** The run's network, as set by {@link #onRunNetwork}. */
    @Override
    public RunNetwork network() {
        RunNetwork set = network;
        if (set == null) {
            throw new IllegalStateException("this driver was made without a run network: each app has one of its own");
        }
        return set;
    }

    private RunNetwork network(App app) {
        RunNetwork set = network;
        return set == null ? RunNetwork.of(app.stack()) : set;
    }

    /**
     * {@code abra app new} and {@code abra app secret generate}: the env file from
     * {@code .env.sample} (the sample's {@code <recipe>.example.com} replaced by the domain, as abra
     * does, and {@code TYPE} and {@code DOMAIN} set), then a generated value for every secret of
     * the app's compose whose {@code SECRET_<NAME>_VERSION} the env sets, under the name the
     * compose gives it, as long and from the alphabet its modifiers say ({@link SecretHints}).
     */
    @Override
    public App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abra) throws IOException, InterruptedException {
        String stack = AppNaming.stackName(domain);
        EnvFile env = EnvFile.read(RecipeTree.envSample(recipe, recipeDir));
        env.replaceText(recipe + ".example.com", domain).set("TYPE", recipe).set("DOMAIN", domain);
        Path file = abra.envFile(domain);
        env.write(file);
        App created = new App(recipe, domain, recipeDir, file, Map.of());
        Map<String, String> secrets = new LinkedHashMap<>();
        // the deploy policy before the first object of the app exists on the engine
        for (Map.Entry<String, String> secret : policy.check(created).secretNames().entrySet()) {
            String versionKey = "SECRET_" + secret.getKey().toUpperCase(Locale.ROOT) + "_VERSION";
            if (!env.values().containsKey(versionKey)) {
                LOG.warn("secret {} of {}: its env sets no {}, so it is not generated (as abra does)", secret.getKey(),
                        recipe, versionKey);
                continue;
            }
            SecretHints hints = SecretHints.of(versionKey, env.modifiers(versionKey), ".env.sample of " + recipe);
            String name = AppNaming.swarmName(secret.getValue());
            // a secret created here is labelled with the stack, so the teardown removes it even if a later one fails
            createSecret(name, hints.generate(random), stack, secrets);
        }
        LOG.info("app {} created: env {}, {} secret(s) generated", domain, file, secrets.size());
        return new App(recipe, domain, recipeDir, file, Map.copyOf(secrets));
    }

    /**
     * One deploy of the app's checked-out tree (what {@code abra app deploy -C -c} does), of exactly
     * the compose the run's policy judged ({@link DeployPolicy#writeDeployable}: its defaults added,
     * nothing left to interpolate), written next to the app's env file for the CLI and removed after.
     * Where the compose names the shared {@code proxy} network, the deploy joins the run's own
     * ({@link #onRunNetwork}) instead.
     */
    @Override
    public void deploy(App app) throws IOException, InterruptedException {
        ComposeConfig compose = policy.check(app);
        requireImages(compose);
        Path deployable = app.envFile().resolveSibling(app.domain() + ".deploy.yml");
        RunNetwork onto = network(app);
        // the run's own network, never the shared proxy: made under the run's claim of its app's domain, before the
        // first deploy (its cold dependencies come first), and removed with the app
        onto.create(docker.client());
        try {
            String defaults = policy.writeDeployable(app, compose, deployable,
                    new ProxyNetwork(onto.name(), onto.sharedToo(app.stack())));
            if (!defaults.isEmpty()) {
                LOG.info("ccci's limits for the services that set none, and what it lowered: {}", defaults);
            }
            List<String> command = List.of("docker", "stack", "deploy", "--prune", "--detach=true", "--resolve-image", "never",
                    "-c", deployable.toString(), app.stack());
            LOG.info("deploying {} (the judged compose of {})", app.stack(), String.join(", ", app.composeFiles()));
            // nothing to interpolate: the judged values are final, so the CLI gets no env of the recipe's
            processes.run(command, deployable.getParent(), Map.of(), Duration.ofMinutes(5)).orThrow();
        } finally {
            Files.deleteIfExists(deployable);
        }
    }

    /**
     * The command line of a deploy of the app as a person would run it from the recipe's files (in
     * its tree, with its {@link App#deployEnv()}): the engine-only floor the benchmarks time a run's
     * deploy against.
     */
    public static List<String> deployCommand(App app) throws IOException {
        List<String> command = new ArrayList<>(List.of("docker", "stack", "deploy", "--prune", "--detach=true",
                "--resolve-image", "never"));
        for (String compose : app.composeFiles()) {
            command.add("-c");
            command.add(compose);
        }
        command.add(app.stack());
        return command;
    }

    /**
     * Every image the app's final compose config names is on this host, or pulled now; else one
     * sentence naming the image.
     */
    void requireImages(ComposeConfig compose) throws InterruptedException {
        for (Map.Entry<String, JsonNode> service : compose.services()) {
            String image = service.getValue().path("image").asText("");
            Optional<String> missing = image.isEmpty() ? Optional.empty() : whyMissing(image);
            if (missing.isPresent()) {
                throw new IllegalStateException("image " + image + " of service " + service.getKey() + " is neither on"
                        + " this host nor pullable (" + missing.get() + "): build or load it first"
                        + " (scripts/setup-local-swarm builds the bundled recipes' images), or fix the image name.");
            }
        }
    }

    /** Empty if the image is on this host or was pulled now; else why it is not, in the engine's words. */
    private Optional<String> whyMissing(String image) throws InterruptedException {
        if (image.contains("..") || image.contains("?") || image.contains("#")) {
            return Optional.of("it is not an image reference");
        }
        try {
            // the engine's answer as a tree: docker-java's typed image model costs a cold JVM tens of
            // milliseconds to bind, on the path to the first deploy
            EngineLists.get(docker.http(), "/images/" + imagePath(image) + "/json", Map.of());
            return Optional.empty();
        } catch (com.github.dockerjava.api.exception.DockerException e) {
            if (e.getHttpStatus() != 404) {
                return Optional.of(DockerEngine.engineSays(e));
            }
            Optional<String> registry = ImageRegistry.host(image);
            if (registry.filter(ImageRegistry.LOCAL::equalsIgnoreCase).isPresent()) {
                return Optional.of(ImageRegistry.LOCAL + " images are built on this host, never pulled");
            }
            // the engine dials the registry from the host's own network, outside every container's egress rules
            Optional<String> refused = registry.flatMap(ImageRegistry::refusedAsResolved);
            if (refused.isPresent()) {
                return Optional.of("ccci does not have the engine pull from its registry: " + refused.get());
            }
            LOG.info("image {} not on this host: pulling", image);
            // closed either way: a pull still streaming when the run closes its engine connection is an ERROR line
            try (var pull = docker.client().pullImageCmd(image).start()) {
                return pull.awaitCompletion(2, TimeUnit.MINUTES)
                        ? Optional.empty() : Optional.of("the pull did not finish within 2 min");
            } catch (IOException closing) {
                return Optional.of("the pull's stream could not be closed: " + closing.getMessage());
            } catch (RuntimeException pullFailed) {
                return Optional.of("pulling it failed: " + DockerEngine.engineSays(pullFailed));
            }
        } catch (RuntimeException refused) {
            return Optional.of(DockerEngine.engineSays(refused));
        }
    }

    /** An image reference as the engine's path takes it: its name's slashes, tag and digest as they are, anything else escaped. */
    static String imagePath(String image) {
        return URLEncoder.encode(image, StandardCharsets.UTF_8).replace("+", "%20")
                .replace("%2F", "/").replace("%3A", ":").replace("%40", "@");
    }

    /** The run's restic repository, made on a thread of its own ({@link BackupBot#prepareRepository}). */
    @Override
    public void prepareBackup(App app) {
        backupBot.prepareRepository();
    }

    @Override
    public String backup(App app) throws IOException, InterruptedException {
        return backupBot.backup(app.stack()).id();
    }

    @Override
    public void restore(App app, String snapshotId) throws IOException, InterruptedException {
        backupBot.restore(app.stack(), snapshotId);
    }

    /** The embedded rules ({@link RecipeLint}), on the tree as it is checked out. */
    @Override
    public Map<String, LintResult> lint(App app, Optional<String> headRelease) throws IOException, InterruptedException {
        return RecipeLint.lint(app.recipeDir(), headRelease, new RecipeFetch(processes).lightweightReleaseTags(app.recipeDir()));
    }

    @Override
    public List<String> remove(String domain) throws IOException {
        backupBot.settle(); // a repository still being made is done before the run's teardown is
        return new StackTeardown(docker.client()).teardownApp(domain, servers);
    }

    private void createSecret(String name, String value, String stack, Map<String, String> created) {
        // SecretSpec.withData base64-encodes the value itself: pass it as it is, or the app reads
        // the base64 text as its secret (and the console filter, which knows the value, misses it).
        try {
            docker.client().createSecretCmd(new SecretSpec().withName(name).withData(value).withLabels(StackLabels.of(stack)))
                    .exec();
            created.put(name, value);
        } catch (ConflictException e) {
            throw new IllegalStateException("secret " + name + " already exists: a previous run of this domain left it;"
                    + " the janitor removes it when that run is dead.", e);
        }
    }

}
