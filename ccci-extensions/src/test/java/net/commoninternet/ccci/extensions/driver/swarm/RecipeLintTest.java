package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.of("1.2.0+1.27.0"), List.of());

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

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.of("1.2.0+1.27.0"), List.of());

        assertThat(findings.get("compose-parses")).isEmpty();
        assertThat(findings.get("env-sample")).contains(".env.sample does not set DOMAIN");
        assertThat(findings.get("version-label")).contains("version label 1.1.0+1.27.0 does not match the release tag 1.2.0+1.27.0");
        assertThat(findings.get("images-pinned")).contains("images without a pinned tag: app (nginx), db (postgres:latest)");
        assertThat(findings.get("traefik-routing")).isPresent();
        assertThat(findings.get("healthchecks")).contains("services without a healthcheck: app, db");
        assertThat(findings.get("release-notes")).contains("no release notes for 1.2.0+1.27.0 (release/1.2.0+1.27.0)");
        assertThat(findings.get("annotated-tags")).isEmpty();
        assertThat(findings.get("config-versions")).isEmpty();
    }

    /** abra's R014: release tags must be annotated. */
    @Test
    void lightweightReleaseTagsAreAFinding() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), GOOD);

        assertThat(RecipeLint.lint(recipe, Optional.empty(), List.of("1.0.0+1.27.0", "1.1.0+1.27.0")).get("annotated-tags"))
                .contains("lightweight release tags (abra reads annotated ones): 1.0.0+1.27.0, 1.1.0+1.27.0;"
                        + " replace each with git tag -a");
    }

    /** abra's R010: a config made from a file carries a version abra.sh exports. */
    @Test
    void aConfigWhoseVersionAbraShDoesNotExportIsAFinding() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), GOOD + """
                configs:
                  nginx_conf:
                    name: ${STACK_NAME}_nginx_conf_${NGINX_CONF_VERSION}
                    file: nginx.conf.tmpl
                    template_driver: golang
                  entrypoint:
                    name: ${STACK_NAME}_entrypoint
                    file: entrypoint.sh
                  shared:
                    external: true
                    name: shared_conf
                """);
        Files.writeString(recipe.resolve("abra.sh"), "export OTHER_VERSION=v1\n  export NGINX_CONF_VERSION=v1 # in a function\n");

        assertThat(RecipeLint.lint(recipe, Optional.empty(), List.of()).get("config-versions"))
                .contains("configs not versioned in abra.sh: nginx_conf's NGINX_CONF_VERSION is not exported by abra.sh;"
                        + " entrypoint has no version in its name (name: ${STACK_NAME}_entrypoint_${ENTRYPOINT_VERSION})");

        Files.writeString(recipe.resolve("abra.sh"), "export NGINX_CONF_VERSION=v1\nexport ENTRYPOINT_VERSION=v1\n");
        Files.writeString(recipe.resolve("compose.yml"), Files.readString(recipe.resolve("compose.yml"))
                .replace("${STACK_NAME}_entrypoint\n", "${STACK_NAME}_entrypoint_${ENTRYPOINT_VERSION}\n"));
        assertThat(RecipeLint.lint(recipe, Optional.empty(), List.of()).get("config-versions")).isEmpty();
    }

    /**
     * Labels are read from the parsed YAML: a commented-out version label never wins, map-form
     * labels count, and the older coop-cloud.${STACK_NAME}.app.version is read when there is no
     * version label.
     */
    @Test
    void theVersionLabelIsReadFromParsedYamlInListOrMapFormAndTheOlderAppVersionForm() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), """
                version: "3.8"
                services:
                  app:
                    image: nginx:1.27.0
                    deploy:
                      labels:
                        # - "coop-cloud.${STACK_NAME}.version=9.9.9+commented"
                        traefik.enable: "true"
                        traefik.http.services.x.loadbalancer.server.port: "80"
                        coop-cloud.${STACK_NAME}.version: 1.2.0+1.27.0
                """);
        assertThat(RecipeLint.lint(recipe, Optional.of("1.2.0+1.27.0"), List.of()))
                .containsEntry("version-label", Optional.empty()).containsEntry("traefik-routing", Optional.empty());

        Files.writeString(recipe.resolve("compose.yml"), GOOD.replace(".version=", ".app.version="));
        assertThat(RecipeLint.lint(recipe, Optional.of("v1.2.0+1.27.0"), List.of())).containsEntry("version-label", Optional.empty());
    }

    @Test
    void aComposeFileThatDoesNotParseIsTheFindingOfEveryRule() throws Exception {
        Files.writeString(recipe.resolve("compose.yml"), "services: [unclosed\n");

        Map<String, Optional<String>> findings = RecipeLint.lint(recipe, Optional.empty(), List.of());

        assertThat(findings.get("compose-parses").orElseThrow()).startsWith("compose.yml does not parse");
        assertThat(findings.values()).allMatch(Optional::isPresent);
    }
}
