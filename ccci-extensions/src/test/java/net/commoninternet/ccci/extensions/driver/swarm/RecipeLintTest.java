package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.lint.AbraRule;
import net.commoninternet.ccci.extensions.lint.CcciRules;
import net.commoninternet.ccci.spi.LintResult;
import net.commoninternet.ccci.spi.LintResult.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The swarm driver's lint: every abra rule by its ref and level, and ccci's own checks. The fixture
 * ({@code src/test/resources/lint/clean}) satisfies every rule; each rule has a breakage below that
 * makes a recipe of it break that rule and no other, and the lint must then report exactly that
 * rule, as a finding (warn) or a failure (error), with abra's how-to-resolve as its reason.
 */
class RecipeLintTest {

    private static final Path CLEAN = Path.of("src/test/resources/lint/clean");
    private static final Optional<String> HEAD = Optional.of("1.2.0+1.27.0");

    @TempDir
    Path recipe;

    /** What a recipe of the fixture does to break one rule. */
    private interface Breakage {
        /** @return the lightweight release tags the broken recipe has (R014's input) */
        List<String> apply(Path recipe) throws IOException;
    }

    private static Breakage edit(String file, String from, String to) {
        return recipe -> {
            String text = Files.readString(recipe.resolve(file));
            assertThat(text).as("the fixture's %s holds %s", file, from).contains(from);
            Files.writeString(recipe.resolve(file), text.replace(from, to));
            return List.of();
        };
    }

    private static Breakage delete(String file) {
        return recipe -> {
            Files.delete(recipe.resolve(file));
            return List.of();
        };
    }

    private static Breakage breakage(AbraRule rule) {
        return switch (rule) {
            case R001 -> edit("compose.yml", "version: \"3.8\"", "version: \"3.7\"");
            case R002 -> edit("compose.yml", "    healthcheck:\n      test: [\"CMD\", \"pg_isready\"]\n", "");
            case R003 -> edit("compose.yml", "nginx:${NGINX_VERSION:-1.27.0}", "nginx");
            case R004 -> edit("compose.yml", "nginx:${NGINX_VERSION:-1.27.0}", "nginx:latest");
            case R005 -> edit("compose.yml", "nginx:${NGINX_VERSION:-1.27.0}", "nginx:mainline");
            case R007 -> edit("README.md", "* **Email**: N/A", "* **Email**:");
            case R008 -> delete(".env.sample");
            case R009 -> edit("compose.yml", "  app:\n", "  web:\n");
            case R010 -> edit("compose.yml", "        - \"traefik.enable=true\"\n", "");
            case R011 -> edit("compose.yml", "    image: postgres:15.3-bookworm\n", "");
            case R012 -> delete("abra.sh");
            case R014 -> recipe -> List.of("1.1.0+1.27.0", "1.2.0+1.27.0");
            case R015 -> edit("compose.yml", "secrets:\n  db_password:\n", "secrets:\n  db_password_generated:\n");
            // the app's labels moved to db: R010 and the version label still hold
            case R016 -> recipe -> {
                String compose = Files.readString(recipe.resolve("compose.yml"));
                int at = compose.indexOf("    deploy:\n");
                int end = compose.indexOf("  db:\n");
                String deploy = compose.substring(at, end);
                Files.writeString(recipe.resolve("compose.yml"), compose.substring(0, at) + compose.substring(end)
                        .replace("      - db_password\n", "      - db_password\n" + deploy));
                return List.of();
            };
            case R006, R013 -> throw new IllegalArgumentException(rule + " is never judged here");
        };
    }

