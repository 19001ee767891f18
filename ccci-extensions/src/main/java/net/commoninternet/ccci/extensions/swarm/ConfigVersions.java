package net.commoninternet.ccci.extensions.swarm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.commoninternet.ccci.extensions.docker.DockerEngine;
import net.commoninternet.ccci.extensions.policy.ComposeConfig;
import net.commoninternet.ccci.extensions.recipe.BoundedRead;
import net.commoninternet.ccci.extensions.recipe.ComposeFiles;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.RecipeLabels;
import org.apiguardian.api.API;

/**
 * Swarm never changes a config's content: a recipe that edits a config must give it a new name,
 * which Co-op Cloud recipes do with a version in the name
 * ({@code ${STACK_NAME}_nginx_conf_${NGINX_CONF_VERSION}}) exported by {@code abra.sh}. Before an
 * upgrade, every config of the new head that already exists on the swarm under the same name must
 * hold the same bytes; if not, the maintainer forgot the bump, and the upgrade fails with one line
 * naming the config and the variable to bump instead of swarm's raw "only updates to Labels are
 * allowed".
 */
@API(status = API.Status.INTERNAL)
public final class ConfigVersions {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VERSION_VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*VERSION)\\b");

    private ConfigVersions() {
    }

    /** Throws the one-line reason if a config of the app's final compose changed under a name that is already deployed. */
    public static void requireBumped(DockerEngine docker, App app, ComposeConfig compose) throws IOException {
        for (ComposeConfig.Config config : compose.configs().values()) {
            if (config.file() == null) {
                continue; // external: not the recipe's to change
            }
            Optional<byte[]> before = deployedData(docker, config.name());
            if (before.isPresent() && changed(config.file(), before.get())) {
                throw new IllegalStateException("config " + config.key() + " of " + app.recipe() + " changed ("
                        + app.recipeDir().relativize(config.file()) + ") but kept its name " + config.name()
                        + ", and swarm never updates a config in place: " + fix(app, config.key()) + ".");
            }
        }
    }

    /**
     * Whether the recipe's config file differs from what swarm holds under its name: a file of another
     * size differs unread, and one of the same size is read within that size (a recipe's file is never
     * read whole unbounded).
     */
    private static boolean changed(Path file, byte[] deployed) throws IOException {
        if (Files.size(file) != deployed.length) {
            return true;
        }
        try {
            return !Arrays.equals(BoundedRead.bytes(file, deployed.length, "keep it within swarm's 500 KB"), deployed);
        } catch (BoundedRead.TooLarge grew) {
            return true;
        }
    }

    /**
     * The content of the swarm config named {@code name}, if there is one. (docker-java's model
     * has no config data: the engine's own JSON is read.)
     */
    private static Optional<byte[]> deployedData(DockerEngine docker, String name) throws IOException {
        String filters = "{\"name\":[\"" + name + "\"]}";
        DockerHttpClient.Request request = DockerHttpClient.Request.builder().method(DockerHttpClient.Request.Method.GET)
                .path("/configs?filters=" + URLEncoder.encode(filters, StandardCharsets.UTF_8)).build();
        try (DockerHttpClient.Response response = docker.http().execute(request)) {
            JsonNode configs = JSON.readTree(response.getBody());
            if (response.getStatusCode() != 200 || !configs.isArray()) {
                throw new IOException("listing the swarm config " + name + " failed: HTTP " + response.getStatusCode());
            }
            for (JsonNode config : configs) { // the name filter matches prefixes too
                if (name.equals(config.path("Spec").path("Name").asText())) {
                    return Optional.of(Base64.getDecoder().decode(config.path("Spec").path("Data").asText("")));
                }
            }
            return Optional.empty();
        }
    }

    /** "bump X_VERSION in abra.sh", from the raw name the recipe's compose files give the config. */
    static String fix(App app, String key) throws IOException {
        Set<String> variables = new LinkedHashSet<>();
        for (String file : app.composeFiles()) {
            Path path = app.recipeDir().resolve(file);
            if (!Files.isRegularFile(path)) {
                continue;
            }
            JsonNode name = RecipeLabels.parse(BoundedRead.text(path, ComposeFiles.MAX_BYTES, "shrink it")).path("configs").path(key)
                    .path("name");
            if (name.isTextual()) {
                variables.clear();
                Matcher m = VERSION_VARIABLE.matcher(name.asText());
                while (m.find()) {
                    variables.add(m.group(1));
                }
            }
        }
        return variables.isEmpty()
                ? "give it a versioned name (name: ${STACK_NAME}_" + key + "_${" + key.toUpperCase(Locale.ROOT)
                        + "_VERSION}, exported by abra.sh) and bump the version with every change"
                : "bump " + String.join(" or ", variables) + " in abra.sh";
    }
}
