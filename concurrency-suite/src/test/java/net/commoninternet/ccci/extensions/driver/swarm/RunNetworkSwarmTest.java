package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.docker.EngineLists;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.extensions.probe.HttpProbe;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.swarm.RunNetwork;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.swarm.StackTeardown;
import net.commoninternet.ccci.extensions.swarm.SwarmConvergence;
import net.commoninternet.ccci.extensions.workspace.RunAbraDir;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.RealEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One network per run, on the real swarm, with apps deployed the way runs deploy them (the swarm
 * driver: the judged compose, its {@code proxy} given the run's own network). A recipe's container
 * reaches neither another run's app nor a warm app on the shared {@code proxy}: not by the
 * {@code tasks.} name anyone can compute, not by a task's address; each is reachable where it
 * should be (the other run's from its own network, the warm app's from the shared proxy), so the
 * refusal is the network's. A run's cold dependency is on the run's network and the app reaches
 * it; a run that uses a warm app reaches it from the services that join the proxy, and only from
 * those. The run's network is the app's: labelled with its stack, and gone with its teardown, the
 * dependency's services it waits for said and not waited on.
 *
 * <p>Domains outside the run-app pattern: no janitor of another run's sweeps them.
 */
@RealEngine
class RunNetworkSwarmTest {

    private static final String PRIVATE = "private page of ";

    @TempDir
    Path runDir;

    private final String id = Long.toHexString(System.nanoTime());
    private final String victim = "nwv" + id + ".ccci.invalid";
    private final String attacker = "nwa" + id + ".ccci.invalid";
    private final String dependency = "nwd" + id + ".ccci.invalid";
    private final String warm = "nww" + id + "_ccci_invalid";
    private final ChildProcesses processes = new ChildProcesses(Map.of());
    private final List<String> stacks = new ArrayList<>();
    private DockerEngine docker;
    private RunAbraDir abra;

    @BeforeEach
    void connect() throws Exception {
        docker = DockerEngine.connect();
        abra = RunAbraDir.create(runDir, runDir.resolve("canonical"));
    }

    @AfterEach
    void removeEverything() throws Exception {
        try {
            StackTeardown teardown = new StackTeardown(docker.client());
            // dependents after the apps whose networks they join
            for (String stack : stacks) {
                teardown.teardown(stack);
            }
            for (String stack : stacks) {
                assertThat(teardown.teardown(stack)).as("what is left of " + stack).isEmpty();
            }
        } finally {
            docker.close();
        }
    }

    @Test
    void aRecipesContainerReachesNeitherAnotherRunsAppNorAWarmAppOnTheProxy() throws Exception {
        deployWarm();
        SwarmDriver victimRun = driver(victim);
        victimRun.deploy(app(victimRun, victim, "victim", server(victim)));
        SwarmDriver attackerRun = driver(attacker);
        attackerRun.deploy(app(attackerRun, attacker, "attacker", SLEEPER));
        awaitConverged(stack(victim));
        awaitConverged(stack(attacker));
        awaitConverged(warm);

        String from = new ContainerExec(docker.client()).runningContainer(stack(attacker) + "_app");
        for (String target : List.of("tasks." + stack(victim) + "_app", taskAddress(stack(victim) + "_app"),
                "tasks." + warm + "_app", taskAddress(warm + "_app"))) {
            ContainerExec.Result fetched = fetch(from, target);
            assertThat(fetched.ok()).as("the attacker's fetch of http://%s/: %s", target, fetched.output()).isFalse();
            assertThat(fetched.output()).doesNotContain(PRIVATE);
        }
        assertThat(networksOf(from)).as("the attacker's container's networks").containsOnlyKeys(stack(attacker) + "_proxy");

        // where each should be reached, it is: the victim from its own network, the warm app from the shared proxy
        try (HttpProbe own = new HttpProbe(docker.client(), LocalImages.BUSYBOX, RunNetwork.of(stack(victim)).name());
                HttpProbe shared = new HttpProbe(docker.client(), LocalImages.BUSYBOX, RunNetwork.PROXY)) {
            HttpProbe.Answer page = own.await(own.target(stack(victim)).orElseThrow(), victim, "/", List.of(200),
                    Duration.ofMinutes(1));
            assertThat(page.body()).as(page.detail()).contains(PRIVATE + victim);
            HttpProbe.Answer warmPage = shared.await(new HttpProbe.Target(warm, warm + "_app", 80), "warm", "/", List.of(200),
                    Duration.ofMinutes(1));
            assertThat(warmPage.body()).as(warmPage.detail()).contains(PRIVATE + warm);
        }
    }

    @Test
    void theRunsColdDependencyAndItsWarmAppAreReachedAndItsNetworkGoesWithItsTeardown() throws Exception {
        deployWarm();
        // one driver, one run: the app's network is the run's, its dependency deployed on it first
        SwarmDriver run = driver(victim);
        run.deploy(app(run, dependency, "dependency", server(dependency)));
        run.network().alsoShared(warm);
        run.deploy(app(run, victim, "victim", server(victim)));
        awaitConverged(stack(dependency));
        awaitConverged(stack(victim));
        awaitConverged(warm);

        JsonNode network = EngineLists.get(docker.http(), "/networks/" + stack(victim) + "_proxy", Map.of());
        assertThat(network.path("Labels").path(StackLabels.NAMESPACE).asText()).isEqualTo(stack(victim));
        assertThat(network.path("Attachable").asBoolean()).isTrue();
        String app = new ContainerExec(docker.client()).runningContainer(stack(victim) + "_app");
        assertThat(networksOf(app)).containsOnlyKeys(stack(victim) + "_proxy", RunNetwork.PROXY);
        assertThat(reach(app, "tasks." + stack(dependency) + "_app").output()).contains(PRIVATE + dependency);
        assertThat(reach(app, "tasks." + warm + "_app").output()).contains(PRIVATE + warm);
        String dep = new ContainerExec(docker.client()).runningContainer(stack(dependency) + "_app");
        assertThat(networksOf(dep)).as("the dependency is not the app: only the run's network")
                .containsOnlyKeys(stack(victim) + "_proxy");
        assertThat(fetch(dep, "tasks." + warm + "_app").ok()).isFalse();

        // the app's teardown while its dependency still joins its network: all else removed, the network said
        long started = System.nanoTime();
        List<String> left = run.remove(victim);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("not waited for").isLessThan(Duration.ofSeconds(60));
        assertThat(left).containsExactly("network " + stack(victim) + "_proxy (joined by the services of "
                + stack(dependency) + ": it goes once they do)");
        assertThat(run.remove(dependency)).isEmpty();
        assertThat(run.remove(victim)).as("the app again, its dependency gone").isEmpty();
        assertThat(new StackTeardown(docker.client()).leftovers(stack(victim))).isEmpty();
    }

    private static final String SLEEPER = "[\"sh\", \"-c\", \"trap 'exit 0' TERM; sleep 600 & wait\"]";

    private static String server(String domain) {
        return "[\"sh\", \"-c\", \"mkdir -p /w && echo '" + PRIVATE + domain + "' > /w/index.html && exec httpd -f -p 80 -h /w\"]";
    }

    private SwarmDriver driver(String runDomain) {
        SwarmDriver driver = new SwarmDriver(docker, processes, runDir.resolve("backup"), runDir.resolve("canonical/servers"),
                new DeployPolicy(DeployAllowance.NONE, processes)).onRunNetwork(RunNetwork.of(stack(runDomain)));
        stacks.add(0, stack(runDomain));
        return driver;
    }

    /** A recipe of one routed service, {@code app}, on the proxy network as every Co-op Cloud recipe is, running {@code command}. */
    private App app(SwarmDriver driver, String domain, String recipe, String command) throws Exception {
        if (!stacks.contains(stack(domain))) {
            stacks.add(0, stack(domain));
        }
        Path dir = Files.createDirectories(runDir.resolve("recipes/" + recipe));
        Files.writeString(dir.resolve(".env.sample"), "DOMAIN=" + recipe + ".example.com\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: %s
                    networks: [proxy]
                    deploy:
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=80"
                networks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX, command), StandardCharsets.UTF_8);
        return driver.newApp(recipe, domain, dir, abra);
    }

    /** A warm app as the host keeps it: deployed from its files on the shared proxy, outside every run. */
    private void deployWarm() throws Exception {
        stacks.add(warm);
        Path compose = Files.createDirectories(runDir.resolve("warm")).resolve("compose.yml");
        Files.writeString(compose, """
                version: "3.8"
                services:
                  app:
                    image: %s
                    command: %s
                    networks: [proxy]
                networks:
                  proxy:
                    external: true
                """.formatted(LocalImages.BUSYBOX, server(warm)), StandardCharsets.UTF_8);
        Process deploy = new ProcessBuilder("/usr/local/bin/docker", "stack", "deploy", "--detach=true", "--resolve-image",
                "never", "-c", compose.toString(), warm).redirectErrorStream(true).start();
        assertThat(deploy.waitFor()).as(new String(deploy.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }

    /** A fetch that must fail: 5 s is all a refused or unrouted one may take. */
    private ContainerExec.Result fetch(String container, String host) throws InterruptedException {
        return fetch(container, host, 5);
    }

    /** A fetch that must pass: room for a loaded machine's gVisor and a just-converged task's DNS name. */
    private ContainerExec.Result reach(String container, String host) throws InterruptedException {
        return fetch(container, host, 30);
    }

    private ContainerExec.Result fetch(String container, String host, int seconds) throws InterruptedException {
        return new ContainerExec(docker.client()).sh(container, "busybox timeout -s KILL " + seconds + " wget -q -O - http://"
                + host + "/ 2>&1");
    }

    private Map<String, ?> networksOf(String container) {
        return docker.client().inspectContainerCmd(container).exec().getNetworkSettings().getNetworks();
    }

    /** The first address of a running task of {@code service} (the engine's own answer). */
    private String taskAddress(String service) {
        for (JsonNode task : EngineLists.get(docker.http(), "/tasks", Map.of("service", List.of(service),
                "desired-state", List.of("running")))) {
            for (JsonNode attached : task.path("NetworksAttachments")) {
                for (JsonNode address : attached.path("Addresses")) {
                    return address.asText().replaceFirst("/.*", "");
                }
            }
        }
        throw new AssertionError("no running task of " + service);
    }

    private void awaitConverged(String stack) throws InterruptedException {
        SwarmConvergence.Report report = new SwarmConvergence(docker).await(stack, Duration.ofMinutes(2));
        assertThat(report.converged()).as(report.problems().toString()).isTrue();
    }

    private static String stack(String domain) {
        return net.commoninternet.ccci.extensions.recipe.AppNaming.stackName(domain);
    }
}
