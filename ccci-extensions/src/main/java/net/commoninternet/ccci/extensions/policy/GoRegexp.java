package net.commoninternet.ccci.extensions.policy;

import dk.brics.automaton.Automaton;
import java.util.ArrayList;
import java.util.List;

/**
 * A Go regular expression (RE2 syntax, as traefik compiles a {@code HostRegexp}) read as the set of
 * strings it can match: a finite automaton over characters, with the anchors {@code ^}/{@code \A}
 * and {@code $}/{@code \z} as the two marks {@link #BEGIN} and {@link #END} (what they may match
 * around is decided by {@link HostLanguage}).
 *
 * <p>Invariant: the automaton accepts at least every string the expression matches, case
 * ignored (every letter stands for both cases): what ccci cannot model exactly (a word boundary,
 * a Unicode class, a lazy repeat) is read as something larger, never smaller, so a rule judged
 * confined is confined. Whatever it cannot read at all (a syntax error, a repeat beyond Go's own
 * bound of 1000, an expression too large to judge) throws {@link IllegalArgumentException} with
 * the reason, and the rule is refused.
 */
final class GoRegexp {

    /** Stands for {@code ^} / {@code \A}: a private-use character no host holds. */
    static final char BEGIN = '\uE000';
    /** Stands for {@code $} / {@code \z}. */
    static final char END = '\uE001';
    /** Go refuses a repeat count above 1000. */
    private static final int MAX_REPEAT = 1000;
    /** Judging a larger automaton could take the run's JVM minutes: such a rule is refused, never judged in part. */
    private static final int MAX_STATES = 20_000;
    static final int MAX_LENGTH = 2_000;

    private final String re;
    private int at;

    private GoRegexp(String re) {
        this.re = re;
    }

    /** Every string {@code re} can match, anchors as {@link #BEGIN}/{@link #END}; throws if it cannot be read. */
    static Automaton of(String re) {
        if (re.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a regular expression longer than " + MAX_LENGTH + " characters");
        }
        GoRegexp parser = new GoRegexp(re);
        Automaton a = parser.alternation();
        if (parser.at != re.length()) {
            throw new IllegalArgumentException("unexpected ')' in " + re);
        }
        return a;
    }

    /** Any character a host can hold (every character but the two marks). */
    static Automaton anyChar() {
        return Automaton.makeCharRange('\u0000', (char) (BEGIN - 1)).union(Automaton.makeCharRange((char) (END + 1), '\uffff'));
    }

    /** {@code c}, in both cases if it is an ASCII letter. */
    static Automaton folded(char c) {
        char lower = Character.toLowerCase(c);
        char upper = Character.toUpperCase(c);
        return c < 128 && lower != upper ? Automaton.makeChar(lower).union(Automaton.makeChar(upper)) : Automaton.makeChar(c);
    }

    /** {@code text} as a literal, letters in both cases. */
    static Automaton literal(String text) {
        List<Automaton> chars = new ArrayList<>();
        for (char c : text.toCharArray()) {
            chars.add(folded(c));
        }
        return Automaton.concatenate(chars);
    }

    private Automaton alternation() {
        Automaton a = concatenation();
        while (take('|')) {
            a = bounded(a.union(concatenation()));
        }
        return a;
    }

    private Automaton concatenation() {
        List<Automaton> parts = new ArrayList<>();
        while (at < re.length() && re.charAt(at) != '|' && re.charAt(at) != ')') {
            parts.add(repeat());
        }
        return parts.isEmpty() ? Automaton.makeEmptyString() : bounded(Automaton.concatenate(parts));
    }

    private Automaton repeat() {
        Automaton a = atom();
        while (at < re.length()) {
            char c = re.charAt(at);
            if (c == '*') {
                at++;
                a = a.repeat();
            } else if (c == '+') {
                at++;
                a = a.repeat(1);
            } else if (c == '?') {
                at++;
                a = a.optional();
            } else if (c == '{' && counted()) {
                a = counted(a);
            } else {
                break;
            }
            take('?'); // lazy or greedy: the same strings match
            a = bounded(a);
        }
        return a;
    }

    /** Whether a {@code {n}}, {@code {n,}} or {@code {n,m}} starts here (else Go reads the brace as a literal). */
    private boolean counted() {
        return re.substring(at).matches("(?s)\\{\\d+(,\\d*)?\\}.*");
    }

