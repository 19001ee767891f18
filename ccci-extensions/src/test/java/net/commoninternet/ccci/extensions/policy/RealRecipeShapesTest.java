package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeTree;
import net.commoninternet.ccci.lifecycle.DeployAllowance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shapes of real Co-op Cloud recipes (src/test/resources/corpus, each with where its shape comes
 * from) against the deploy policy, with the real docker CLI resolving them as a deploy would: every
 * recipe that asks nothing of the host passes (its labels nothing reads are lint findings, never
 * refusals); one that does (the proxy itself, an SSH port, a socket-proxy sidecar) is refused with
 * every finding at once, and the entries its refusal prints, written once, let the next run of it
 * through. ComposeAllowlistTest and UntrustedRecipeTest hold the dangerous shapes refused.
 */
class RealRecipeShapesTest {

    @TempDir
    Path dir;

    private final ChildProcesses children = new ChildProcesses(Map.of());

    /** The recipe's tree in a run's folder, its app's env made from its .env.sample as newApp makes it. */
    private App app(String recipe, String run) throws IOException, URISyntaxException {
        Path source = Path.of(RealRecipeShapesTest.class.getResource("/corpus/" + recipe).toURI());
        Path tree = dir.resolve(run).resolve(recipe);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Path to = tree.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(file, to);
                }
            }
        }
        String domain = recipe + "-" + run + ".ci.example.org";
        Path envFile = Files.createDirectories(dir.resolve(run).resolve("servers")).resolve(domain + ".env");
        EnvFile.read(RecipeTree.envSample(recipe, tree)).replaceText(recipe + ".example.com", domain).set("TYPE", recipe)
                .set("DOMAIN", domain).write(envFile);
        return new App(recipe, domain, tree, envFile, Map.of());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bonfire", "nextcloud", "wildcard-site", "keycloak", "matrix-synapse", "wordpress", "authentik"})
    void aRealRecipeThatAsksNothingOfTheHostPasses(String recipe) throws Exception {
        App app = app(recipe, "abc123");

        ComposeConfig compose = new DeployPolicy(DeployAllowance.NONE, children).check(app);

        assertThat(compose.services()).isNotEmpty();
    }

    /** What nothing on the host reads is said as a lint finding, naming why. */
    @Test
    void labelsNothingReadsAreLintFindings() throws Exception {
        App nextcloud = app("nextcloud", "abc123");
        assertThat(DeployPolicy.notes(nextcloud, ComposeConfig.of(nextcloud, children))).singleElement().asString()
                .startsWith("service app has backupbot.restore.notify=false (deploy.labels), which is no backupbot label ccci"
                        + " reads");
        App keycloak = app("keycloak", "abc123");
        assertThat(DeployPolicy.notes(keycloak, ComposeConfig.of(keycloak, children))).hasSize(2)
                .allSatisfy(note -> assertThat(note).contains("compose never interpolates"));
        App matrix = app("matrix-synapse", "abc123");
        assertThat(DeployPolicy.notes(matrix, ComposeConfig.of(matrix, children))).singleElement().asString()
                .contains("diun.enable=true").contains("is read by no tool ccci knows to act on this host");
    }

    /**
     * A recipe that needs the host (a proxy needs the socket and ports; an SSH port is a TCP router
     * of the proxy; a socket-proxy sidecar mounts the socket) is refused with every finding in one
     * refusal; the entries it prints, set once by the operator, let this run and the next through.
     */
    @Test
    void aRecipeThatNeedsTheHostIsAllowedByTheEntriesItsRefusalPrintsWrittenOnce() throws Exception {
        for (Map.Entry<String, Integer> recipe : Map.of("traefik", 8, "gitea", 3, "socket-proxy", 1).entrySet()) {
            App first = app(recipe.getKey(), "abc123");
            String refusal = assertThatThrownBy(() -> new DeployPolicy(DeployAllowance.NONE, children).check(first))
                    .isInstanceOf(IllegalStateException.class).actual().getMessage();
            Set<DeployAllowance.Entry> entries = entries(refusal);
            assertThat(entries).as(refusal).hasSize(recipe.getValue());

            DeployAllowance allowance = new DeployAllowance(entries);
            assertThat(new DeployPolicy(allowance, children).check(first).services()).as(recipe.getKey()).isNotEmpty();
            App next = app(recipe.getKey(), "def456");
            assertThat(new DeployPolicy(allowance, children).check(next).services()).as(recipe.getKey()).isNotEmpty();
        }
    }

    private static final Pattern ALLOW = Pattern.compile("-Dccci\\.deploy-allowance=('[^']*'|[^ ]*?)\\.?(?:$|\\n)",
            Pattern.MULTILINE);

    /** The entries a refusal prints, as the operator's shell hands them to ccci (one word each, quotes removed). */
    private static Set<DeployAllowance.Entry> entries(String refusal) {
        Set<DeployAllowance.Entry> entries = new LinkedHashSet<>();
        Matcher m = ALLOW.matcher(refusal);
        while (m.find()) {
            String word = m.group(1);
            String unquoted = word.startsWith("'") ? word.substring(1, word.length() - 1) : word;
            for (String entry : unquoted.split(",(?=[a-z0-9-]+:)")) {
                int colon = entry.indexOf(':');
                int equals = entry.indexOf('=', colon);
                entries.add(new DeployAllowance.Entry(entry.substring(0, colon), entry.substring(colon + 1, equals < 0
                        ? entry.length() : equals), equals < 0 ? Optional.empty() : Optional.of(entry.substring(equals + 1))));
            }
        }
        return entries;
    }

    /** Each shape's files are there, so each recipe above is tested as a whole. */
    @Test
    void everyShapeOfTheCorpusIsTested() throws Exception {
        Path corpus = Path.of(RealRecipeShapesTest.class.getResource("/corpus").toURI());
        try (Stream<Path> shapes = Files.list(corpus)) {
            assertThat(shapes.filter(Files::isDirectory).map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(
                    List.of("bonfire", "nextcloud", "wildcard-site", "keycloak", "matrix-synapse", "wordpress", "authentik",
                            "traefik", "gitea", "socket-proxy"));
        }
    }
}
