package net.commoninternet.ccci.extensions.driver.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.model.SecretSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.driver.AppDriver;
import net.commoninternet.ccci.extensions.lifetime.ChildProcesses;
import net.commoninternet.ccci.extensions.swarm.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.workspace.App;
import net.commoninternet.ccci.extensions.workspace.AppEnv;
import net.commoninternet.ccci.extensions.workspace.AppNaming;
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
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern SECRET_VERSION = Pattern.compile("SECRET_([A-Z0-9_]+)_VERSION");
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final DockerEngine docker;
    private final ChildProcesses processes;
    private final BackupBot backupBot;
    private final Path servers;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param backupDir where this run's backup repository lives (in its run folder)
     * @param servers the canonical abra servers directory (env files)
     */
    public SwarmDriver(DockerEngine docker, ChildProcesses processes, Path backupDir, Path servers) {
        this.docker = docker;
        this.processes = processes;
        this.backupBot = new BackupBot(docker, processes, backupDir);
        this.servers = servers;
    }


    /**
     * {@code abra app new}: the env file from {@code .env.sample} with {@code TYPE} and
     * {@code DOMAIN} set, and a generated value for every {@code SECRET_<NAME>_VERSION}.
     */
    @Override
    public App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abra) throws IOException {
        String stack = AppNaming.stackName(domain);
        Path sample = recipeDir.resolve(".env.sample");
        AppEnv env = Files.isRegularFile(sample) ? AppEnv.read(sample) : AppEnv.empty();
        env.set("TYPE", recipe).set("DOMAIN", domain);
        Path file = abra.envFile(domain);
        env.write(file);
        Map<String, String> values = env.values();
        Map<String, String> secrets = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            Matcher m = SECRET_VERSION.matcher(e.getKey());
            if (m.matches()) {
                String name = AppNaming.objectName(stack, m.group(1).toLowerCase() + "_" + e.getValue());
                String value = generate(32);
                createSecret(name, value, stack);
                secrets.put(name, value);
            }
        }
        LOG.info("app {} created: env {}, {} secret(s) generated", domain, file, secrets.size());
        return new App(recipe, domain, recipeDir, file, Map.copyOf(secrets));
    }

    /** One deploy of the app's checked-out tree (what {@code abra app deploy -C -c} does). */
    @Override
    public void deploy(App app) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker", "stack", "deploy", "--prune", "--detach=true",
                "--resolve-image", "never"));
        for (String compose : composeFiles(app)) {
            command.add("-c");
            command.add(compose);
        }
        command.add(app.stack());
        Map<String, String> env = app.deployEnv();
        requireImages(app);
        LOG.info("deploying {} ({})", app.stack(), String.join(" ", command.subList(3, command.size())));
        processes.run(command, app.recipeDir(), env, Duration.ofMinutes(5)).orThrow();
    }

    /**
     * Every image the app's final compose config names is on this host, or pulled now; else one
     * sentence naming the image. Reading the config ({@code docker stack config}: merged and
     * interpolated, as the deploy will see it) also stops a compose file that does not parse
     * before anything is deployed.
     */
    void requireImages(App app) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker", "stack", "config"));
        for (String compose : composeFiles(app)) {
            command.add("-c");
            command.add(compose);
        }
        ChildProcesses.Result config = processes.run(command, app.recipeDir(), app.deployEnv(), Duration.ofMinutes(1));
        if (!config.ok()) {
            throw new IOException("the compose files of " + app.recipe() + " (" + String.join(", ", composeFiles(app))
                    + ") do not parse: " + config.output().strip() + " — fix the recipe's compose file.");
        }
        JsonNode services = YAML.readTree(config.output()).path("services");
        for (Map.Entry<String, JsonNode> service : (Iterable<Map.Entry<String, JsonNode>>) services::fields) {
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
        try {
            docker.client().inspectImageCmd(image).exec();
            return Optional.empty();
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            LOG.info("image {} not on this host: pulling", image);
            try {
                return docker.client().pullImageCmd(image).start().awaitCompletion(2, java.util.concurrent.TimeUnit.MINUTES)
                        ? Optional.empty() : Optional.of("the pull did not finish within 2 min");
            } catch (RuntimeException pullFailed) {
                return Optional.of("pulling it failed: " + DockerEngine.engineSays(pullFailed));
            }
        } catch (RuntimeException refused) {
            return Optional.of(DockerEngine.engineSays(refused));
        }
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
    public Map<String, Optional<String>> lint(App app, Optional<String> headRelease) throws IOException {
        return RecipeLint.lint(app.recipeDir(), headRelease);
    }

    @Override
    public List<String> remove(String domain) throws IOException {
        return new StackTeardown(docker.client()).teardownApp(domain, servers);
    }

    /**
     * {@code COMPOSE_FILE} from the env file (colon-separated, relative to the recipe), as abra
     * reads it; {@link RecipeSetup} has added the CI overlays to it.
     */
    static List<String> composeFiles(App app) throws IOException {
        return List.of(app.deployEnv().getOrDefault("COMPOSE_FILE", "compose.yml").split(":"));
    }

    private void createSecret(String name, String value, String stack) {
        // SecretSpec.withData base64-encodes the value itself: pass it as it is, or the app reads
        // the base64 text as its secret (and the console filter, which knows the value, misses it).
        try {
            docker.client().createSecretCmd(new SecretSpec().withName(name).withData(value).withLabels(StackLabels.of(stack)))
                    .exec();
        } catch (ConflictException e) {
            throw new IllegalStateException("secret " + name + " already exists: a previous run of this domain left it;"
                    + " the janitor removes it when that run is dead.", e);
        }
    }

    private String generate(int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }
}