    private Map<String, LintResult> lint(AbraRule... broken) throws IOException {
        copy(CLEAN, recipe);
        List<String> lightweight = Stream.of(broken).flatMap(rule -> {
            try {
                return breakage(rule).apply(recipe).stream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
        return RecipeLint.lint(recipe, HEAD, lightweight);
    }

    private static Set<String> faults(Map<String, LintResult> results) {
        return results.entrySet().stream().filter(e -> e.getValue().outcome() == Outcome.WARNING
                || e.getValue().outcome() == Outcome.CRITICAL).map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    @Test
    void theFixtureBreaksNoRuleAndTheTwoThatNeedTheNetworkSaySo() throws IOException {
        Map<String, LintResult> results = lint();

        assertThat(results.keySet()).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(faults(results)).isEmpty();
        assertThat(results.entrySet().stream().filter(e -> e.getValue().outcome() == Outcome.NOT_JUDGED).map(Map.Entry::getKey))
                .containsExactlyInAnyOrder("R006-has-published-version", "R013-has-recipe-repo");
        assertThat(results.get("R006-has-published-version").reason()).startsWith("not verified here: ")
                .contains("publish a recipe version to the catalogue");
        assertThat(results.get("R013-has-recipe-repo").reason()).startsWith("not verified here: ");
    }

    @ParameterizedTest
    @EnumSource(value = AbraRule.class, mode = EnumSource.Mode.EXCLUDE, names = {"R006", "R013"})
    void aRecipeThatBreaksOneRuleGetsExactlyThatRuleAtItsLevelWithAbrasFix(AbraRule rule) throws IOException {
        Map<String, LintResult> results = lint(rule);

        assertThat(faults(results)).as("what the lint reports of a recipe that breaks %s", rule.check())
                .containsExactly(rule.check());
        LintResult result = results.get(rule.check());
        assertThat(result.outcome()).isEqualTo(rule.critical() ? Outcome.CRITICAL : Outcome.WARNING);
        assertThat(result.reason()).startsWith(rule.howToResolve() + " (" + rule.ref() + " " + rule.description() + ", "
                + rule.level() + "): ");
    }

    /** The held-out shape: several rules broken at once, exactly those reported. */
    @Test
    void aRecipeThatBreaksR001R004R011AndR012GetsExactlyThose() throws IOException {
        Map<String, LintResult> results = lint(AbraRule.R001, AbraRule.R004, AbraRule.R011, AbraRule.R012);

        assertThat(faults(results)).containsExactlyInAnyOrder("R001-compose-version", "R004-no-unstable-tags",
                "R011-image-present", "R012-abra-sh-vendors");
        assertThat(results.get("R004-no-unstable-tags").reason())
                .isEqualTo("tag all images with stable tags (R004 no unstable tags, warn): app (nginx:latest) has the unstable tag latest");
        assertThat(results.get("R011-image-present").reason())
                .isEqualTo("ensure \"image: ...\" set on all services (R011 all services have images, error): db has no image");
        assertThat(results.get("R012-abra-sh-vendors").outcome()).isEqualTo(Outcome.CRITICAL);
    }

    @Test
    void r010IsNotJudgedWhenTheSampleSetsNoDomainAsAbraSkipsIt() throws IOException {
        copy(CLEAN, recipe);
        edit(".env.sample", "DOMAIN=lint-demo.example.com\n", "").apply(recipe);
        edit("compose.yml", "        - \"traefik.enable=true\"\n", "").apply(recipe);

        Map<String, LintResult> results = RecipeLint.lint(recipe, HEAD, List.of());

        assertThat(results.get("R010-traefik-enabled").outcome()).isEqualTo(Outcome.NOT_JUDGED);
        assertThat(results.get("R010-traefik-enabled").reason()).contains("sets no DOMAIN");
        assertThat(faults(results)).containsExactly(CcciRules.ENV_SAMPLE);
    }

    @Test
    void ccciOwnChecksNameWhatIsWrong() throws IOException {
        copy(CLEAN, recipe);
        edit("compose.yml", "1.2.0+1.27.0", "1.1.0+1.27.0").apply(recipe);
        edit("compose.yml", "        - \"traefik.http.services.${STACK_NAME}.loadbalancer.server.port=80\"\n", "").apply(recipe);
        edit("compose.yml", "_nginx_conf_${NGINX_CONF_VERSION}", "_nginx_conf").apply(recipe);
        Files.delete(recipe.resolve("release/1.2.0+1.27.0"));

        Map<String, LintResult> results = RecipeLint.lint(recipe, HEAD, List.of());

        assertThat(faults(results)).containsExactlyInAnyOrder(CcciRules.VERSION_LABEL, CcciRules.TRAEFIK_ROUTING,
                CcciRules.CONFIG_VERSIONS, CcciRules.RELEASE_NOTES);
        assertThat(results.get(CcciRules.VERSION_LABEL).reason())
                .isEqualTo("version label 1.1.0+1.27.0 does not match the release tag 1.2.0+1.27.0");
        assertThat(results.get(CcciRules.CONFIG_VERSIONS).reason()).isEqualTo("configs not versioned in abra.sh:"
                + " nginx_conf has no version in its name (name: ${STACK_NAME}_nginx_conf_${NGINX_CONF_VERSION})");
        assertThat(results.get(CcciRules.RELEASE_NOTES).reason()).isEqualTo("no release notes for 1.2.0+1.27.0 (add release/1.2.0+1.27.0)");
        assertThat(results.values()).noneMatch(r -> r.outcome() == Outcome.CRITICAL);
    }

    @Test
    void aComposeFileThatDoesNotParseIsCriticalAndNothingElseIsJudged() throws IOException {
        copy(CLEAN, recipe);
        Files.writeString(recipe.resolve("compose.yml"), "services: [unclosed\n");

        Map<String, LintResult> results = RecipeLint.lint(recipe, HEAD, List.of());

        assertThat(results.get(CcciRules.COMPOSE_PARSES).outcome()).isEqualTo(Outcome.CRITICAL);
        assertThat(results.get(CcciRules.COMPOSE_PARSES).reason()).startsWith("compose.yml does not parse");
        assertThat(faults(results)).containsExactly(CcciRules.COMPOSE_PARSES);
    }

    /** The files .env.sample's COMPOSE_FILE names are read and merged; labels in map form count. */
    @Test
    void theComposeFilesOfTheSampleAreMergedAndMapFormLabelsCount() throws IOException {
        copy(CLEAN, recipe);
        edit(".env.sample", "TYPE=lint-demo\n", "TYPE=lint-demo\nCOMPOSE_FILE=\"compose.yml\"\n"
                + "COMPOSE_FILE=\"$COMPOSE_FILE:compose.extra.yml\"\n").apply(recipe);
        Files.writeString(recipe.resolve("compose.extra.yml"), """
                version: "3.8"
                services:
                  app:
                    deploy:
                      labels:
                        traefik.enable: "true"
                  worker:
                    image: busybox:latest
                """);
        edit("compose.yml", "        - \"traefik.enable=true\"\n", "").apply(recipe);

        Map<String, LintResult> results = RecipeLint.lint(recipe, HEAD, List.of());

        assertThat(faults(results)).containsExactlyInAnyOrder("R002-healthchecks", "R004-no-unstable-tags");
        assertThat(results.get("R002-healthchecks").reason()).endsWith(": worker has no healthcheck");
    }

    /**
     * Every bundled recipe's releases satisfy every critical rule (abra would deploy each), and
     * their findings are the ones the docs name: custom-html and its canaries, and notes-demo's front,
     * have no healthcheck; the broken canary's 1.1.0 forgot to bump its version label.
     */
    @Test
    void everyBundledReleaseSatisfiesEveryCriticalRuleAndHasTheFindingsTheDocsName() throws IOException {
        Map<String, Set<String>> findings = new java.util.TreeMap<>();
        try (Stream<Path> releases = Files.list(Path.of("../recipe-suites/recipes")).flatMap(r -> {
            try {
                return Files.list(r.resolve("versions"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        })) {
            for (Path release : releases.toList()) {
                Map<String, LintResult> results = RecipeLint.lint(release, Optional.of(release.getFileName().toString()), List.of());
                assertThat(results.values()).as("%s", release).noneMatch(r -> r.outcome() == Outcome.CRITICAL);
                findings.put(release.getParent().getParent().getFileName() + "@" + release.getFileName(), faults(results));
            }
        }
        Set<String> noHealthcheck = Set.of("R002-healthchecks");
        assertThat(findings).isEqualTo(Map.of(
                "custom-html@1.0.0+1.22.1", noHealthcheck, "custom-html@1.1.0+1.22.1", noHealthcheck,
                "custom-html-broken@1.0.0+1.36.0", noHealthcheck, "custom-html-broken@1.1.0+1.36.1",
                Set.of("R002-healthchecks", "ccci-version-label"),
                "custom-html-unbumped@1.0.0+1.22.1", noHealthcheck, "custom-html-unbumped@1.1.0+1.22.1", noHealthcheck,
                "guestbook@1.0.0+15.20", Set.of(), "guestbook@1.1.0+15.20", Set.of(),
                "notes-demo@0.1.0+1.36.0", noHealthcheck, "notes-demo@0.2.0+1.36.1", noHealthcheck));
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    static Set<AbraRule> judgedHere() {
        return EnumSet.complementOf(EnumSet.of(AbraRule.R006, AbraRule.R013));
    }
}