    private Automaton counted(Automaton a) {
        int close = re.indexOf('}', at);
        String[] bounds = re.substring(at + 1, close).split(",", -1);
        at = close + 1;
        int min = count(bounds[0]);
        int copies = Math.max(min, bounds.length == 2 && !bounds[1].isEmpty() ? count(bounds[1]) : min + 1);
        // the copies are made before their size can be seen: a nested repeat is refused before it is built
        if ((long) a.getNumberOfStates() * copies > MAX_STATES) {
            throw new IllegalArgumentException("an expression too large for ccci to judge (more than " + MAX_STATES + " states)");
        }
        if (bounds.length == 1) {
            return a.repeat(min, min);
        }
        if (bounds[1].isEmpty()) {
            return a.repeat(min);
        }
        int max = count(bounds[1]);
        if (max < min) {
            throw new IllegalArgumentException("an invalid repeat count {" + min + "," + max + "}");
        }
        return a.repeat(min, max);
    }

    private static int count(String digits) {
        if (digits.length() > 4 || Integer.parseInt(digits) > MAX_REPEAT) {
            throw new IllegalArgumentException("a repeat count above " + MAX_REPEAT);
        }
        return Integer.parseInt(digits);
    }

    private Automaton atom() {
        char c = re.charAt(at++);
        switch (c) {
            case '(' -> {
                return group();
            }
            case '.' -> {
                return anyChar();
            }
            case '^' -> {
                return Automaton.makeChar(BEGIN);
            }
            case '$' -> {
                return Automaton.makeChar(END);
            }
            case '[' -> {
                return new GoCharClass(re, at).parse(this::moveTo);
            }
            case '\\' -> {
                return escape();
            }
            case '*', '+', '?' -> throw new IllegalArgumentException("a repetition operator '" + c + "' with nothing to repeat");
            default -> {
                if (Character.isHighSurrogate(c) && at < re.length()) {
                    at++;
                    return anyChar().concatenate(anyChar());
                }
                return folded(c);
            }
        }
    }

    private void moveTo(int next) {
        at = next;
    }

    /** After {@code (}: a capture, a named capture, a non-capturing group or a flags setting. */
    private Automaton group() {
        if (take('?')) {
            if (re.startsWith("P<", at) || re.startsWith("<", at)) {
                int close = re.indexOf('>', at);
                if (close < 0) {
                    throw new IllegalArgumentException("an unclosed group name");
                }
                at = close + 1;
            } else {
                // flags (i, m, s, U, and '-'): every letter is read in both cases already, '.' matches every character
                while (at < re.length() && "imsU-".indexOf(re.charAt(at)) >= 0) {
                    at++;
                }
                if (take(')')) {
                    return Automaton.makeEmptyString();
                }
                if (!take(':')) {
                    throw new IllegalArgumentException("an unknown group flag in " + re);
                }
            }
        }
        Automaton inner = alternation();
        if (!take(')')) {
            throw new IllegalArgumentException("a missing ')' in " + re);
        }
        return inner;
    }

    private Automaton escape() {
        if (at >= re.length()) {
            throw new IllegalArgumentException("a trailing '\\'");
        }
        char c = re.charAt(at++);
        switch (c) {
            case 'A' -> {
                return Automaton.makeChar(BEGIN);
            }
            case 'z' -> {
                return Automaton.makeChar(END);
            }
            case 'b', 'B' -> {
                return Automaton.makeEmptyString(); // a word boundary only narrows what matches
            }
            case 'Q' -> {
                int end = re.indexOf("\\E", at);
                String quoted = re.substring(at, end < 0 ? re.length() : end);
                at = end < 0 ? re.length() : end + 2;
                return literal(quoted);
            }
            default -> {
                at--;
                GoCharClass.Escape escape = GoCharClass.escape(re, at);
                at = escape.next();
                return escape.chars();
            }
        }
    }

    private boolean take(char c) {
        if (at < re.length() && re.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private static Automaton bounded(Automaton a) {
        if (a.getNumberOfStates() > MAX_STATES) {
            throw new IllegalArgumentException("an expression too large for ccci to judge (more than " + MAX_STATES + " states)");
        }
        return a;
    }
}
