package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deploy policy is an allowlist: on the final compose as the real docker CLI prints it, a key
 * nobody listed is refused naming it, and each class of what a denylist let through (the engine
 * dialling a logging address, an alias on the shared network, a label in ccci's or the engine's
 * namespace, a traefik route for another host or a TCP router, more than a run's share of the
 * host) is refused in one sentence naming the service, the key and the fix.
 */
class ComposeAllowlistTest {

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());

    /** evil's domain and stack, as TempApp names them. */
    private static final String DOMAIN = "evil-abc123.ci.example.org";
    private static final String STACK = "evil-abc123_ci_example_org";
    private static final String SERVICE = "services:\n  app:\n    image: ccci.local/busybox:1\n    networks: [proxy]\n";
    private static final String PROXY = "networks:\n  proxy:\n    external: true\n";

    private App app(String compose) throws Exception {
        App app = TempApp.create(dir, "evil", Map.of(), "TYPE=evil", "DOMAIN=" + DOMAIN);
        Files.writeString(app.recipeDir().resolve("compose.yml"), compose);
        return app;
    }

    private String refusal(String compose) throws Exception {
        App app = app(compose);
        return assertThatThrownBy(() -> new DeployPolicy(DeployAllowance.NONE, children).check(app))
                .isInstanceOf(IllegalStateException.class).actual().getMessage();
    }

    private void passes(String compose) throws Exception {
        assertThat(new DeployPolicy(DeployAllowance.NONE, children).check(app(compose)).services()).isNotEmpty();
    }

    private static String labels(String... labels) {
        StringBuilder text = new StringBuilder("    deploy:\n      labels:\n");
        for (String label : labels) {
            text.append("        - \"").append(label).append("\"\n");
        }
        return text.toString();
    }

    @Test
    void aKeyNobodyListedIsRefusedNamingItsPathAndTheAllowance() throws Exception {
        assertThat(refusal(SERVICE + "    isolation: process\n" + PROXY)).isEqualTo("evil: service app sets process"
                + " (isolation), which " + ComposeJudging.UNKNOWN + ": drop it from the compose. If this host's operator trusts"
                + " evil with it, run with -Dccci.deploy-allowance=evil:isolation=process.");
        assertThat(refusal(SERVICE + "    deploy:\n      resources:\n        reservations:\n          generic_resources:\n"
                + "            - discrete_resource_spec: {kind: gpu, value: 1}\n" + PROXY))
                .startsWith("evil: service app sets [{\"discrete_resource_spec\"")
                .contains("(deploy.resources.reservations.generic_resources), which " + ComposeJudging.UNKNOWN);
        // a label nothing on the host reads is a lint finding, not a refusal
        passes(SERVICE + "    volumes: [data:/data]\n" + PROXY + "volumes:\n  data:\n    labels: {a: b}\n");
        assertThat(refusal(SERVICE + PROXY + "  own:\n    ipam:\n      config: [{subnet: 10.9.0.0/24}]\n"))
                .startsWith("evil: network own chooses its addresses").contains("(ipam)");
        // x- extension fields mean nothing to the engine
        passes(SERVICE + "    x-note: anything\n" + PROXY + "x-anchors:\n  a: {b: c}\n");
    }

    @Test
    void anImageOfARegistryAtTheHostsOwnAPrivateOrALinkLocalAddressIsRefused() throws Exception {
        for (String image : List.of("169.254.169.254/latest/meta-data:1", "10.0.0.5:5000/app:1", "localhost:5000/app:1",
                "[::1]:5000/app:1", "127.0.0.1/app", "LOCALHOST/x:1")) {
            assertThat(imageRefusal(image)).containsAnyOf(" private, loopback or link-local address", " is this host");
        }
        assertThat(ImageRegistry.host("nginx:1.25")).isEmpty();
        assertThat(ImageRegistry.host("library/nginx")).isEmpty();
        assertThat(ImageRegistry.host("ghcr.io/x/y:1")).hasValue("ghcr.io");
        assertThat(ImageRegistry.refusedAsResolved("localhost")).isPresent();
    }

    /**
     * Only registries known to be public, whatever a name resolves to now: a name of the recipe's
     * choosing can point at the host's own public address, or at a private one by the time the engine
     * looks it up again (DNS rebinding), which no check of ccci's sees. Its refusal names the
     * operator's allowance for that one image.
     */
    @Test
    void anImageOfARegistryNobodyKnowsToBePublicIsRefusedWhateverItResolvesTo() throws Exception {
        for (String image : List.of("registry.example.org:5000/app:1", "203.0.113.7/app:1", "Rebind.Attacker.Example/app",
                "Metadata/x:1", "Intranet/app", // docker reads an upper-case first component as a host (GCE's "metadata")
                "ghcr.io.attacker.example/x/y:1", "[2001:db8::1]:5000/app:1")) {
            assertThat(imageRefusal(image)).contains("is not a registry ccci knows to be public")
                    .endsWith("-Dccci.deploy-allowance=" + ShellWords.quoted("evil:image=" + image) + ".");
        }
        for (String image : List.of("nginx:1.25", "library/nginx", "docker.io/library/nginx:1", "ghcr.io/x/y:1",
                "GHCR.IO/x/y:1", "quay.io:443/x/y", "git.coopcloud.tech/coop-cloud/backup-bot-two:2", "ccci.local/postgres:15")) {
            passes(SERVICE.replace("ccci.local/busybox:1", "\"" + image + "\"") + PROXY);
        }
    }

    /** The refusal of a service whose image is {@code image}: it names the image and the registry's dial. */
    private String imageRefusal(String image) throws Exception {
        String refusal = refusal(SERVICE.replace("ccci.local/busybox:1", "\"" + image + "\"") + PROXY);
        assertThat(refusal).as(image).startsWith("evil: service app pulls the image " + image + " (image), which makes the"
                + " engine dial its registry, from the host's own network: ");
        return refusal;
    }

    @Test
    void aLoggingDriverOtherThanTheEnginesOwnFilesIsRefused() throws Exception {
        assertThat(refusal(SERVICE + "    logging:\n      driver: gelf\n      options: {gelf-address: 'udp://10.1.2.3:12201'}\n"
                + PROXY)).startsWith("evil: service app sends its output with the logging driver gelf (logging.driver), which"
                + " makes the engine dial or write to a place the recipe chooses");
        assertThat(refusal(SERVICE + "    logging: {driver: syslog}\n" + PROXY)).contains("(logging.driver)");
        assertThat(refusal(SERVICE + "    logging: {options: {syslog-address: 'tcp://10.1.2.3:514'}}\n" + PROXY))
                .contains("(logging.options.syslog-address)");
        passes(SERVICE + "    logging: {driver: json-file, options: {max-size: 10m, max-file: '3'}}\n" + PROXY);
    }

    @Test
    void anAliasOnTheSharedProxyNetworkIsRefusedOnTheStacksOwnItIsFine() throws Exception {
        assertThat(refusal("services:\n  app:\n    image: ccci.local/busybox:1\n    networks:\n      proxy:\n"
                + "        aliases: [other-run_app]\n" + PROXY)).isEqualTo("evil: service app answers on the shared network"
                + " proxy to the names [\"other-run_app\"] (networks.proxy.aliases), which lets it take the name another run's"
                + " probes or services look up there (every stack's services are on proxy): drop the aliases on proxy; a"
                + " service is found there by its stack's own name, and aliases on the stack's own networks are fine. If this"
                + " host's operator trusts evil with it, run with -Dccci.deploy-allowance='evil:networks.proxy.aliases="
                + "[\"other-run_app\"]'.");
        passes("services:\n  app:\n    image: ccci.local/busybox:1\n    networks:\n      proxy:\n      own:\n"
                + "        aliases: [db]\n" + PROXY + "  own:\n");
    }

    @Test
    void aLabelInTheEnginesOrCccisNamespaceOrOfAnotherStackIsRefused() throws Exception {
        assertThat(refusal(SERVICE + labels("com.docker.stack.namespace=other-run") + PROXY))
                .startsWith("evil: service app has the label com.docker.stack.namespace=other-run (deploy.labels), which is in"
                        + " the engine's or ccci's own namespace");
        assertThat(refusal(SERVICE + "    labels: {net.commoninternet.ccci.anchor: proxy}\n" + PROXY))
                .startsWith("evil: service app has the label net.commoninternet.ccci.anchor=proxy (labels)");
        assertThat(refusal(SERVICE + labels("coop-cloud.other_stack.version=1.0.0") + PROXY))
                .contains("speaks for another stack than the run's own (" + STACK + ")");
        assertThat(refusal(SERVICE + labels("ofelia.job-local.x.command=touch /x") + PROXY))
                .contains("is read by a label-driven tool that routes hosts or runs commands beyond the labelled service (ofelia)");
        assertThat(refusal(SERVICE + labels("caddy=bank.example.com") + PROXY)).contains("(caddy)");
        assertThat(refusal(SERVICE + labels("swarm.cronjob.enable=true", "swarm.cronjob.replicas=40") + PROXY))
                .contains("makes swarm-cronjob scale the service to 40 replicas");
        // read by nothing on the host: lint findings
        passes(SERVICE + labels("backupbot.backup.everything=true", "coop-cloud.${STACK_NAME}.timeout=120", "diun.enable=true",
                "swarm.cronjob.enable=true", "swarm.cronjob.schedule=*/5 * * * *", "swarm.cronjob.skip-running=true") + PROXY);
        passes(SERVICE + "    deploy:\n      labels:\n        coop-cloud.${STACK_NAME}.timeout: \"120\"\n" + PROXY);
        passes(SERVICE + labels("coop-cloud.${STACK_NAME}.version=1.0.0+1", "coop-cloud.${STACK_NAME}.timeout=120",
                "backupbot.backup=true", "backupbot.backup.pre-hook=true", "backupbot.backup.volumes.data.path=x") + PROXY);
    }

    @Test
    void traefikRoutesOnlyTheRunsOwnDomainToItselfOverHttp() throws Exception {
        String router = "traefik.http.routers.${STACK_NAME}";
        passes(SERVICE + labels("traefik.enable=true", router + ".rule=Host(`${DOMAIN}`) && PathPrefix(`/app`)",
                router + "-www.rule=Host(`www.${DOMAIN}`, `${DOMAIN}`) || (Host(`api.${DOMAIN}`) && Method(`GET`))",
                router + ".entrypoints=web-secure", router + ".tls.certresolver=production", router + ".middlewares=${STACK_NAME}-redirect",
                router + ".service=${STACK_NAME}", "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=80",
                "traefik.http.middlewares.${STACK_NAME}-redirect.redirectscheme.scheme=https", "traefik.docker.network=proxy")
                + PROXY);

        assertThat(refusal(SERVICE + labels(router + ".rule=Host(`bank.example.com`)") + PROXY)).startsWith("evil: service app"
                + " has the label traefik.http.routers." + STACK + ".rule=Host(`bank.example.com`) (deploy.labels), which can"
                + " match requests for bank.example.com, a host other than the run's own domain (" + DOMAIN + "): a recipe's"
                + " routers match only Host(`${DOMAIN}`), its subdomains, or a HostRegexp every match of which ends in"
                + " .${DOMAIN}; join an alternative that can match any host with Host(`${DOMAIN}`) (&&).");
        assertThat(refusal(SERVICE + labels(router + ".rule=Host(`${DOMAIN}`) || PathPrefix(`/`)") + PROXY))
                .contains("can match requests for any host, a host other");
        assertThat(refusal(SERVICE + labels(router + ".rule=!Host(`${DOMAIN}`)") + PROXY)).contains("can match requests for any host,");
        assertThat(refusal(SERVICE + labels(router + ".rule=HostRegexp(`{any:.+}`)") + PROXY)).contains("can match requests for");
        assertThat(refusal(SERVICE + labels(router + ".rule=HostRegexp(`{sub:[a-z]+}.evil.org`)") + PROXY))
                .contains("can match requests for a.evil.org");
        assertThat(refusal(SERVICE + labels(router + ".rule=Host(`evil${DOMAIN}`)") + PROXY)).contains("requests for evil" + DOMAIN);
        // every host it can match is the run's own: a subdomain template, an anchored expression, a wildcard certificate
        passes(SERVICE + labels(router + ".rule=HostRegexp(`{subdomain:[a-z0-9-]+}.${DOMAIN}`)",
                router + "-v3.rule=HostRegexp(`^[a-z]+[.]evil-abc123[.]ci[.]example[.]org$$`)", router + "-v3.rulesyntax=v3",
                router + ".tls.domains[0].main=${DOMAIN}", router + ".tls.domains[0].sans=*.${DOMAIN}") + PROXY);
        assertThat(refusal(SERVICE + labels(router + ".rule=Host(`${DOMAIN}`") + PROXY)).contains("is a router rule ccci cannot read");
        assertThat(refusal(SERVICE + labels(router + ".tls.domains[0].main=bank.example.com") + PROXY))
                .contains("asks for a certificate for bank.example.com");
        assertThat(refusal(SERVICE + labels("traefik.tcp.routers.${STACK_NAME}.rule=HostSNI(`*`)") + PROXY))
                .contains("opens a TCP router, which takes a port of the proxy");
        assertThat(refusal(SERVICE + labels("traefik.udp.services.${STACK_NAME}.loadbalancer.server.port=53") + PROXY))
                .contains("opens a UDP router");
        assertThat(refusal(SERVICE + labels("traefik.http.services.other-run_ci.loadbalancer.server.port=80") + PROXY))
                .contains("names a traefik service outside the run's own (" + STACK + ")");
        assertThat(refusal(SERVICE + labels(router + ".service=api@internal") + PROXY))
                .contains("sends the router's requests through api@internal, which is not the run's own");
        assertThat(refusal(SERVICE + labels("traefik.http.middlewares.${STACK_NAME}-auth.forwardauth.address=http://169.254.169.254/")
                + PROXY)).contains("makes traefik dial an address the recipe chooses");
        assertThat(refusal(SERVICE + labels("traefik.http.middlewares.${STACK_NAME}-auth.basicauth.usersfile=/etc/shadow") + PROXY))
                .contains("makes traefik read a file of its host");
        assertThat(refusal(SERVICE + labels("traefik.docker.network=host") + PROXY)).contains("sends traefik to a network other than proxy");
        assertThat(refusal(SERVICE + labels("traefik.http.serversTransports.x.insecureSkipVerify=true") + PROXY))
                .contains("is a traefik label ccci does not know to be safe");
    }

    /**
     * Traefik matches a label's option names whatever their case (its label decoder compares field
     * names case-insensitively), so a middleware option is judged by its lower-case name: the refused
     * ones stay refused in any spelling.
     */
    @Test
    void aMiddlewareOptionIsJudgedWhateverItsCaseAsTraefikReadsIt() throws Exception {
        String middleware = "traefik.http.middlewares.${STACK_NAME}-x.";
        assertThat(refusal(SERVICE + labels(middleware + "basicauth.usersFile=/etc/shadow") + PROXY))
                .contains("makes traefik read a file of its host");
        assertThat(refusal(SERVICE + labels(middleware + "digestAuth.UsersFile=/etc/shadow") + PROXY))
                .contains("makes traefik read a file of its host");
        assertThat(refusal(SERVICE + labels(middleware + "errors.Service=api@internal") + PROXY))
                .contains("chains api@internal, which is not the run's own");
        assertThat(refusal(SERVICE + labels(middleware + "chain.Middlewares=other-auth@file") + PROXY))
                .contains("chains other-auth@file, which is not the run's own");
        assertThat(refusal(SERVICE + labels(middleware + "ForwardAuth.address=http://169.254.169.254/") + PROXY))
                .contains("makes traefik dial an address the recipe chooses");
    }

    @Test
    void moreThanOneRunsShareOfTheHostIsRefused() throws Exception {
        assertThat(refusal(SERVICE + "    deploy: {replicas: 50}\n" + PROXY)).startsWith("evil: service app asks for 50"
                + " (deploy.replicas), which takes more of the host than one run's share (4 replicas at most)");
        assertThat(refusal("version: \"3.9\"\n" + SERVICE + "    deploy: {resources: {limits: {memory: 64G}}}\n" + PROXY))
                .contains("(deploy.resources.limits.memory)");
        assertThat(refusal("version: \"3.9\"\n" + SERVICE + "    deploy: {resources: {limits: {pids: 100000}}}\n" + PROXY))
                .contains("(deploy.resources.limits.pids)");
        assertThat(refusal(SERVICE + "    deploy: {resources: {reservations: {cpus: '16'}}}\n" + PROXY))
                .contains("(deploy.resources.reservations.cpus)");
        passes("version: \"3.9\"\n" + SERVICE + "    deploy: {replicas: 2, resources: {limits: {memory: 2G, pids: 200}}}\n" + PROXY);
    }

    @Test
    void anOperatorsAllowanceLetsAnAllowlistKeyThrough() throws Exception {
        App app = app(SERVICE + "    logging: {driver: gelf, options: {gelf-address: 'udp://10.1.2.3:12201'}}\n" + PROXY);
        DeployAllowance driver = new DeployAllowance(Set.of(new DeployAllowance.Entry("evil", "logging.driver",
                Optional.of("gelf")), new DeployAllowance.Entry("evil", "logging.options.gelf-address", Optional.empty())));
        assertThat(new DeployPolicy(driver, children).check(app).services()).hasSize(1);
        assertThat(DeployAllowance.isKey("logging.options.gelf-address")).isTrue();
        assertThat(DeployAllowance.isKey("rm-rf")).isFalse();
    }

    /**
     * A refusal lists every finding at once (an operator fixes or allows a recipe in one go, not one
     * finding a run), each with the entry that allows it quoted as one shell word, the run's stack and
     * domain in it as ${STACK_NAME} and ${DOMAIN}: that entry, written once, serves the next run of the
     * recipe, whose stack and domain differ.
     */
    @Test
    void aRefusalListsEveryFindingWithItsAllowanceWrittenOnceForEveryRun() throws Exception {
        String rule = "traefik.http.routers.${STACK_NAME}.rule=Host(`${DOMAIN}`) || Host(`legacy.example.com`)";
        String compose = SERVICE + "    cap_add: [SYS_ADMIN]\n    isolation: process\n" + labels(rule) + PROXY;
        String refusal = refusal(compose);
        String ruleEntry = "evil:deploy.labels=" + rule;
        assertThat(refusal).startsWith("evil: the deploy policy refuses 3 things of its compose, before anything of the app"
                + " exists on the engine:\n  1. service app ")
                .contains("\n  2. service app ", "\n  3. service app ")
                .contains("run with -Dccci.deploy-allowance=evil:cap_add=SYS_ADMIN.")
                .contains("run with -Dccci.deploy-allowance='" + ruleEntry + "'.")
                .endsWith("\nTo allow all of them: -Dccci.deploy-allowance='evil:cap_add=SYS_ADMIN," + ruleEntry
                        + ",evil:isolation=process'");
        assertThat(refusal.lines()).hasSize(5);

        // the entries as the refusal wrote them, for another run of the recipe (another domain, another stack)
        DeployAllowance allowance = new DeployAllowance(Set.of(
                new DeployAllowance.Entry("evil", "cap_add", Optional.of("SYS_ADMIN")),
                new DeployAllowance.Entry("evil", "isolation", Optional.of("process")),
                new DeployAllowance.Entry("evil", "deploy.labels", Optional.of(rule))));
        App next = TempApp.create(dir.resolve("next"), "evil", Map.of(), "TYPE=evil", "DOMAIN=evil-def456.ci.example.org");
        Files.writeString(next.recipeDir().resolve("compose.yml"), compose);
        App renamed = new App("evil", "evil-def456.ci.example.org", next.recipeDir(), next.envFile(), Map.of());
        assertThat(new DeployPolicy(allowance, children).check(renamed).services()).hasSize(1);
        // the placeholder is the run's own name, never a pattern: another stack's router stays refused
        Files.writeString(next.recipeDir().resolve("compose.yml"), compose.replace("${STACK_NAME}", "other_stack"));
        assertThatThrownBy(() -> new DeployPolicy(allowance, children).check(renamed))
                .hasMessageContaining("names a traefik router outside the run's own");
    }

    /**
     * The swarm driver deploys exactly what was judged: one file, ccci's default limits added where a
     * service sets none, nothing left for the CLI to interpolate (a {@code $} of a value stays one),
     * no env_file or extension field to read again; the CLI reads it back to the same services.
     */
    @Test
    void theDeployableComposeIsTheJudgedOneWithTheDefaultLimits() throws Exception {
        App app = app("version: \"3.8\"\nx-env: &env\n  A: \"1\"\nservices:\n  app:\n    image: ccci.local/busybox:1\n"
                + "    command: [\"sh\", \"-c\", \"echo $$HOME ${DOMAIN}\"]\n    environment: {<<: *env}\n    env_file: [app.env]\n"
                + "    networks: [proxy]\n  db:\n    image: ccci.local/busybox:1\n    deploy:\n      resources:\n"
                + "        limits: {memory: 256M}\n" + PROXY);
        Files.writeString(app.recipeDir().resolve("app.env"), "FROM_FILE=yes\n");
        ComposeConfig judged = new DeployPolicy(DeployAllowance.NONE, children).check(app);
        Path deployable = dir.resolve("deploy.yml");

        String defaults = new DeployPolicy(DeployAllowance.NONE, children).writeDeployable(app, judged, deployable);

        assertThat(defaults).isEqualTo("app (memory 1 GiB, pids 1024), db (pids 1024)");
        String text = Files.readString(deployable);
        assertThat(text).doesNotContain("env_file").doesNotContain("x-env").contains("$$HOME");
        ChildProcesses.Whole read = children.runWhole(List.of("docker", "stack", "config", "-c", deployable.toString()), dir,
                Map.of("HOME", "/not-this"), Duration.ofMinutes(1), ComposeFiles.MAX_BYTES);
        assertThat(read.ok()).as(read.stderr()).isTrue();
        com.fasterxml.jackson.databind.JsonNode back = RecipeLabels.parse(read.stdout());
        assertThat(back.at("/services/app/command/2").asText()).isEqualTo("echo $HOME " + DOMAIN);
        assertThat(back.at("/services/app/environment/FROM_FILE").asText()).isEqualTo("yes");
        assertThat(back.at("/services/app/deploy/resources/limits/memory").asText()).isEqualTo(Long.toString(1L << 30));
        assertThat(back.at("/services/app/deploy/resources/limits/pids").asLong()).isEqualTo(1024);
        assertThat(back.at("/services/db/deploy/resources/limits/memory").asText()).isEqualTo(Long.toString(256L << 20));
    }
}
