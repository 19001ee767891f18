package net.commoninternet.ccci.extensions.policy;

import dk.brics.automaton.Automaton;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * A Go character class ({@code [a-z0-9-]}, {@code [^.]}, {@code [[:alpha:]\d]}) and Go's escapes,
 * as the characters they can match: letters of a class in both cases, a negated class as every
 * character but the ones it names as written (both larger than or equal to what Go matches, case
 * ignored or not; see {@link GoRegexp}). A Unicode class ({@code \pL}) and the POSIX classes not
 * modelled exactly are read as any character.
 */
final class GoCharClass {

    /** An escape: the characters it matches, where the expression goes on, and its one character (or -1 for a class). */
    record Escape(Automaton chars, int next, int single) {
    }

    private static final Map<String, String> POSIX = Map.of("digit", "09", "alpha", "azAZ", "alnum", "azAZ09", "lower", "az",
            "upper", "AZ", "xdigit", "09afAF", "word", "azAZ09__", "space", "\t\r  ");

    private final String re;
    private int at;

    /** @param at just after the class's opening {@code [} */
    GoCharClass(String re, int at) {
        this.re = re;
        this.at = at;
    }

    /** The class's characters; {@code next} gets where the expression goes on after its {@code ]}. */
    Automaton parse(IntConsumer next) {
        boolean negated = take('^');
        Automaton raw = Automaton.makeEmpty();
        Automaton folded = Automaton.makeEmpty();
        boolean first = true;
        while (true) {
            if (at >= re.length()) {
                throw new IllegalArgumentException("a missing ']' in " + re);
            }
            if (!first && re.charAt(at) == ']') {
                at++;
                break;
            }
            first = false;
            if (re.startsWith("[:", at)) {
                int close = re.indexOf(":]", at + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("an unclosed [: in " + re);
                }
                String name = re.substring(at + 2, close);
                at = close + 2;
                Automaton posix = posix(name);
                raw = raw.union(posix);
                folded = folded.union(posix);
                continue;
            }
            int lo;
            if (re.charAt(at) == '\\') {
                Escape escape = escape(re, at + 1);
                at = escape.next();
                if (escape.single() < 0) {
                    raw = raw.union(escape.chars());
                    folded = folded.union(escape.chars());
                    continue;
                }
                lo = escape.single();
            } else {
                lo = re.charAt(at++);
            }
            int hi = lo;
            if (at + 1 < re.length() && re.charAt(at) == '-' && re.charAt(at + 1) != ']') {
                at++;
                if (re.charAt(at) == '\\') {
                    Escape escape = escape(re, at + 1);
                    if (escape.single() < 0) {
                        throw new IllegalArgumentException("a class escape at the end of a range in " + re);
                    }
                    at = escape.next();
                    hi = escape.single();
                } else {
                    hi = re.charAt(at++);
                }
                if (hi < lo) {
                    throw new IllegalArgumentException("an invalid range " + (char) lo + "-" + (char) hi + " in " + re);
                }
            }
            raw = raw.union(Automaton.makeCharRange((char) lo, (char) hi));
            folded = folded.union(foldedRange((char) lo, (char) hi));
        }
        next.accept(at);
        return negated ? GoRegexp.anyChar().minus(raw) : folded;
    }

    /** {@code lo-hi} and the other case of each ASCII letter in it. */
    private static Automaton foldedRange(char lo, char hi) {
        Automaton range = Automaton.makeCharRange(lo, hi);
        for (char c = 'a'; c <= 'z'; c++) {
            if (c >= lo && c <= hi) {
                range = range.union(Automaton.makeChar(Character.toUpperCase(c)));
            }
            char upper = Character.toUpperCase(c);
            if (upper >= lo && upper <= hi) {
                range = range.union(Automaton.makeChar(c));
            }
        }
        return range;
    }

    private static Automaton posix(String name) {
        String ranges = POSIX.get(name);
        if (ranges == null) {
            return GoRegexp.anyChar(); // the others (and a negated one) read as any character: larger, never smaller
        }
        Automaton chars = Automaton.makeEmpty();
        for (int i = 0; i < ranges.length(); i += 2) {
            chars = chars.union(foldedRange(ranges.charAt(i), ranges.charAt(i + 1)));
        }
        return chars;
    }

    /** The escape whose letter is at {@code at} (just after the backslash), as Go reads it. */
    static Escape escape(String re, int at) {
        if (at >= re.length()) {
            throw new IllegalArgumentException("a trailing '\\' in " + re);
        }
        char c = re.charAt(at);
        Automaton digit = Automaton.makeCharRange('0', '9');
        Automaton word = posix("word");
        Automaton space = posix("space").union(Automaton.makeChar('\n')).union(Automaton.makeChar('\f'));
        return switch (c) {
            case 'd' -> new Escape(digit, at + 1, -1);
            case 'D' -> new Escape(GoRegexp.anyChar().minus(digit), at + 1, -1);
            case 'w' -> new Escape(word, at + 1, -1);
            case 'W' -> new Escape(GoRegexp.anyChar().minus(word), at + 1, -1);
            case 's' -> new Escape(space, at + 1, -1);
            case 'S' -> new Escape(GoRegexp.anyChar().minus(space), at + 1, -1);
            case 'p', 'P' -> {
                int next = at + 1;
                if (next < re.length() && re.charAt(next) == '{') {
                    int close = re.indexOf('}', next);
                    if (close < 0) {
                        throw new IllegalArgumentException("an unclosed \\p{ in " + re);
                    }
                    next = close;
                }
                yield new Escape(GoRegexp.anyChar(), next + 1, -1);
            }
            case 'a' -> single('\u0007', at + 1);
            case 'f' -> single('\f', at + 1);
            case 't' -> single('\t', at + 1);
            case 'n' -> single('\n', at + 1);
            case 'r' -> single('\r', at + 1);
            case 'v' -> single('\u000b', at + 1);
            case 'x' -> hex(re, at + 1);
            default -> {
                if (c >= '0' && c <= '7') {
                    int end = at;
                    while (end < re.length() && end < at + 3 && re.charAt(end) >= '0' && re.charAt(end) <= '7') {
                        end++;
                    }
                    yield single((char) Integer.parseInt(re.substring(at, end), 8), end);
                }
                if (c < 128 && !Character.isLetterOrDigit(c) && c != '_') {
                    yield single(c, at + 1); // an escaped punctuation character is itself
                }
                throw new IllegalArgumentException("an escape \\" + c + " Go does not know, in " + re);
            }
        };
    }

    private static Escape hex(String re, int at) {
        int end;
        String digits;
        if (at < re.length() && re.charAt(at) == '{') {
            end = re.indexOf('}', at);
            if (end < 0) {
                throw new IllegalArgumentException("an unclosed \\x{ in " + re);
            }
            digits = re.substring(at + 1, end);
            end++;
        } else {
            end = Math.min(at + 2, re.length());
            digits = re.substring(at, end);
        }
        if (!digits.matches("[0-9A-Fa-f]{1,6}")) {
            throw new IllegalArgumentException("an invalid \\x escape in " + re);
        }
        int code = Integer.parseInt(digits, 16);
        if (code > 0xffff) {
            return new Escape(GoRegexp.anyChar().concatenate(GoRegexp.anyChar()), end, -1);
        }
        return single((char) code, end);
    }

    private static Escape single(char c, int next) {
        return new Escape(GoRegexp.folded(c), next, c);
    }

    private boolean take(char c) {
        if (at < re.length() && re.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }
}
