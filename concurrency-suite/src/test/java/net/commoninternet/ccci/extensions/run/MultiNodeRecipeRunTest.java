package net.commoninternet.ccci.extensions.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lock.AppDomainLock;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.swarm.StackLabels;
import net.commoninternet.ccci.extensions.recipe.AppNaming;
import net.commoninternet.ccci.testing.ForkShares.OnTheTestBed;
import net.commoninternet.ccci.testing.LocalImages;
import net.commoninternet.ccci.testing.LockProbe;
import net.commoninternet.ccci.testing.MavenRun;
import net.commoninternet.ccci.testing.MultiNodeSwarm;
import net.commoninternet.ccci.testing.RealEngine;
import net.commoninternet.ccci.testing.ResultsSchema;
import net.commoninternet.ccci.testing.TwoReleaseRecipe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole recipe run, {@code mvn test -Drecipe=...} exactly as a runner host starts it, against a
 * manager of the three-node test bed ({@code DOCKER_HOST}, scripts/multinode-swarm): the app's
 * web service has one task on every node, its data service is pinned to a node that is not the
 * one the run talks to. Every tier has to reach the node that runs the container it works on:
 * the install and upgrade probes go from the probe container on the run's own overlay to
 * {@code tasks.<service>}, tasks on other nodes included ({@code endpoint_mode: dnsrr}: no VIP is
 * asked of a bed without IPVS), the backup's hooks, marker and restic run on the data service's node, and the teardown
 * removes each node's containers and volumes (a volume lives on its node); each tier's service log
 * holds the tasks of every node.
 */
@OnTheTestBed
@RealEngine
class MultiNodeRecipeRunTest {

    private static final Pattern APP = Pattern.compile("== ccci run \\S+ \\(pid \\d+\\): recipe \\S+ .* app (\\S+), ABRA_DIR");
    /** The node the run talks to, and the node its data service is pinned to. */
    private static final int VIA = 1;
    private static final int DATA_NODE = 3;

    @TempDir
    Path sandbox;

    @RegisterExtension
    final ResultsSchema.EveryRun everyResultsJson = new ResultsSchema.EveryRun(() -> sandbox.resolve("runs"));

    @BeforeAll
    static void bedUp() throws Exception {
        MultiNodeSwarm.up();
    }

    @AfterAll
    static void bedDown() throws Exception {
        MultiNodeSwarm.down();
    }

    private static String compose(String version) {
        return """
                version: "3.8"
                services:
                  app:
                    image: IMAGE
                    command: ["sh", "-c", "echo serving VERSION; mkdir -p /srv && echo VERSION > /srv/index.html; trap 'exit 0' TERM; httpd -f -p 8000 -h /srv & wait"]
                    networks: [proxy]
                    healthcheck:
                      test: ["CMD", "sh", "-c", "timeout 2 wget -qO- http://127.0.0.1:8000/ >/dev/null"]
                      interval: 1s
                    deploy:
                      endpoint_mode: dnsrr
                      replicas: 3
                      placement:
                        max_replicas_per_node: 1
                      update_config:
                        order: stop-first
                      labels:
                        - "traefik.enable=true"
                        - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=8000"
                        - "coop-cloud.${STACK_NAME}.version=VERSION"
                  data:
                    image: IMAGE
                    command: ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"]
                    volumes: [data:/data]
                    healthcheck:
                      test: ["CMD", "test", "-d", "/data"]
                      interval: 1s
                    deploy:
                      placement:
                        constraints: [node.labels.ccci.msw.node == NODE]
                      labels:
                        - "backupbot.backup=true"
                        - "backupbot.backup.pre-hook=date > /data/dumped-at"
                networks:
                  proxy:
                    external: true
                volumes:
                  data:
                """.replace("IMAGE", LocalImages.BUSYBOX).replace("VERSION", version)
                .replace("NODE", MultiNodeSwarm.name(DATA_NODE));
    }

    /** A recipe repository of two releases: the upgrade's base and the head. */
    private Path recipe(String name) throws IOException, InterruptedException {
        return TwoReleaseRecipe.make(sandbox.resolve("recipes"), name, MultiNodeRecipeRunTest::compose);
    }

