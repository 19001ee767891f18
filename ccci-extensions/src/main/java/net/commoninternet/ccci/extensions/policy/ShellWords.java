package net.commoninternet.ccci.extensions.policy;

import java.util.regex.Pattern;

/**
 * A refusal's allowance entry as one word of a POSIX shell, for an operator to paste: left as it is
 * when it holds only characters no shell treats specially, else in single quotes (inside which a
 * shell expands nothing, so {@code ${STACK_NAME}} reaches ccci as written), a quote as {@code '\''}.
 * This is the whole of POSIX single-quoting; commons-text's {@code escapeXSI} backslashes every
 * special character instead, which an operator cannot read back.
 */
final class ShellWords {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellWords() {
    }

    static String quoted(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
