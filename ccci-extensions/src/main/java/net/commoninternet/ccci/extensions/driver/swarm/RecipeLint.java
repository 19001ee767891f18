package net.commoninternet.ccci.extensions.driver.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.recipe.BoundedRead;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.AbraSh;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import net.commoninternet.ccci.extensions.recipe.RecipeVersion;
import org.apiguardian.api.API;

/**
 * The embedded driver's recipe lint: the rules a Co-op Cloud maintainer expects of a recipe,
 * read from the checked-out tree (the raw {@code compose.yml}, parsed, so {@code ${STACK_NAME}}
 * labels are seen as written and a commented-out line is no label). Each rule yields a finding or
 * nothing. {@code annotated-tags} is abra's R014, {@code config-versions} its R010.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeLint {

    public static final List<String> RULES = List.of("compose-parses", "env-sample", "version-label", "images-pinned",
            "traefik-routing", "healthchecks", "release-notes", "annotated-tags", "config-versions");

    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?\\+\\S+");
    private static final Pattern NAME_VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");

    private RecipeLint() {
    }

    /**
     * Findings per rule, in {@link #RULES} order (empty = satisfied).
     *
     * @param headRelease the release tag at the head, if the head is one
     * @param lightweightTags the recipe's release tags that are not annotated
     */
    public static Map<String, Optional<String>> lint(Path recipe, Optional<String> headRelease, List<String> lightweightTags)
            throws IOException {
        Map<String, Optional<String>> findings = new LinkedHashMap<>();
        JsonNode compose;
        try {
            compose = RecipeLabels.parse(BoundedRead.text(recipe.resolve("compose.yml"), ComposeFiles.MAX_BYTES, "shrink it"));
        } catch (IOException e) {
            findings.put("compose-parses", Optional.of("compose.yml does not parse: " + e.getMessage().lines().findFirst().orElse("")));
            RULES.stream().skip(1).forEach(r -> findings.put(r, Optional.of("not checked: compose.yml does not parse")));
            return findings;
        }
        List<Map.Entry<String, JsonNode>> services = RecipeLabels.services(compose);
        findings.put("compose-parses", services.isEmpty() ? Optional.of("compose.yml declares no services") : Optional.empty());
        findings.put("env-sample", envSample(recipe));
        List<String> unpinned = new ArrayList<>();
        List<String> noHealthcheck = new ArrayList<>();
        boolean routed = false;
        for (Map.Entry<String, JsonNode> service : services) {
            String image = service.getValue().path("image").asText("");
            String tag = image.contains(":") ? image.substring(image.lastIndexOf(':') + 1) : "";
            if (tag.isEmpty() || tag.equals("latest") || tag.contains("/")) {
                unpinned.add(service.getKey() + " (" + (image.isEmpty() ? "no image" : image) + ")");
            }
            if (service.getValue().path("healthcheck").isMissingNode()) {
                noHealthcheck.add(service.getKey());
            }
            Map<String, String> labels = RecipeLabels.deployLabels(service.getValue());
            routed |= "true".equals(labels.get("traefik.enable"))
                    && labels.keySet().stream().anyMatch(l -> l.endsWith(".loadbalancer.server.port"));
        }
        findings.put("version-label", versionLabel(RecipeLabels.version(compose, null), headRelease));
        findings.put("images-pinned", unpinned.isEmpty() ? Optional.empty()
                : Optional.of("images without a pinned tag: " + String.join(", ", unpinned)));
        findings.put("traefik-routing", routed ? Optional.empty()
                : Optional.of("no service has traefik.enable=true and a loadbalancer.server.port label"));
        findings.put("healthchecks", noHealthcheck.isEmpty() ? Optional.empty()
                : Optional.of("services without a healthcheck: " + String.join(", ", noHealthcheck)));
        findings.put("release-notes", headRelease.filter(v -> !Files.isRegularFile(recipe.resolve("release").resolve(v)))
                .map(v -> "no release notes for " + v + " (release/" + v + ")"));
        findings.put("annotated-tags", lightweightTags.isEmpty() ? Optional.empty()
                : Optional.of("lightweight release tags (abra reads annotated ones): " + String.join(", ", lightweightTags)
                        + "; replace each with git tag -a"));
        findings.put("config-versions", configVersions(compose, AbraSh.exports(recipe).keySet()));
        return findings;
    }

    private static Optional<String> envSample(Path recipe) throws IOException {
        Path sample = recipe.resolve(".env.sample");
        if (!Files.isRegularFile(sample)) {
            return Optional.of("no .env.sample");
        }
        Map<String, String> values = EnvFile.read(sample).values();
        List<String> missing = new ArrayList<>();
        for (String key : List.of("TYPE", "DOMAIN")) {
            if (!values.containsKey(key)) {
                missing.add(key);
            }
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(".env.sample does not set " + String.join(", ", missing));
    }

    private static Optional<String> versionLabel(Optional<String> version, Optional<String> headRelease) {
        if (version.isEmpty()) {
            return Optional.of("no service has a coop-cloud.${STACK_NAME}.version label");
        }
        if (!VERSION.matcher(version.get()).matches() || RecipeVersion.parse(version.get()).isEmpty()) {
            return Optional.of("version label " + version.get() + " is not <semver>+<upstream>");
        }
        RecipeVersion declared = RecipeVersion.parse(version.get()).orElseThrow();
        // the same release, build metadata included; a tag's leading v is only spelling
        return headRelease.filter(r -> RecipeVersion.parse(r).map(t -> t.semver().compareTo(declared.semver()) != 0).orElse(true))
                .map(r -> "version label " + version.get() + " does not match the release tag " + r);
    }

    /**
     * Every config the recipe makes from a file must carry a version in its name that abra.sh
     * exports: swarm never changes a config's content, so each change needs a new name.
     */
    private static Optional<String> configVersions(JsonNode compose, Set<String> exported) {
        List<String> problems = new ArrayList<>();
        compose.path("configs").fields().forEachRemaining(config -> {
            if (config.getValue().path("external").asBoolean(false) || !config.getValue().has("file")) {
                return;
            }
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
        });
        return problems.isEmpty() ? Optional.empty() : Optional.of("configs not versioned in abra.sh: " + String.join("; ", problems));
    }
}
