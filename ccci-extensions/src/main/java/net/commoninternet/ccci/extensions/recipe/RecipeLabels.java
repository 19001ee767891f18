package net.commoninternet.ccci.extensions.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The labels abra reads from a recipe, {@code coop-cloud.${STACK_NAME}.<name>} on a service's
 * {@code deploy.labels}, read from parsed YAML (a commented-out label is no label) in list form
 * ({@code - "k=v"}) or map form ({@code k: v}). A label key is found as written
 * ({@code ${STACK_NAME}}: the raw compose, and map-form keys, which compose never interpolates) or
 * with the stack's own name (an interpolated config, the swarm's service labels).
 *
 * <ul>
 *   <li>{@code version}: the recipe release the compose declares; older recipes write
 *       {@code coop-cloud.${STACK_NAME}.app.version}, read when there is no {@code version};
 *   <li>{@code timeout}: how long abra waits for the deploy to converge, in seconds.
 * </ul>
 */
@API(status = API.Status.INTERNAL)
public final class RecipeLabels {

    public static final String VERSION = "version";
    static final String APP_VERSION = "app.version";
    public static final String TIMEOUT = "timeout";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RecipeLabels() {
    }

    /** The resolved compose's reader: it parses up to the whole of what ccci judges ({@link ComposeFiles#MAX_BYTES}). */
    private static final ObjectMapper WHOLE = new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(codePoints(ComposeFiles.MAX_BYTES + 1)).build());

    private static org.yaml.snakeyaml.LoaderOptions codePoints(int limit) {
        org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
        options.setCodePointLimit(limit);
        return options;
    }

    /** A compose file's text, parsed. */
    public static JsonNode parse(String compose) throws IOException {
        return YAML.readTree(compose);
    }

    /** A compose tree as YAML the docker CLI reads. */
    public static String write(JsonNode compose) throws IOException {
        return YAML.writeValueAsString(compose);
    }

    /** The resolved compose's text, parsed whole (SnakeYAML's default stops at 3 MiB). */
    public static JsonNode parseWhole(String compose) throws IOException {
        return WHOLE.readTree(compose);
    }

    /** A service's {@code deploy.labels}, list or map form, as a map (list form: split at the first '='). */
    public static Map<String, String> deployLabels(JsonNode service) {
        JsonNode node = service.path("deploy").path("labels");
        Map<String, String> labels = new LinkedHashMap<>();
        if (node.isArray()) {
            node.forEach(l -> {
                String text = l.asText();
                int eq = text.indexOf('=');
                labels.put(eq < 0 ? text : text.substring(0, eq), eq < 0 ? "" : text.substring(eq + 1));
            });
        } else if (node.isObject()) {
            node.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        }
        return labels;
    }

    /** {@code coop-cloud.<stack>.<name>} in one service's labels, as written or interpolated ({@code stack} may be null). */
    public static Optional<String> in(Map<String, String> labels, String stack, String name) {
        for (String prefix : prefixes(stack)) {
            String value = labels.get(prefix + name);
            if (value != null) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The recipe version a service's labels declare: {@code version}, else the older {@code app.version}. */
    public static Optional<String> version(Map<String, String> labels, String stack) {
        return in(labels, stack, VERSION).or(() -> in(labels, stack, APP_VERSION));
    }

    /** The first service of a parsed compose that carries the label (services in file order). */
    public static Optional<String> find(JsonNode compose, String stack, String name) {
        for (Map.Entry<String, JsonNode> service : services(compose)) {
            Optional<String> value = in(deployLabels(service.getValue()), stack, name);
            if (value.isPresent()) {
                return value;
            }
        }
        return Optional.empty();
    }

    /** The recipe version a parsed compose declares, on any service. */
    public static Optional<String> version(JsonNode compose, String stack) {
        return find(compose, stack, VERSION).or(() -> find(compose, stack, APP_VERSION));
    }

    public static List<Map.Entry<String, JsonNode>> services(JsonNode compose) {
        List<Map.Entry<String, JsonNode>> services = new ArrayList<>();
        compose.path("services").fields().forEachRemaining(services::add);
        return services;
    }

    private static List<String> prefixes(String stack) {
        return stack == null ? List.of("coop-cloud.${STACK_NAME}.", "coop-cloud.$STACK_NAME.")
                : List.of("coop-cloud." + stack + ".", "coop-cloud.${STACK_NAME}.", "coop-cloud.$STACK_NAME.");
    }
}
