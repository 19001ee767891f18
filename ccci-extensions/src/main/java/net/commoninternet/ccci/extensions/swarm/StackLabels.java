package net.commoninternet.ccci.extensions.swarm;

import java.util.Map;
import org.apiguardian.api.API;

/** The labels that tie swarm objects to a stack, as {@code docker stack deploy} sets them. */
@API(status = API.Status.INTERNAL)
public final class StackLabels {

    /** Set by {@code docker stack deploy} on services, networks, volumes, secrets and configs. */
    public static final String NAMESPACE = "com.docker.stack.namespace";

    /**
     * Set by ccci on a stack's probe and browser containers ({@link ProbeContainer}, {@link PageBrowser}):
     * plain containers, no swarm object, removed with the stack and found by the janitor by this label.
     */
    public static final String PROBE = "net.commoninternet.ccci.probe";

    private StackLabels() {
    }

    public static Map<String, String> of(String stack) {
        return Map.of(NAMESPACE, stack);
    }

    /** A stack's probe and browser containers, as an engine list's label filter. */
    public static String probeFilter(String stack) {
        return PROBE + "=" + stack;
    }

    public static String filter(String stack) {
        return NAMESPACE + "=" + stack;
    }
}
