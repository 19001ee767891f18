package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the deployed compose joins where the recipe names the external {@code proxy} network: the
 * run's own network {@code name} (every network the recipe declares external with the name
 * {@code proxy}, whatever its key, is given that name); and, when {@code sharedToo}, the services
 * that join it also join the shared {@code proxy} (a dependency served by a warm app, which lives
 * there). The recipe's own networks stay its stack's own.
 */
@API(status = API.Status.INTERNAL)
public record ProxyNetwork(String name, boolean sharedToo) {

    /** The key under which the deployable compose declares the shared proxy, when it joins it too. */
    static final String SHARED_KEY = "ccci-shared-proxy";

    /** The recipe's own reading: the shared proxy, nothing rewritten. */
    public static final ProxyNetwork AS_WRITTEN = new ProxyNetwork(DeployPolicy.PROXY_NETWORK, false);

    /** {@code deployable} (the judged compose, a copy of its own) rewritten to join this network in place of the shared proxy. */
    void applyTo(JsonNode deployable) {
        if (equals(AS_WRITTEN) || !(deployable.path("networks") instanceof ObjectNode networks)) {
            return;
        }
        List<String> proxies = new ArrayList<>();
        networks.fields().forEachRemaining(e -> {
            if (e.getValue().path("external").asBoolean(false)
                    && e.getValue().path("name").asText(e.getKey()).equals(DeployPolicy.PROXY_NETWORK)) {
                proxies.add(e.getKey());
            }
        });
        for (String key : proxies) {
            ObjectNode declared = networks.putObject(key);
            declared.put("name", name).put("external", true);
        }
        if (!sharedToo || proxies.isEmpty()) {
            return;
        }
        String shared = SHARED_KEY;
        for (int n = 2; networks.has(shared); n++) {
            shared = SHARED_KEY + "-" + n;
        }
        networks.putObject(shared).put("name", DeployPolicy.PROXY_NETWORK).put("external", true);
        String sharedKey = shared;
        deployable.path("services").forEach(service -> {
            JsonNode joined = service.path("networks");
            if (joined instanceof ObjectNode map && proxies.stream().anyMatch(map::has)) {
                map.set(sharedKey, NullNode.getInstance());
            } else if (joined.isArray() && proxies.stream().anyMatch(p -> contains(joined, p))) {
                ((com.fasterxml.jackson.databind.node.ArrayNode) joined).add(sharedKey);
            }
        });
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
