package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecipeLintTest {

    @TempDir
    Path recipe;

    private static final String GOOD = """
            version: "3.8"
            services:
              app:
                image: nginx:1.27.0
                healthcheck:
                  test: ["CMD", "true"]
                deploy:
                  labels:
                    - "traefik.enable=true"
                    - "traefik.http.services.${STACK_NAME}.loadbalancer.server.port=80"
                    - "coop-cloud.${STACK_NAME}.version=1.2.0+1.27.0"
            """;

    @Test
    void aRecipeThatFollowsTheRulesHasNoFinding() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), GOOD);
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=demo\nDOMAIN=demo.example.com\n");
        Files.createDirectories(recipe.resolve("release"));
        Files.writeString(recipe.resolve("release/1.2.0+1.27.0"), "notes");

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.of("1.2.0+1.27.0"));

        assertThat(findings.keySet()).containsExactlyElementsOf(RecipeLint.RULES);
        assertThat(findings.values()).allMatch(Optional::isEmpty);
    }

    @Test
    void eachRuleNamesWhatIsWrong() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: nginx
                    deploy:
                      labels:
                        - "coop-cloud.${STACK_NAME}.version=1.1.0+1.27.0"
                  db:
                    image: postgres:latest
                """);
        Files.writeString(recipe.resolve(".env.sample"), "TYPE=demo\n");

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.of("1.2.0+1.27.0"));

        assertThat(findings.get("compose-parses")).isEmpty();
        assertThat(findings.get("env-sample")).contains(".env.sample does not set DOMAIN");
        assertThat(findings.get("version-label")).contains("version label 1.1.0+1.27.0 does not match the release tag 1.2.0+1.27.0");
        assertThat(findings.get("images-pinned")).contains("images without a pinned tag: app (nginx), db (postgres:latest)");
        assertThat(findings.get("traefik-routing")).isPresent();
        assertThat(findings.get("healthchecks")).contains("services without a healthcheck: app, db");
        assertThat(findings.get("release-notes")).contains("no release notes for 1.2.0+1.27.0 (release/1.2.0+1.27.0)");
    }

    @Test
    void aComposeFileThatDoesNotParseIsTheFindingOfEveryRule() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), "services: [unclosed\n");

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.empty());

        assertThat(findings.get("compose-parses").orElseThrow()).startsWith("compose.yml does not parse");
        assertThat(findings.values()).allMatch(Optional::isPresent);
    }
}
