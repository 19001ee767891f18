package net.commoninternet.ccci.extensions.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.lint.LintedRecipe.Service;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import net.commoninternet.ccci.spi.LintResult;
import org.apiguardian.api.API;

/**
 * ccci's own lint checks, beside abra's rules and named {@code ccci-...} so nobody takes them for
 * abra's: what a run showed a recipe needs beyond abra's lint. Each is a finding (verdict-neutral)
 * but {@code ccci-compose-parses}, without which nothing can be judged (abra itself cannot lint
 * such a recipe). Where an abra rule already reports the fault (no {@code .env.sample}, no abra.sh,
 * no traefik label) the ccci check says so and is not judged, so one fault is one finding.
 */
@API(status = API.Status.INTERNAL)
public final class CcciRules {

    public static final String COMPOSE_PARSES = "ccci-compose-parses";
    public static final String ENV_SAMPLE = "ccci-env-sample";
    public static final String VERSION_LABEL = "ccci-version-label";
    public static final String TRAEFIK_ROUTING = "ccci-traefik-routing";
    public static final String RELEASE_NOTES = "ccci-release-notes";
    public static final String CONFIG_VERSIONS = "ccci-config-versions";

    public static final List<String> CHECKS = List.of(COMPOSE_PARSES, ENV_SAMPLE, VERSION_LABEL, TRAEFIK_ROUTING, RELEASE_NOTES,
            CONFIG_VERSIONS);

    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?\\+\\S+");
    private static final Pattern NAME_VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");

    private CcciRules() {
    }

    /** Every ccci check's result, in {@link #CHECKS} order. @param headRelease the release tag at the head, if it is one */
    public static Map<String, LintResult> lint(LintedRecipe recipe, Optional<String> headRelease) throws IOException {
        Map<String, LintResult> results = new LinkedHashMap<>();
        if (recipe.unreadable().isPresent() || recipe.services().isEmpty()) {
            results.put(COMPOSE_PARSES, LintResult.critical(recipe.unreadable().orElse("the compose files declare no services")
                    + " — fix the compose file: abra cannot lint or deploy it either"));
            CHECKS.stream().skip(1).forEach(c -> results.put(c, LintResult.notJudged("not judged: the compose files do not parse")));
            return results;
        }
        results.put(COMPOSE_PARSES, LintResult.satisfied());
        results.put(ENV_SAMPLE, recipe.sample().map(CcciRules::envSample)
                .orElse(LintResult.notJudged("not judged: no readable " + LintedRecipe.SAMPLE + " (" + AbraRule.R008.check() + ")")));
        results.put(VERSION_LABEL, versionLabel(recipe, headRelease));
        results.put(TRAEFIK_ROUTING, traefikRouting(recipe));
        results.put(RELEASE_NOTES, warning(headRelease.filter(v -> !Files.isRegularFile(recipe.dir().resolve("release").resolve(v)))
                .map(v -> "no release notes for " + v + " (add release/" + v + ")")));
        results.put(CONFIG_VERSIONS, configVersions(recipe));
        return results;
    }

    private static LintResult warning(Optional<String> finding) {
        return finding.map(LintResult::warning).orElse(LintResult.satisfied());
    }

    private static LintResult envSample(Map<String, String> values) {
        List<String> missing = List.of("TYPE", "DOMAIN").stream().filter(k -> !values.containsKey(k)).toList();
        return warning(missing.isEmpty() ? Optional.empty() : Optional.of(".env.sample does not set " + String.join(", ", missing)));
    }

    private static LintResult versionLabel(LintedRecipe recipe, Optional<String> headRelease) {
        Optional<String> version = recipe.services().values().stream()
                .map(s -> RecipeLabels.version(s.labelsOrEmpty(), null)).flatMap(Optional::stream).findFirst();
        if (version.isEmpty()) {
            return LintResult.warning("no service has a coop-cloud.${STACK_NAME}.version label: add one with the release,"
                    + " <semver>+<upstream>");
        }
        if (!VERSION.matcher(version.get()).matches() || RecipeVersion.parse(version.get()).isEmpty()) {
            return LintResult.warning("version label " + version.get() + " is not <semver>+<upstream>");
        }
        RecipeVersion declared = RecipeVersion.parse(version.get()).orElseThrow();
        // the same release, build metadata included; a tag's leading v is only spelling
        return warning(headRelease.filter(r -> RecipeVersion.parse(r).map(t -> t.semver().compareTo(declared.semver()) != 0).orElse(true))
                .map(r -> "version label " + version.get() + " does not match the release tag " + r));
    }

    /** Every service traefik routes names the port to route to; with none routed, R010 reports it. */
    private static LintResult traefikRouting(LintedRecipe recipe) {
        List<Service> routed = recipe.services().values().stream()
                .filter(s -> "true".equals(s.labelsOrEmpty().get("traefik.enable"))).toList();
        if (routed.isEmpty()) {
            return LintResult.notJudged("not judged: no service has traefik.enable=true (" + AbraRule.R010.check() + ")");
        }
        List<String> portless = routed.stream().filter(s -> s.labelsOrEmpty().keySet().stream()
                .noneMatch(l -> l.endsWith(".loadbalancer.server.port"))).map(Service::name).toList();
        return warning(portless.isEmpty() ? Optional.empty() : Optional.of("traefik routes " + String.join(", ", portless)
                + " without a traefik.http.services.<name>.loadbalancer.server.port label: name the port"));
    }

    /**
     * Every config the recipe makes from a file carries a version in its name that abra.sh exports:
     * swarm never changes a config's content, so each change needs a new name. Without abra.sh, R012 reports it.
     */
    private static LintResult configVersions(LintedRecipe recipe) throws IOException {
        List<Map.Entry<String, JsonNode>> fromFiles = recipe.configs().entrySet().stream()
                .filter(c -> !c.getValue().path("external").asBoolean(false) && c.getValue().has("file")).toList();
        if (!fromFiles.isEmpty() && !recipe.hasAbraSh()) {
            return LintResult.notJudged("not judged: the recipe has no abra.sh (" + AbraRule.R012.check() + ")");
        }
        Set<String> exported = recipe.abraShExports().keySet();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> config : fromFiles) {
            String name = config.getValue().path("name").asText("");
            List<String> versions = new ArrayList<>();
            Matcher m = NAME_VARIABLE.matcher(name);
            while (m.find()) {
                if (m.group(1).endsWith("VERSION")) {
                    versions.add(m.group(1));
                }
            }
            if (versions.isEmpty()) {
                problems.add(config.getKey() + " has no version in its name (name: ${STACK_NAME}_" + config.getKey()
                        + "_${" + config.getKey().toUpperCase(Locale.ROOT) + "_VERSION})");
            }
            versions.stream().filter(v -> !exported.contains(v))
                    .forEach(v -> problems.add(config.getKey() + "'s " + v + " is not exported by abra.sh"));
        }
        return warning(problems.isEmpty() ? Optional.empty()
                : Optional.of("configs not versioned in abra.sh: " + String.join("; ", problems)));
    }
}
