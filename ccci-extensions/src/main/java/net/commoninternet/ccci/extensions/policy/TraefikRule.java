package net.commoninternet.ccci.extensions.policy;

import dk.brics.automaton.Automaton;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A traefik router rule read as the hosts it can match. The grammar is traefik's (v2 and v3 both
 * parse rules as Go expressions): {@code or := and ('||' and)*; and := not ('&&' not)*;
 * not := '!' not | '(' or ')' | Matcher(args)}, each argument a Go string literal (backquoted raw,
 * or double-quoted with Go's escapes).
 *
 * <p>The hosts of a rule: {@code Host}/{@code HostHeader}/{@code HostSNI} their names (v2 allows
 * several), {@code HostRegexp} its expression's language (a mux template in v2, a Go expression
 * matched anywhere in the host in v3: {@link HostLanguage}); {@code a && b} the hosts both can match,
 * {@code a || b} either's; a negation or any other matcher (a path, a header, a method) says nothing
 * of the host, so every host. Each is at least what traefik matches.
 */
final class TraefikRule {

    /** The rule syntax a traefik reads a router's rule in ({@code core.defaultRuleSyntax}, a router's {@code ruleSyntax}). */
    enum Syntax {
        V2, V3;

        static Optional<Syntax> of(String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "v2" -> Optional.of(V2);
                case "v3" -> Optional.of(V3);
                default -> Optional.empty();
            };
        }
    }

    private final String text;
    private final Set<Syntax> syntaxes;
    private int at;

    private TraefikRule(String text, Set<Syntax> syntaxes) {
        this.text = text;
        this.syntaxes = syntaxes;
    }

    /** Every host {@code rule} can match in any of {@code syntaxes}; throws with the reason if it cannot be read. */
    static Automaton hosts(String rule, Set<Syntax> syntaxes) {
        TraefikRule parser = new TraefikRule(rule, syntaxes);
        Automaton hosts = parser.or();
        parser.space();
        if (parser.at != rule.length()) {
            throw new IllegalArgumentException("unexpected " + rule.substring(parser.at));
        }
        return hosts;
    }

    private Automaton or() {
        Automaton hosts = and();
        while (take("||")) {
            hosts = hosts.union(and());
        }
        return hosts;
    }

    private Automaton and() {
        Automaton hosts = not();
        while (take("&&")) {
            hosts = hosts.intersection(not());
        }
        return hosts;
    }

    private Automaton not() {
        if (take("!")) {
            not();
            return HostLanguage.all(); // a negation proves nothing about the host
        }
        if (take("(")) {
            Automaton hosts = or();
            expect(")");
            return hosts;
        }
        return matcher();
    }

    private Automaton matcher() {
        space();
        int start = at;
        while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
            at++;
        }
        String name = text.substring(start, at);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a matcher expected at " + text.substring(start));
        }
        expect("(");
        List<String> args = new ArrayList<>();
        if (!take(")")) {
            do {
                args.add(string());
            } while (take(","));
            expect(")");
        }
        return switch (name) {
            case "Host", "HostHeader", "HostSNI" -> {
                Automaton hosts = Automaton.makeEmpty();
                for (String host : args) {
                    hosts = hosts.union(host.strip().equals("*") && name.equals("HostSNI") ? HostLanguage.all()
                            : HostLanguage.host(host));
                }
                yield args.isEmpty() ? HostLanguage.all() : hosts;
            }
            case "HostRegexp", "HostSNIRegexp" -> {
                Automaton hosts = Automaton.makeEmpty();
                for (String pattern : args) {
                    if (syntaxes.contains(Syntax.V2)) {
                        hosts = hosts.union(HostLanguage.template(pattern));
                    }
                    if (syntaxes.contains(Syntax.V3)) {
                        hosts = hosts.union(HostLanguage.regexp(pattern));
                    }
                }
                yield args.isEmpty() ? HostLanguage.all() : hosts;
            }
            default -> HostLanguage.all();
        };
    }

    /** A Go string literal: {@code `raw`} or {@code "with \" escapes"}. */
    private String string() {
        space();
        if (at >= text.length() || (text.charAt(at) != '`' && text.charAt(at) != '"')) {
            throw new IllegalArgumentException("a quoted argument expected at " + text.substring(Math.min(at, text.length())));
        }
        char quote = text.charAt(at++);
        StringBuilder value = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw new IllegalArgumentException("an unclosed " + quote);
            }
            char c = text.charAt(at++);
            if (c == quote) {
                return value.toString();
            }
            if (c == '\\' && quote == '"') {
                at = unescape(value);
            } else {
                value.append(c);
            }
        }
    }

    /** One of Go's escapes in a double-quoted string, after its backslash; returns where the string goes on. */
    private int unescape(StringBuilder value) {
        if (at >= text.length()) {
            throw new IllegalArgumentException("an unclosed \"");
        }
        char c = text.charAt(at);
        int simple = "abfnrtv\\\"".indexOf(c);
        if (simple >= 0) {
            value.append("\u0007\b\f\n\r\t\u000b\\\"".charAt(simple));
            return at + 1;
        }
        int digits = switch (c) {
            case 'x' -> 2;
            case 'u' -> 4;
            case 'U' -> 8;
            default -> 0;
        };
        if (digits > 0 && at + 1 + digits <= text.length() && text.substring(at + 1, at + 1 + digits).matches("[0-9A-Fa-f]+")) {
            value.appendCodePoint(Integer.parseInt(text.substring(at + 1, at + 1 + digits), 16));
            return at + 1 + digits;
        }
        if (c >= '0' && c <= '7' && at + 3 <= text.length() && text.substring(at, at + 3).matches("[0-7]{3}")) {
            value.append((char) Integer.parseInt(text.substring(at, at + 3), 8));
            return at + 3;
        }
        throw new IllegalArgumentException("an escape \\" + c + " Go does not know");
    }

    private boolean take(String token) {
        space();
        if (text.startsWith(token, at)) {
            at += token.length();
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!take(token)) {
            throw new IllegalArgumentException("'" + token + "' expected at " + text.substring(Math.min(at, text.length())));
        }
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }
}
