package net.commoninternet.ccci.extensions;

import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.model.SecretSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded swarm driver: what {@code abra app new|secret generate|deploy} do, done against
 * the local engine. Compose translation is the docker CLI's ({@code docker stack deploy});
 * everything else goes through docker-java.
 */
final class SwarmDriver {

    private static final Logger LOG = LoggerFactory.getLogger(SwarmDriver.class);
    static final String SERVER = "default";
    private static final Pattern SECRET_VERSION = Pattern.compile("SECRET_([A-Z0-9_]+)_VERSION");
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private final DockerEngine docker;
    private final ChildProcesses processes;
    private final RunState state;
    private final SecureRandom random = new SecureRandom();

    SwarmDriver(DockerEngine docker, ChildProcesses processes, RunState state) {
        this.docker = docker;
        this.processes = processes;
        this.state = state;
    }

    static Path envFile(RunAbraDir abra, String domain) {
        return abra.servers().resolve(SERVER).resolve(domain + ".env");
    }

    /**
     * {@code abra app new}: the env file from {@code .env.sample} with {@code TYPE} and
     * {@code DOMAIN} set, and a generated value for every {@code SECRET_<NAME>_VERSION}.
     */
    App newApp(String recipe, String domain, Path recipeDir, RunAbraDir abra) throws IOException {
        String stack = AppNaming.stackName(domain);
        Path sample = recipeDir.resolve(".env.sample");
        AppEnv env = Files.isRegularFile(sample) ? AppEnv.read(sample) : AppEnv.empty();
        env.set("TYPE", recipe).set("DOMAIN", domain);
        Path file = envFile(abra, domain);
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
        Map<String, String> deployEnv = new HashMap<>(values);
        deployEnv.put("STACK_NAME", stack);
        LOG.info("app {} created: env {}, {} secret(s) generated", domain, file, secrets.size());
        return new App(recipe, domain, stack, recipeDir, file, Map.copyOf(deployEnv), Map.copyOf(secrets));
    }

    /** One deploy of the app's checked-out tree (what {@code abra app deploy -C -c} does). */
    void deploy(App app) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker", "stack", "deploy", "--prune", "--detach=true",
                "--resolve-image", "never"));
        for (String compose : composeFiles(app)) {
            command.add("-c");
            command.add(compose);
        }
        command.add(app.stack());
        // Counted before the CLI runs: a deploy that fails half-way has still changed the stack.
        int count = state.countDeploy();
        LOG.info("deploying {} (deploy {} of this run: {})", app.stack(), count,
                String.join(" ", command.subList(3, command.size())));
        processes.run(command, app.recipeDir(), app.deployEnv(), Duration.ofMinutes(5)).orThrow();
    }

    /** {@code COMPOSE_FILE} from the env (colon-separated), then the ccci overlay if the recipe has one. */
    static List<String> composeFiles(App app) {
        List<String> files = new ArrayList<>(List.of(app.deployEnv().getOrDefault("COMPOSE_FILE", "compose.yml").split(":")));
        if (Files.isRegularFile(app.recipeDir().resolve("compose.ccci.yml")) && !files.contains("compose.ccci.yml")) {
            files.add("compose.ccci.yml");
        }
        return files;
    }

    private void createSecret(String name, String value, String stack) {
        String data = Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
        try {
            docker.client().createSecretCmd(new SecretSpec().withName(name).withData(data).withLabels(StackLabels.of(stack)))
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
