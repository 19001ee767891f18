package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.lifecycle.RunBudget;
import net.commoninternet.ccci.lifecycle.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run's share of the host is judged on the sum over its services, on the compose as the real
 * docker CLI resolves it: replicas times memory limit plus every tmpfs (each form the compose has,
 * an unsized one at ccci's default), pids, reserved CPUs and tasks, a global service once per node.
 * A run over its share is refused in one sentence naming every service's part and the budget; a
 * service without a limit is given ccci's default or an equal share of what is left; and the
 * deployable compose carries exactly the values that were counted, read back by the CLI.
 */
class RunShareTest {

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());

    private static final String IMAGE = "    image: ccci.local/busybox:1\n";

    private App app(String compose) throws Exception {
        App app = TempApp.create(dir, "big", Map.of(), "TYPE=big", "DOMAIN=big-abc123.ci.example.org");
        Files.writeString(app.recipeDir().resolve("compose.yml"), "version: \"3.9\"\nservices:\n" + compose);
        return app;
    }

    private DeployPolicy policy(RunBudget budget, int nodes) {
        return new DeployPolicy(new RunSettings.HostTrust(Set.of(), DeployAllowance.NONE, Duration.ofMinutes(10), Set.of(),
                budget), children, () -> nodes);
    }

    private static RunBudget budget(long memory, long pids, double cpus, int tasks) {
        return new RunBudget(new RunBudget.Limits(memory, pids, cpus, tasks), RunBudget.DEFAULT.disk(), RunBudget.Logs.DEFAULT);
    }

    private String refusal(DeployPolicy policy, String compose) throws Exception {
        App app = app(compose);
        return assertThatThrownBy(() -> policy.check(app)).isInstanceOf(IllegalStateException.class).actual().getMessage();
    }

    /** The compose the swarm driver would deploy, as the docker CLI reads it back. */
    private JsonNode deployed(DeployPolicy policy, String compose) throws Exception {
        App app = app(compose);
        Path file = dir.resolve("deploy.yml");
        policy.writeDeployable(app, policy.check(app), file);
        ChildProcesses.Whole read = children.runWhole(List.of("docker", "stack", "config", "-c", file.toString()), dir,
                Map.of(), Duration.ofMinutes(1), ComposeFiles.MAX_BYTES);
        assertThat(read.ok()).as(read.stderr()).isTrue();
        return RecipeLabels.parse(read.stdout());
    }

    @Test
    void servicesEachWithinTheirBoundButOverTheRunsShareAreRefusedNamingEveryServiceAndTheBudget() throws Exception {
        String fleet = "  web:\n" + IMAGE + "    deploy:\n      replicas: 4\n      resources: {limits: {memory: 8G}}\n"
                + "  worker:\n" + IMAGE + "    deploy:\n      replicas: 4\n      resources: {limits: {memory: 4G}}\n"
                + "  cache:\n" + IMAGE;

        assertThat(refusal(policy(RunBudget.DEFAULT, 1), fleet)).isEqualTo("big: its services ask for more of the host than one"
                + " run's share, which every run beside it gets too: memory 48.1 GiB of 8 GiB (cache: 1 × no limit, at least 64 MiB"
                + " = 64 MiB, web: 4 × 8 GiB = 32 GiB, worker: 4 × 4 GiB = 16 GiB). Lower the replicas, limits,"
                + " reservations or tmpfs sizes until they fit, or ask this host's operator for a larger share"
                + " (-Dccci.budget.memory).");
    }

    @Test
    void everyFormOfTmpfsIsCountedAsMemoryAnUnsizedOneAtTheDefault() throws Exception {
        String compose = "  a:\n" + IMAGE + "    tmpfs: /run\n    deploy:\n      replicas: 2\n"
                + "      resources: {limits: {memory: 512M, pids: 100}}\n"
                + "  b:\n" + IMAGE + "    tmpfs: [\"/x:size=64m,mode=1777\", /y, \"/z:size=50%\"]\n"
                + "    volumes:\n      - {type: tmpfs, target: /t, tmpfs: {size: 1073741824}}\n      - {type: tmpfs, target: /u}\n"
                + "    deploy:\n      resources: {limits: {memory: 256M, pids: 100}}\n";
        // a: 2 × (512 MiB + 256 MiB); b: 256 MiB + 64 MiB + 256 MiB + 256 MiB + 1 GiB + 256 MiB
        long counted = 2 * (768L << 20) + (256L << 20) + (64L << 20) + 2 * (256L << 20) + (1L << 30) + (256L << 20);

        assertThat(deployed(policy(budget(counted, 4096, 2, 16), 1), compose).path("services")).hasSize(2);
        String refused = refusal(policy(budget(counted - 1, 4096, 2, 16), 1), compose);
        assertThat(refused).contains("memory " + RunBudget.shown(counted) + " of ", "a: 2 × (512 MiB + tmpfs 256 MiB) = 1.5 GiB",
                "b: 1 × (256 MiB + tmpfs 1.8 GiB) = 2.1 GiB");

        JsonNode deployed = deployed(policy(budget(counted, 4096, 2, 16), 1), compose);
        // every tmpfs has the size it was counted at: an unsized one ccci's, the recipe's own kept
        assertThat(deployed.at("/services/a/tmpfs/0").asText()).isEqualTo("/run:size=" + (256L << 20));
        assertThat(deployed.at("/services/b/tmpfs").toString()).isEqualTo("[\"/x:size=64m,mode=1777\",\"/y:size=268435456\","
                + "\"/z:size=268435456\"]");
        assertThat(deployed.at("/services/b/volumes/0/tmpfs/size").asLong()).isEqualTo(1L << 30);
        assertThat(deployed.at("/services/b/volumes/1/tmpfs/size").asLong()).isEqualTo(256L << 20);
    }

    @Test
    void aGlobalServiceIsCountedOncePerNodeOfTheSwarm() throws Exception {
        String compose = "  agent:\n" + IMAGE + "    deploy:\n      mode: global\n      resources: {limits: {memory: 1G},"
                + " reservations: {cpus: '0.5'}}\n  app:\n" + IMAGE + "    deploy:\n      replicas: 2\n";
        AtomicInteger asked = new AtomicInteger();
        DeployPolicy threeNodes = new DeployPolicy(new RunSettings.HostTrust(Set.of(), DeployAllowance.NONE,
                Duration.ofMinutes(10), Set.of(), budget(8L << 30, 4096, 1, 4)), children, () -> {
                    asked.incrementAndGet();
                    return 3;
                });

        String refused = refusal(threeNodes, compose);

        assertThat(refused).contains("reserved CPUs 1.5 of 1 (agent: 3 (global, one per node) × 0.5 = 1.5, app: 2 × 0 = 0)",
                "tasks 5 of 4 (agent: 3 (global, one per node), app: 2)", "(-Dccci.budget.cpus, -Dccci.budget.tasks)");
        assertThat(asked).hasValue(1);
        // without a global service the nodes are never counted
        new DeployPolicy(new RunSettings.HostTrust(Set.of(), DeployAllowance.NONE, Duration.ofMinutes(10), Set.of(),
                RunBudget.DEFAULT), children, () -> {
                    throw new AssertionError("the nodes were counted");
                }).check(app("  app:\n" + IMAGE));
    }

    @Test
    void processesAreSummedOverReplicasAndServices() throws Exception {
        String compose = "  a:\n" + IMAGE + "    deploy:\n      replicas: 4\n      resources: {limits: {pids: 4096}}\n";

        assertThat(refusal(policy(RunBudget.DEFAULT, 1), compose)).contains("processes 16384 of 4096 (a: 4 × 4096 = 16384)",
                "(-Dccci.budget.pids)");
    }

    @Test
    void servicesWithoutLimitsShareWhatIsLeftAndAreRefusedOnlyWhenTheyCouldNotStart() throws Exception {
        StringBuilder ten = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            ten.append("  s").append(i).append(":\n").append(IMAGE);
        }
        ten.append("  big:\n").append(IMAGE).append("    deploy:\n      resources: {limits: {memory: 2G, pids: 2048}}\n");

        JsonNode deployed = deployed(policy(RunBudget.DEFAULT, 1), ten.toString());

        // 6 GiB left for ten services: 614 MiB each; 2048 processes left: 204 each
        assertThat(deployed.at("/services/s0/deploy/resources/limits/memory").asLong()).isEqualTo(614L << 20);
        assertThat(deployed.at("/services/s9/deploy/resources/limits/pids").asLong()).isEqualTo(204);
        assertThat(deployed.at("/services/big/deploy/resources/limits/memory").asLong()).isEqualTo(2L << 30);
        // a few services get ccci's own default
        JsonNode two = deployed(policy(RunBudget.DEFAULT, 1), "  a:\n" + IMAGE + "  b:\n" + IMAGE);
        assertThat(two.at("/services/a/deploy/resources/limits/memory").asLong()).isEqualTo(1L << 30);
        assertThat(two.at("/services/b/deploy/resources/limits/pids").asLong()).isEqualTo(1024);
        // below what a service needs to start, the run is over its share
        assertThat(refusal(policy(budget(256L << 20, 4096, 2, 16), 1), ten.toString()))
                .contains("memory 2.6 GiB of 256 MiB (big: 1 × 2 GiB = 2 GiB, s0: 1 × no limit, at least 64 MiB = 64 MiB, ");
    }

    @Test
    void aLimitOfZeroIsNoLimitAndGetsTheDefault() throws Exception {
        JsonNode deployed = deployed(policy(RunBudget.DEFAULT, 1), "  a:\n" + IMAGE
                + "    deploy:\n      resources: {limits: {memory: \"0\", pids: 0}}\n");

        assertThat(deployed.at("/services/a/deploy/resources/limits/memory").asLong()).isEqualTo(1L << 30);
        assertThat(deployed.at("/services/a/deploy/resources/limits/pids").asLong()).isEqualTo(1024);
    }

    /**
     * Every service's log is rotated at the host's bound; a recipe's smaller rotation is kept, a
     * larger one lowered (and said), the local driver bounded the same way.
     */
    @Test
    void everyServiceGetsTheHostsLogRotationAndARecipeMayOnlyLowerIt() throws Exception {
        DeployPolicy policy = policy(RunBudget.DEFAULT, 1);
        App app = app("  quiet:\n" + IMAGE + "  chatty:\n" + IMAGE
                + "    logging: {driver: json-file, options: {max-size: 1g, max-file: \"100\", compress: \"true\"}}\n"
                + "  small:\n" + IMAGE + "    logging: {options: {max-size: 1m, max-file: \"2\"}}\n"
                + "  local:\n" + IMAGE + "    logging: {driver: local}\n");
        Path file = dir.resolve("deploy.yml");

        String said = policy.writeDeployable(app, policy.check(app), file);

        assertThat(said).endsWith("lowered to this host's bound: chatty: logging max-size 1g to 10m, chatty: logging"
                + " max-file 100 to 3");
        JsonNode deployed = RecipeLabels.parse(children.runWhole(List.of("docker", "stack", "config", "-c", file.toString()),
                dir, Map.of(), Duration.ofMinutes(1), ComposeFiles.MAX_BYTES).stdout());
        assertThat(deployed.at("/services/quiet/logging").toString())
                .isEqualTo("{\"driver\":\"json-file\",\"options\":{\"max-file\":\"3\",\"max-size\":\"10m\"}}");
        assertThat(deployed.at("/services/chatty/logging/options").toString())
                .isEqualTo("{\"compress\":\"true\",\"max-file\":\"3\",\"max-size\":\"10m\"}");
        assertThat(deployed.at("/services/small/logging/options").toString())
                .isEqualTo("{\"max-file\":\"2\",\"max-size\":\"1m\"}");
        assertThat(deployed.at("/services/local/logging").toString())
                .isEqualTo("{\"driver\":\"local\",\"options\":{\"max-file\":\"3\",\"max-size\":\"10m\"}}");
    }

    @Test
    void aLogOptionThatIsNotASizeOrTakesTheEnginesMemoryIsRefused() throws Exception {
        DeployPolicy policy = policy(RunBudget.DEFAULT, 1);
        assertThat(refusal(policy, "  a:\n" + IMAGE + "    logging: {options: {max-size: huge}}\n"))
                .contains("(logging.options.max-size), which is not a value ccci accepts there (a size such as 10m)");
        assertThat(refusal(policy, "  a:\n" + IMAGE + "    logging: {options: {mode: non-blocking, max-buffer-size: 4g}}\n"))
                .contains("buffers its log in the engine's memory up to 4g (logging.options.max-buffer-size)");
        assertThat(refusal(policy, "  a:\n" + IMAGE + "    logging: {options: {max-file: \"-1\"}}\n"))
                .contains("(logging.options.max-file)");
    }
}
