package net.commoninternet.ccci.extensions.driver.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.workspace.AppEnv;
import org.apiguardian.api.API;

/**
 * The embedded driver's recipe lint: the rules a Co-op Cloud maintainer expects of a recipe,
 * read from the checked-out tree (the raw {@code compose.yml}, so {@code ${STACK_NAME}} labels
 * are seen as written). Each rule yields a finding or nothing.
 */
@API(status = API.Status.INTERNAL)
public final class RecipeLint {

    public static final List<String> RULES = List.of("compose-parses", "env-sample", "version-label", "images-pinned",
            "traefik-routing", "healthchecks", "release-notes");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+\\+\\S+");

    private RecipeLint() {
    }

    /**
     * Findings per rule, in {@link #RULES} order (empty = satisfied).
     *
     * @param headRelease the release tag at the head, if the head is one
     */
    public static Map<String, Optional<String>> lint(Path recipe, Optional<String> headRelease) throws IOException {
        Map<String, Optional<String>> findings = new LinkedHashMap<>();
        JsonNode compose;
        try {
            compose = YAML.readTree(Files.readString(recipe.resolve("compose.yml")));
        } catch (IOException e) {
            findings.put("compose-parses", Optional.of("compose.yml does not parse: " + e.getMessage().lines().findFirst().orElse("")));
            RULES.stream().skip(1).forEach(r -> findings.put(r, Optional.of("not checked: compose.yml does not parse")));
            return findings;
        }
        JsonNode services = compose.path("services");
        findings.put("compose-parses", services.size() == 0 ? Optional.of("compose.yml declares no services") : Optional.empty());
        findings.put("env-sample", envSample(recipe));
        List<String> versions = new ArrayList<>();
        List<String> unpinned = new ArrayList<>();
        List<String> noHealthcheck = new ArrayList<>();
        boolean routed = false;
        for (Map.Entry<String, JsonNode> service : (Iterable<Map.Entry<String, JsonNode>>) services::fields) {
            String image = service.getValue().path("image").asText("");
            String tag = image.contains(":") ? image.substring(image.lastIndexOf(':') + 1) : "";
            if (tag.isEmpty() || tag.equals("latest") || tag.contains("/")) {
                unpinned.add(service.getKey() + " (" + (image.isEmpty() ? "no image" : image) + ")");
            }
            if (service.getValue().path("healthcheck").isMissingNode()) {
                noHealthcheck.add(service.getKey());
            }
            List<String> labels = labels(service.getValue().path("deploy").path("labels"));
            for (String label : labels) {
                if (label.startsWith("coop-cloud.${STACK_NAME}.version=")) {
                    versions.add(label.substring(label.indexOf('=') + 1));
                }
            }
            routed |= labels.contains("traefik.enable=true")
                    && labels.stream().anyMatch(l -> l.contains(".loadbalancer.server.port="));
        }
        findings.put("version-label", versionLabel(versions, headRelease));
        findings.put("images-pinned", unpinned.isEmpty() ? Optional.empty()
                : Optional.of("images without a pinned tag: " + String.join(", ", unpinned)));
        findings.put("traefik-routing", routed ? Optional.empty()
                : Optional.of("no service has traefik.enable=true and a loadbalancer.server.port label"));
        findings.put("healthchecks", noHealthcheck.isEmpty() ? Optional.empty()
                : Optional.of("services without a healthcheck: " + String.join(", ", noHealthcheck)));
        findings.put("release-notes", headRelease.filter(v -> !Files.isRegularFile(recipe.resolve("release").resolve(v)))
                .map(v -> "no release notes for " + v + " (release/" + v + ")"));
        return findings;
    }

    private static Optional<String> envSample(Path recipe) throws IOException {
        Path sample = recipe.resolve(".env.sample");
        if (!Files.isRegularFile(sample)) {
            return Optional.of("no .env.sample");
        }
        Map<String, String> values = AppEnv.read(sample).values();
        List<String> missing = new ArrayList<>();
        for (String key : List.of("TYPE", "DOMAIN")) {
            if (!values.containsKey(key)) {
                missing.add(key);
            }
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(".env.sample does not set " + String.join(", ", missing));
    }

    private static Optional<String> versionLabel(List<String> versions, Optional<String> headRelease) {
        if (versions.isEmpty()) {
            return Optional.of("no service has a coop-cloud.${STACK_NAME}.version label");
        }
        String version = versions.get(0);
        if (!VERSION.matcher(version).matches()) {
            return Optional.of("version label " + version + " is not <semver>+<upstream>");
        }
        return headRelease.filter(r -> !r.equals(version))
                .map(r -> "version label " + version + " does not match the release tag " + r);
    }

    private static List<String> labels(JsonNode node) {
        List<String> labels = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(l -> labels.add(l.asText()));
        } else if (node.isObject()) {
            node.fields().forEachRemaining(e -> labels.add(e.getKey() + "=" + e.getValue().asText()));
        }
        return labels;
    }
}
