package net.commoninternet.ccci.extensions.policy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * The registry an image reference names, which the engine dials to pull it: from the host's own
 * network, outside any container and so outside the egress rules. A recipe that names a registry
 * at a private, loopback or link-local address (a cloud's metadata service, the host's own
 * listeners, the LAN) would have the engine make a request of the recipe's choosing there.
 *
 * <p>So the deploy policy allows only registries known to be public ({@link #KNOWN}: Docker Hub and
 * the public registries recipes use) and ccci's own name for images built on the host
 * ({@link #LOCAL}, never pulled). Any other registry is refused as written, whatever it resolves to
 * now: a name of the recipe's choosing can resolve to the host's own public address, or to a
 * private one by the time the engine resolves it again (DNS rebinding), and no check of ccci's
 * can see the engine's own lookup. An operator can allow one image of another registry with the
 * deploy allowance the refusal names; such a registry is still refused at the pull if it resolves
 * to a private, loopback or link-local address ({@link #refusedAsResolved}).
 */
@API(status = API.Status.INTERNAL)
public final class ImageRegistry {

    /**
     * Registries known to be public, by the host a reference names (its port aside): Docker Hub's
     * names, and the public registries Co-op Cloud recipes pull from.
     */
    public static final Set<String> KNOWN = Set.of("docker.io", "index.docker.io", "registry-1.docker.io", "ghcr.io",
            "quay.io", "registry.gitlab.com", "codeberg.org", "git.coopcloud.tech", "lscr.io", "gcr.io", "mcr.microsoft.com",
            "public.ecr.aws", "docker.elastic.co", "registry.k8s.io");

    /** ccci's name for images built on the host ({@code scripts/setup-local-swarm}): never pulled. */
    public static final String LOCAL = "ccci.local";

    private ImageRegistry() {
    }

    /**
     * Why the deploy policy refuses {@code image} as written, or empty: Docker Hub (no registry
     * named), a {@link #KNOWN} registry and {@link #LOCAL} images pass.
     */
    static Optional<String> refusedByPolicy(String image) {
        Optional<String> host = host(image);
        if (host.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> written = refusedAsWritten(host.get());
        if (written.isPresent()) {
            return written;
        }
        String name = host.get().toLowerCase(Locale.ROOT);
        return KNOWN.contains(name) || name.equals(LOCAL) ? Optional.empty()
                : Optional.of(host.get() + " is not a registry ccci knows to be public (Docker Hub, "
                        + String.join(", ", new TreeSet<>(KNOWN).stream().filter(k -> !k.contains("docker.io")).toList())
                        + "), and a name can resolve to the host's own or a private address when the engine looks it up");
    }

    /**
     * The registry host of {@code image} as docker reads a reference: its first path component if
     * that has a {@code .} or a {@code :}, is {@code localhost}, or has an upper-case letter (no
     * repository name may, so docker takes it for a host: {@code Metadata/x}); else none (Docker Hub).
     */
    public static Optional<String> host(String image) {
        int slash = image.indexOf('/');
        if (slash < 0) {
            return Optional.empty();
        }
        String first = image.substring(0, slash);
        if (!first.contains(".") && !first.contains(":") && !first.equalsIgnoreCase("localhost")
                && first.equals(first.toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        String host = first.startsWith("[") ? first.substring(1, Math.max(1, first.indexOf(']'))) // [::1]:5000
                : first.indexOf(':') >= 0 ? first.substring(0, first.indexOf(':')) : first;
        return Optional.of(host);
    }

    /** Why the engine must not pull from {@code host} as it is written (an address literal or localhost), or empty. */
    static Optional<String> refusedAsWritten(String host) {
        if (host.equalsIgnoreCase("localhost") || host.toLowerCase(Locale.ROOT).endsWith(".localhost")) {
            return Optional.of(host + " is this host");
        }
        if (host.matches("[0-9.]+") || host.contains(":")) {
            try {
                return nonPublic(InetAddress.getByName(host)) ? Optional.of(host + " is a private, loopback or link-local address")
                        : Optional.empty();
            } catch (UnknownHostException notAnAddress) {
                return Optional.of(host + " is no address");
            }
        }
        return Optional.empty();
    }

    /** Why the engine must not pull from {@code host} as it resolves now, or empty: every address it has must be public. */
    public static Optional<String> refusedAsResolved(String host) {
        Optional<String> written = refusedAsWritten(host);
        if (written.isPresent()) {
            return written;
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (nonPublic(address)) {
                    return Optional.of(host + " resolves to " + address.getHostAddress() + ", a private, loopback or link-local"
                            + " address");
                }
            }
            return Optional.empty();
        } catch (UnknownHostException unknown) {
            return Optional.empty(); // nothing to dial: the pull fails in the engine's own words
        }
    }

    /** Loopback, link-local, site-local (RFC 1918, fc00::/7), shared (100.64/10), unspecified or multicast. */
    static boolean nonPublic(InetAddress address) {
        byte[] a = address.getAddress();
        boolean shared = a.length == 4 && (a[0] & 0xff) == 100 && (a[1] & 0xc0) == 64;
        boolean uniqueLocal = a.length == 16 && (a[0] & 0xfe) == 0xfc;
        return address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress() || shared || uniqueLocal;
    }
}