    @Test
    void aRunThroughOneManagerDeploysOnEveryNodeReachesEachTiersNodeAndLeavesNothingOnAny() throws Exception {
        recipe("i15web");
        MavenRun run = MavenRun.start(sandbox.resolve("run.log"), Map.of("DOCKER_HOST", MultiNodeSwarm.socket(VIA),
                        "CCCI_RUNS_DIR", sandbox.resolve("runs").toString(), "ABRA_DIR", sandbox.resolve("abra").toString()),
                "-Drecipe=i15web", "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.run-id=i15-multinode");
        int exit = run.waitFor(Duration.ofMinutes(8));
        String out = run.output();
        Matcher app = APP.matcher(out);
        assertThat(app.find()).as(out).isTrue();
        String stack = AppNaming.stackName(app.group(1));

        assertThat(exit).as(out).isZero();
        // three app tasks (at most one a node: one on every node) converged, were probed and upgraded in place;
        // the data service's hook, marker, backup and restore ran on the node it is pinned to
        assertThat(out).as(out).contains("level 3: install pass, upgrade pass, backup_restore pass",
                "== teardown of " + app.group(1) + ": clean ==");
        String results = Files.readString(sandbox.resolve("runs/i15-multinode/results.json"), StandardCharsets.UTF_8);
        assertThat(results).contains("\"clean_teardown\" : true");
        Path report = run.reports().resolve("TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml");
        assertThat(report).content().contains("name=\"i15web &gt; install &gt; serves-http\"",
                "name=\"i15web &gt; upgrade &gt; moved-to-head\"", "name=\"i15web &gt; backup &gt; snapshot-created\"",
                "name=\"i15web &gt; restore &gt; marker-restored\"").doesNotContain("<failure", "<error");

        // the upgrade's new tasks, one on each node, each said so in its own node's log: the tier's service log has all three
        assertThat(sandbox.resolve("runs/i15-multinode/logs/upgrade/app.log")).content()
                .contains("app.1.", "app.2.", "app.3.", "serving 0.2.0+1.0");

        // nothing of the app on any node: containers (the probe's and restic's included), volumes, networks
        for (int node = 1; node <= MultiNodeSwarm.NODES; node++) {
            try (DockerEngine engine = DockerEngine.connect(MultiNodeSwarm.socket(node))) {
                List<Container> containers = engine.client().listContainersCmd().withShowAll(true)
                        .withLabelFilter(Map.of(StackLabels.NAMESPACE, stack)).exec();
                assertThat(containers).as("containers of %s on node %d", stack, node).isEmpty();
                assertThat(engine.client().listVolumesCmd().exec().getVolumes()).as("volumes on node %d", node)
                        .noneMatch(v -> v.getName().startsWith(stack + "_"));
                assertThat(engine.client().listNetworksCmd().exec()).as("networks on node %d", node)
                        .noneMatch(n -> n.getName().startsWith(stack + "_"));
            }
        }
        assertThat(LockProbe.held(AppDomainLock.path(MavenRun.LOCK_DIR, app.group(1)))).isFalse();
    }

    /**
     * A manager whose engine runs containers with runc and whose namespace has no egress rules:
     * the run says so, one sentence for each, and refuses before anything of it exists on the
     * swarm; the host's operator (never the recipe) can accept it, and the run then warns and goes on.
     */
    @Test
    void aManagerWithoutTheBoundariesIsRefusedAtTheRunsStartUnlessTheOperatorAcceptsIt() throws Exception {
        int bare = 2;
        Path config = Path.of("/var/lib/ccci-msw", MultiNodeSwarm.name(bare), "daemon.json");
        String kept = Files.readString(config);
        recipe("i22bare");
        try {
            Files.writeString(config, "{\"default-runtime\": \"runc\"}"); // a reload keeps a default the file no longer names
            MultiNodeSwarm.reloadEngine(bare);
            MultiNodeSwarm.withoutEgressRules(bare);
            Map<String, String> env = Map.of("DOCKER_HOST", MultiNodeSwarm.socket(bare),
                    "CCCI_RUNS_DIR", sandbox.resolve("runs").toString(), "ABRA_DIR", sandbox.resolve("abra").toString());

            MavenRun refused = MavenRun.start(sandbox.resolve("refused.log"), env, "-Drecipe=i22bare",
                    "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.run-id=i22-bare", "-Dccci.stages=install");
            assertThat(refused.waitFor(Duration.ofMinutes(5))).as(refused.output()).isNotZero();
            assertThat(refused.output()).contains("the engine at " + MultiNodeSwarm.socket(bare) + " runs containers with runc,"
                    + " not gVisor's runsc", "the egress rules are not in place for the engine at " + MultiNodeSwarm.socket(bare),
                    "If this host's operator accepts that, run with -Dccci.host.unconfined=").doesNotContain("== ccci run ");

            MavenRun accepted = MavenRun.start(sandbox.resolve("accepted.log"), env, "-Drecipe=i22bare",
                    "-Dccci.recipes=" + sandbox.resolve("recipes"), "-Dccci.run-id=i22-accepted", "-Dccci.stages=install",
                    "-Dccci.host.unconfined=runtime,egress");
            assertThat(accepted.waitFor(Duration.ofMinutes(8))).as(accepted.output()).isZero();
            assertThat(accepted.output()).contains("!! this host runs recipe containers without the runtime boundary",
                    "!! this host runs recipe containers without the egress boundary", "level 1: install pass");
        } finally {
            Files.writeString(config, kept);
            MultiNodeSwarm.reloadEngine(bare);
            MultiNodeSwarm.egressRules(bare);
        }
    }
}
