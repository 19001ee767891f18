package net.commoninternet.ccci.lifecycle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * What the host's operator lets a recipe's compose reach of the host beyond the run's own swarm
 * objects, entry by entry: {@code -Dccci.deploy-allowance=traefik:volumes=/var/run/docker.sock,
 * traefik:ports=443} (a proxy recipe needs the Docker socket and the host's ports). Set on the host
 * only (the engine's {@code Constants}: the {@code -D} key, or an operator's file of root's,
 * {@code /etc/ccci/deploy-allowance}), never by anything in the recipe repository, and every run
 * that has one says so as a warning.
 *
 * <p>An entry names a recipe, a compose key the deploy policy refuses ({@link #isKey}) and, after
 * {@code =}, the one value it allows (a host path, a capability, a network, a port, a name);
 * without a value it allows every value of that key, which the warning says too. A value may say
 * {@value #STACK_NAME} and {@value #DOMAIN} for the run's own stack and domain (they change with
 * every run, so an entry for a label that names the run's router is written once): ccci puts in its
 * own names for the run ({@link #forRun}), never anything of the recipe's.
 */
@API(status = API.Status.INTERNAL)
public record DeployAllowance(Set<Entry> entries, String source) {

    /** The compose keys an operator may allow, as the deploy policy names them in its refusals. */
    public static final Set<String> KEYS = Set.of("volumes", "driver", "driver_opts", "cap_add", "devices", "privileged",
            "security_opt", "pid", "ipc", "userns_mode", "network_mode", "cgroup_parent", "cgroupns_mode", "networks",
            "ports", "secrets", "configs", "env_file");

    /**
     * Whether {@code key} can be one a refusal names: the deploy policy is an allowlist, so any key
     * of a compose can be refused, by its path within the service or object ({@code logging.driver},
     * {@code deploy.labels}, {@code networks.proxy.aliases}); {@link #KEYS} are the ones that reach
     * the host.
     */
    public static boolean isKey(String key) {
        return key.matches("[a-z_]+(\\.[A-Za-z0-9_-]+)*");
    }

    /** In an entry's value, the run's stack name (its domain with {@code _} for {@code .}). */
    public static final String STACK_NAME = "${STACK_NAME}";
    /** In an entry's value, the run's app domain. */
    public static final String DOMAIN = "${DOMAIN}";

    /** No allowance: the deploy policy refuses everything it names. */
    public static final DeployAllowance NONE = new DeployAllowance(Set.of());

    /** One allowance: {@code recipe:key} (any value) or {@code recipe:key=value}. */
    public record Entry(String recipe, String key, Optional<String> value) {
        public Entry {
            Objects.requireNonNull(recipe, "recipe");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        /**
         * The entry that allows exactly {@code key} with {@code value} to {@code recipe}, the run's
         * {@code stack} and {@code domain} in it written as {@value #STACK_NAME} and {@value #DOMAIN}
         * (the stack first: it is the domain with underscores, never inside it).
         */
        public static Entry forRun(String recipe, String key, String value, String stack, String domain) {
            String general = value.replace(stack, STACK_NAME).replace(domain, DOMAIN);
            return new Entry(recipe, key, value.isEmpty() ? Optional.empty() : Optional.of(general));
        }

        /** This entry with the run's own stack and domain in place of the placeholders. */
        Entry expanded(String stack, String domain) {
            return new Entry(recipe, key, value.map(v -> v.replace(STACK_NAME, stack).replace(DOMAIN, domain)));
        }

        /** As the operator writes it. */
        @Override
        public String toString() {
            return recipe + ":" + key + value.map(v -> "=" + v).orElse("");
        }
    }

    /**
     * @param source where the host set it, for the warnings: {@code -Dccci.deploy-allowance}, or
     *        that and the file {@code /etc/ccci/deploy-allowance}
     */
    public DeployAllowance {
        entries = Set.copyOf(entries);
        Objects.requireNonNull(source, "source");
    }

    /** Entries set with {@code -Dccci.deploy-allowance}. */
    public DeployAllowance(Set<Entry> entries) {
        this(entries, "-Dccci.deploy-allowance");
    }

    /** This allowance for one run: each entry's {@value #STACK_NAME} and {@value #DOMAIN} as the run's own. */
    public DeployAllowance forRun(String stack, String domain) {
        Set<Entry> expanded = new java.util.LinkedHashSet<>();
        entries.forEach(e -> expanded.add(e.expanded(stack, domain)));
        return new DeployAllowance(expanded, source);
    }

    /** The entries for {@code recipe}, in a stable order (for the run's warning). */
    public List<Entry> of(String recipe) {
        List<Entry> mine = new ArrayList<>(entries.stream().filter(e -> e.recipe().equals(recipe)).toList());
        mine.sort(Comparator.comparing(Entry::toString));
        return mine;
    }

    /** The entry that allows {@code recipe} this {@code key} with this {@code value}, if any. */
    public Optional<Entry> allowing(String recipe, String key, String value) {
        return of(recipe).stream().filter(e -> e.key().equals(key) && e.value().map(value::equals).orElse(true)).findFirst();
    }
}
