package net.commoninternet.ccci.extensions.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A recipe's traefik labels, judged as traefik would read them on a real Co-op Cloud server,
 * where one traefik routes every app: a recipe may route only its run's own domain (and its
 * subdomains), to itself, through routers, services and middlewares named in its own stack's
 * namespace. Refused:
 * <ul>
 *   <li>a router whose rule can match a host other than the run's domain: a {@code Host} naming
 *       another domain, a regexp host, or a rule with an alternative that has no {@code Host} at all
 *       (it matches every host); a TLS domain other than the run's (traefik would ask a CA for it);
 *   <li>a router, service or middleware named outside the stack ({@code traefik.http.services.<other
 *       run's name>} would join that run's load balancer and take its traffic), and a router's service
 *       or middleware of another provider ({@code api@internal} is traefik's own dashboard);
 *   <li>TCP and UDP routers (they take a port of the proxy), {@code forwardauth} and plugins (traefik
 *       dials an address the recipe chooses, with the request's headers), a users file (traefik reads
 *       a file of its host), and every label ccci does not know.
 * </ul>
 */
final class TraefikLabels {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Set<String> ROUTER_SCALARS = Set.of("priority", "tls", "tls.certresolver", "tls.options");
    private static final Set<String> MIDDLEWARES = Set.of("redirectregex", "redirectscheme", "headers", "stripprefix",
            "stripprefixregex", "addprefix", "replacepath", "replacepathregex", "compress", "chain", "ratelimit", "inflightreq",
            "buffering", "retry", "circuitbreaker", "ipwhitelist", "ipallowlist", "basicauth", "digestauth", "contenttype",
            "errors");
    private static final Pattern LOADBALANCER = Pattern.compile("server\\.(port|scheme|weight)|passhostheader"
            + "|sticky\\.cookie(\\.(name|secure|httponly|samesite|maxage|path))?|responseforwarding\\.flushinterval"
            + "|healthcheck\\.(path|interval|timeout|scheme|port|hostname|followredirects|method|status|mode|headers\\.[^.]+)");
    private static final Pattern TLS_DOMAIN = Pattern.compile("tls\\.domains\\[\\d+\\]\\.(main|sans)");

    private TraefikLabels() {
    }

    /** Why ccci refuses the label and the fix, or empty if it routes only the run's own domain to itself. */
    static Optional<String[]> why(ComposeJudging judging, String key, String value, Map<String, String> labels) {
        String[] part = key.split("\\.", 5);
        if (key.equals("traefik.enable") || key.equals("traefik.docker.lbswarm")) {
            return flag(value);
        }
        if (key.equals("traefik.docker.network")) {
            return value.equals(DeployPolicy.PROXY_NETWORK) ? Optional.empty() : refuse("sends traefik to a network other"
                    + " than " + DeployPolicy.PROXY_NETWORK, "traefik reaches apps on " + DeployPolicy.PROXY_NETWORK + ".");
        }
        if (part.length >= 2 && (part[1].equals("tcp") || part[1].equals("udp"))) {
            return refuse("opens a " + part[1].toUpperCase(Locale.ROOT) + " router, which takes a port of the proxy"
                    + " beyond the run's own domain", "a recipe is reached over HTTP(S) at its domain; drop it.");
        }
        if (part.length < 5 || !part[1].equals("http") || !Set.of("routers", "services", "middlewares").contains(part[2])) {
            return unknown();
        }
        String name = part[3];
        // traefik's label decoder matches option names whatever their case: each is judged by its
        // lower-case name, so a refused option (usersFile, errors.Service) stays refused in any spelling
        String option = part[4].toLowerCase(Locale.ROOT);
        if (!own(judging, name)) {
            // a mapping key is never interpolated: every app that writes it so shares the one literal name
            return refuse("names a traefik " + part[2].replaceFirst("s$", "") + " outside the run's own (" + judging.stack
                    + "), so it can join or replace another app's", name.contains("$") ? "write the label in list form"
                    + " (- \"" + key + "=...\"): compose interpolates values, never mapping keys, so this name is the same"
                    + " literal text in every app that writes it." : "name it ${STACK_NAME} or ${STACK_NAME}-<name>.");
        }
        return switch (part[2]) {
            case "routers" -> router(judging, option, value, syntaxes(labels, "traefik.http.routers." + name + "."));
            case "services" -> option.startsWith("loadbalancer.") && LOADBALANCER.matcher(option.substring(13)).matches()
                    ? Optional.empty() : unknown();
            case "middlewares" -> middleware(judging, option, value);
            default -> unknown();
        };
    }

    private static Optional<String[]> router(ComposeJudging judging, String option, String value,
            Set<TraefikRule.Syntax> syntaxes) {
        if (option.equals("rule")) {
            return rule(judging, value, syntaxes);
        }
        if (option.equals("rulesyntax")) {
            return TraefikRule.Syntax.of(value).isPresent() ? Optional.empty() : unknown();
        }
        if (option.equals("entrypoints")) {
            return list(value).stream().allMatch(e -> NAME.matcher(e).matches()) ? Optional.empty() : unknown();
        }
        if (option.equals("service") || option.equals("middlewares")) {
            for (String ref : list(value)) {
                if (!ownReference(judging, ref)) {
                    return refuse("sends the router's requests through " + ref + ", which is not the run's own", "name the"
                            + " run's own " + (option.equals("service") ? "service" : "middlewares") + " (${STACK_NAME}...).");
                }
            }
            return Optional.empty();
        }
        if (TLS_DOMAIN.matcher(option).matches()) {
            for (String host : list(value)) {
                // a wildcard certificate of the run's domain covers its own subdomains only
                if (!ownHost(judging, host.strip().startsWith("*.") ? host.strip().substring(2) : host)) {
                    return refuse("asks for a certificate for " + host + ", a domain other than the run's own ("
                            + judging.domain + ")", "name ${DOMAIN}, a subdomain of it or *.${DOMAIN}.");
                }
            }
            return Optional.empty();
        }
        return ROUTER_SCALARS.contains(option) && !value.contains("@internal") ? Optional.empty() : unknown();
    }

    private static Optional<String[]> middleware(ComposeJudging judging, String option, String value) {
        String type = option.split("\\.", 2)[0];
        if (type.equals("forwardauth") || type.equals("plugin")) {
            return refuse("makes traefik dial an address the recipe chooses, with the request's headers",
                    "drop the " + type + " middleware.");
        }
        if (option.endsWith(".usersfile")) {
            return refuse("makes traefik read a file of its host", "give the users inline (" + type + ".users).");
        }
        if (!MIDDLEWARES.contains(type)) {
            return unknown();
        }
        if (option.equals("chain.middlewares") || option.equals("errors.service")) {
            for (String ref : list(value)) {
                if (!ownReference(judging, ref)) {
                    return refuse("chains " + ref + ", which is not the run's own", "name the run's own (${STACK_NAME}...).");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A router's rule, parsed as traefik's rule language ({@code Host(`a`) && PathPrefix(`/x`) ||
     * !Method(`GET`)}) into the hosts it can match ({@link TraefikRule}), and accepted if every one of
     * them is the run's domain or a subdomain of it ({@link HostLanguage#confined}). A router whose
     * {@code rulesyntax} label names v2 or v3 is read in that syntax; without one (the server's
     * default decides) in both, and both must be confined.
     */
    private static Optional<String[]> rule(ComposeJudging judging, String value, Set<TraefikRule.Syntax> syntaxes) {
        // a pure function of the rule, its syntaxes and the domain, judged again at each deploy of a run: kept
        String key = judging.domain + "\n" + new java.util.TreeSet<>(syntaxes) + "\n" + value;
        synchronized (JUDGED) {
            Optional<String[]> known = JUDGED.get(key);
            if (known != null) {
                return known;
            }
        }
        Optional<String[]> judged = judgedRule(judging, value, syntaxes);
        synchronized (JUDGED) {
            JUDGED.put(key, judged);
        }
        return judged;
    }

    /** The rules judged so far (some tens of milliseconds each), the least recently used dropped beyond 256. */
    private static final Map<String, Optional<String[]>> JUDGED = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Optional<String[]>> eldest) {
            return size() > 256;
        }
    };

    private static Optional<String[]> judgedRule(ComposeJudging judging, String value, Set<TraefikRule.Syntax> syntaxes) {
        dk.brics.automaton.Automaton hosts;
        try {
            hosts = TraefikRule.hosts(value, syntaxes);
        } catch (IllegalArgumentException unreadable) {
            return refuse("is a router rule ccci cannot read (" + unreadable.getMessage() + ")",
                    "write it as Host(`${DOMAIN}`), with && and || of traefik's matchers.");
        }
        if (HostLanguage.confined(hosts, judging.domain)) {
            return Optional.empty();
        }
        String example = HostLanguage.foreign(hosts, judging.domain).toLowerCase(Locale.ROOT);
        return refuse("can match requests for " + example + ", a host other than"
                + " the run's own domain (" + judging.domain + ")", "a recipe's routers match only Host(`${DOMAIN}`), its"
                + " subdomains, or a HostRegexp every match of which ends in .${DOMAIN}; join an alternative that can match"
                + " any host with Host(`${DOMAIN}`) (&&).");
    }

    /** The syntaxes a router's rule is read in: the one its {@code rulesyntax} label names, or both. */
    private static Set<TraefikRule.Syntax> syntaxes(Map<String, String> labels, String router) {
        for (Map.Entry<String, String> label : labels.entrySet()) {
            if (label.getKey().equalsIgnoreCase(router + "rulesyntax")) {
                return TraefikRule.Syntax.of(label.getValue()).map(Set::of).orElse(Set.of(TraefikRule.Syntax.values()));
            }
        }
        return Set.of(TraefikRule.Syntax.values());
    }

    /** A router's, service's or middleware's name in the stack's namespace. */
    private static boolean own(ComposeJudging judging, String name) {
        return name.equals(judging.stack) || name.startsWith(judging.stack + "-") || name.startsWith(judging.stack + "_");
    }

    /** A reference to the run's own router, service or middleware, of the docker (or swarm) provider. */
    private static boolean ownReference(ComposeJudging judging, String ref) {
        int at = ref.indexOf('@');
        String provider = at < 0 ? "docker" : ref.substring(at + 1);
        return (provider.equals("docker") || provider.equals("swarm")) && own(judging, at < 0 ? ref : ref.substring(0, at));
    }

    /** The run's domain or a subdomain of it (case-insensitive, as DNS is). */
    private static boolean ownHost(ComposeJudging judging, String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        String domain = judging.domain.toLowerCase(Locale.ROOT);
        return h.equals(domain) || h.endsWith("." + domain) && !h.substring(0, h.length() - domain.length() - 1).isEmpty()
                && h.substring(0, h.length() - domain.length() - 1).matches("[a-z0-9.-]+");
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static Optional<String[]> flag(String value) {
        return Set.of("true", "false").contains(value) ? Optional.empty() : unknown();
    }

    private static Optional<String[]> unknown() {
        return refuse("is a traefik label ccci does not know to be safe (it allows a router's rule, entrypoints, service,"
                + " middlewares, priority and tls of the run's own domain, its services' load balancer, and the common"
                + " HTTP middlewares)", "drop it.");
    }

    private static Optional<String[]> refuse(String why, String fix) {
        return Optional.of(new String[] {why, fix});
    }
}
