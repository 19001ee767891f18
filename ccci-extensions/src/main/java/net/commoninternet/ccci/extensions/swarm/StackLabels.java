package net.commoninternet.ccci.extensions.swarm;

import java.util.Map;
import org.apiguardian.api.API;

/** The labels that tie swarm objects to a stack, as {@code docker stack deploy} sets them. */
@API(status = API.Status.INTERNAL)
public final class StackLabels {

    /** Set by {@code docker stack deploy} on services, networks, volumes, secrets and configs. */
    public static final String NAMESPACE = "com.docker.stack.namespace";

    /** Set by ccci on the one probe container of a stack ({@link ProbeContainer}): removed with the stack. */
    static final String PROBE = "net.commoninternet.ccci.probe";

    private StackLabels() {
    }

    public static Map<String, String> of(String stack) {
        return Map.of(NAMESPACE, stack);
    }

    static String filter(String stack) {
        return NAMESPACE + "=" + stack;
    }
}
