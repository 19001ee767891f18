package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose the swarm driver deploys joins the run's own network where the recipe names the
 * shared proxy, under whatever key it declares it (docs/security.md, "One network per run"); the
 * recipe's own networks stay its own. With a warm dependency the services that join the proxy, and
 * only those, join the shared one as well. The docker CLI reads the file back so.
 */
class ProxyNetworkTest {

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());

    private static final String COMPOSE = """
            version: "3.8"
            services:
              app:
                image: ccci.local/busybox:1
                networks: [proxy, internal]
              web:
                image: ccci.local/busybox:1
                networks:
                  front: {}
              db:
                image: ccci.local/busybox:1
                networks: [internal]
            networks:
              proxy:
                external: true
              front:
                external: true
                name: proxy
              internal: {}
            """;

    private JsonNode deployed(ProxyNetwork proxy) throws Exception {
        App app = TempApp.create(dir, "evil", Map.of(), "TYPE=evil", "DOMAIN=evil-abc123.ci.example.org");
        Files.writeString(app.recipeDir().resolve("compose.yml"), COMPOSE);
        DeployPolicy policy = new DeployPolicy(DeployAllowance.NONE, children);
        Path deployable = dir.resolve("deploy.yml");
        policy.writeDeployable(app, policy.check(app), deployable, proxy);
        ChildProcesses.Whole read = children.runWhole(List.of("docker", "stack", "config", "-c", deployable.toString()), dir,
                Map.of(), Duration.ofMinutes(1), ComposeFiles.MAX_BYTES);
        assertThat(read.ok()).as(read.stderr()).isTrue();
        return RecipeLabels.parse(read.stdout());
    }

    @Test
    void everyNetworkNamedProxyBecomesTheRunsOwnAndTheRecipesOwnStay() throws Exception {
        JsonNode back = deployed(new ProxyNetwork("evil-abc123_ci_example_org_proxy", false));

        assertThat(back.at("/networks/proxy/name").asText()).isEqualTo("evil-abc123_ci_example_org_proxy");
        assertThat(back.at("/networks/front/name").asText()).isEqualTo("evil-abc123_ci_example_org_proxy");
        assertThat(back.at("/networks/proxy/external").asBoolean()).isTrue();
        assertThat(back.at("/networks/internal/name").isMissingNode()).as("the recipe's own network").isTrue();
        assertThat(back.path("networks").size()).isEqualTo(3);
        assertThat(back.toString()).doesNotContain("\"proxy\"}").doesNotContain(ProxyNetwork.SHARED_KEY);
    }

    @Test
    void aWarmDependencyPutsTheServicesOnTheProxyAndOnlyThemOnTheSharedOneToo() throws Exception {
        JsonNode back = deployed(new ProxyNetwork("evil-abc123_ci_example_org_proxy", true));

        assertThat(back.at("/networks/" + ProxyNetwork.SHARED_KEY + "/name").asText()).isEqualTo("proxy");
        assertThat(back.at("/services/app/networks").has(ProxyNetwork.SHARED_KEY)).isTrue();
        assertThat(back.at("/services/web/networks").has(ProxyNetwork.SHARED_KEY)).isTrue();
        assertThat(back.at("/services/db/networks").has(ProxyNetwork.SHARED_KEY)).as("a service not on the proxy").isFalse();
        assertThat(back.at("/networks/proxy/name").asText()).isEqualTo("evil-abc123_ci_example_org_proxy");
    }

    @Test
    void asWrittenTheComposeKeepsTheSharedProxy() throws Exception {
        JsonNode back = deployed(ProxyNetwork.AS_WRITTEN);

        assertThat(back.at("/networks/proxy/name").asText()).isEqualTo("proxy");
        assertThat(back.at("/networks/front/name").asText()).isEqualTo("proxy");
    }
}
