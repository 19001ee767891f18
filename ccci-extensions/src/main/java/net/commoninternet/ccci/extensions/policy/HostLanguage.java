package net.commoninternet.ccci.extensions.policy;

import dk.brics.automaton.Automaton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The hosts a traefik matcher can match, as a regular language (dk.brics.automaton), and the one
 * question the policy asks of it: is every host it can match the run's domain or a subdomain of it?
 *
 * <p>What a request's host can be: a client sends any {@code Host} it likes, so the language is of
 * strings; what could be another app's or another site's is a real host name (letters, digits,
 * {@code -} and {@code _} in dot-separated labels, a trailing dot as a fully qualified name may have),
 * an IP literal, or no host at all, each with or without a port ({@link #valid()}). A rule is
 * confined if every such host it can match is the run's domain or ends in {@code .<domain>}
 * ({@link #own}), letters in any case, as DNS and traefik compare them: a host name nobody's DNS
 * can hold (braces, slashes) reaches only a client that made it up.
 *
 * <p>Each language is at least what traefik matches ({@link GoRegexp}'s invariant), so a rule
 * judged confined is confined.
 */
final class HostLanguage {

    private HostLanguage() {
    }

    /** Every host: what a matcher that says nothing of the host (a path, a negation) lets through. */
    static Automaton all() {
        return GoRegexp.anyChar().repeat();
    }

    /** {@code Host(`name`)}: the name, in any case, with any port. */
    static Automaton host(String name) {
        return GoRegexp.literal(name).concatenate(port());
    }

    /**
     * traefik v3's {@code HostRegexp(`re`)} (and {@code HostSNIRegexp}): a Go regular expression that
     * matches a host if it matches anywhere in it (Go's {@code MatchString}), so only its anchors pin
     * it to the host's start or end.
     */
    static Automaton regexp(String re) {
        return matched(GoRegexp.of(re)).concatenate(port());
    }

    /**
     * traefik v2's {@code HostRegexp(`{sub:[a-z]+}.example.org`)}: a gorilla/mux host template, the
     * text between variables literal, a variable {@code {name}} one label ({@code [^.]+}) or
     * {@code {name:re}} the Go expression re, the whole anchored at both ends.
     */
    static Automaton template(String template) {
        List<Automaton> parts = new ArrayList<>(List.of(Automaton.makeChar(GoRegexp.BEGIN)));
        int level = 0;
        int open = 0;
        int literalFrom = 0;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '{' && level++ == 0) {
                parts.add(GoRegexp.literal(template.substring(literalFrom, i)));
                open = i;
            } else if (c == '}' && --level == 0) {
                String[] variable = template.substring(open + 1, i).split(":", 2);
                if (variable[0].isEmpty() || variable.length == 2 && variable[1].isEmpty()) {
                    throw new IllegalArgumentException("a template variable with no name or pattern in " + template);
                }
                parts.add(variable.length == 2 ? GoRegexp.of(variable[1]) : GoRegexp.anyChar().minus(Automaton.makeChar('.'))
                        .repeat(1));
                literalFrom = i + 1;
            } else if (level < 0) {
                throw new IllegalArgumentException("unbalanced braces in " + template);
            }
        }
        if (level != 0) {
            throw new IllegalArgumentException("unbalanced braces in " + template);
        }
        parts.add(GoRegexp.literal(template.substring(literalFrom)));
        parts.add(Automaton.makeChar(GoRegexp.END));
        return matched(Automaton.concatenate(parts)).concatenate(port());
    }

    /** Whether every real host {@code hosts} can match is {@code domain} or a subdomain of it. */
    static boolean confined(Automaton hosts, String domain) {
        return hosts.intersection(valid()).subsetOf(own(domain));
    }

    /**
     * For the refusal's sentence, a host of {@code hosts} that is not the run's own: "any host" if it
     * matches hosts of every kind, else a shortest such name, one starting with a letter if it has one.
     */
    static String foreign(Automaton hosts, String domain) {
        if (hosts.run("") && hosts.run("example.com") && hosts.run("10.0.0.1:80")) {
            return "any host";
        }
        Automaton foreign = hosts.intersection(valid()).minus(own(domain));
        Automaton named = Automaton.makeCharRange('a', 'z').concatenate(GoRegexp.anyChar().repeat());
        return Optional.ofNullable(foreign.intersection(named).getShortestExample(true))
                .or(() -> Optional.ofNullable(foreign.getShortestExample(true))).map(h -> h.isEmpty() ? "no Host at all" : h)
                .orElse("a host");
    }

    /** {@code domain} or any name ending in {@code .domain}, fully qualified or not, any case, any port. */
    private static Automaton own(String domain) {
        Automaton sub = GoRegexp.anyChar().repeat().concatenate(Automaton.makeChar('.')).optional();
        return sub.concatenate(GoRegexp.literal(domain)).concatenate(Automaton.makeChar('.').optional()).concatenate(port());
    }

    /** Every host a request for a real site can carry: a DNS name, an IP literal, or none; with or without a port. */
    private static Automaton valid() {
        Automaton label = Automaton.makeCharRange('a', 'z').union(Automaton.makeCharRange('A', 'Z'))
                .union(Automaton.makeCharRange('0', '9')).union(Automaton.makeCharSet("-_")).repeat(1);
        Automaton name = label.concatenate(Automaton.makeChar('.').concatenate(label).repeat())
                .concatenate(Automaton.makeChar('.').optional());
        Automaton ipv6 = Automaton.makeChar('[').concatenate(Automaton.makeCharRange('0', '9')
                .union(Automaton.makeCharRange('a', 'f')).union(Automaton.makeCharRange('A', 'F'))
                .union(Automaton.makeCharSet(":.")).repeat()).concatenate(Automaton.makeChar(']'));
        return Automaton.makeEmptyString().union(name).union(ipv6).concatenate(port());
    }

    private static Automaton port() {
        return Automaton.makeChar(':').concatenate(Automaton.makeCharRange('0', '9').repeat()).optional();
    }

    /**
     * The hosts an expression with anchor marks matches somewhere in: a match that starts with
     * {@code ^} starts the host, one that ends with {@code $} ends it, any other has any text
     * around it; a mark anywhere else can never be satisfied, so such a match is none.
     */
    private static Automaton matched(Automaton marked) {
        Automaton text = all();
        Automaton begins = Automaton.makeChar(GoRegexp.BEGIN).repeat(1);
        Automaton ends = Automaton.makeChar(GoRegexp.END).repeat(1);
        Automaton shaped = marked.intersection(begins.optional().concatenate(text).concatenate(ends.optional()));
        Automaton both = strip(shaped.intersection(begins.concatenate(text).concatenate(ends)));
        Automaton start = strip(shaped.intersection(begins.concatenate(text))).concatenate(text);
        Automaton end = text.concatenate(strip(shaped.intersection(text.concatenate(ends))));
        Automaton neither = text.concatenate(shaped.intersection(text)).concatenate(text);
        return both.union(start).union(end).union(neither);
    }

    private static Automaton strip(Automaton marked) {
        return marked.subst(GoRegexp.BEGIN, "").subst(GoRegexp.END, "");
    }
}
