package net.commoninternet.ccci.extensions.tiers;

/** Text as one word of a tier's {@code sh -c} script in the app's container. */
final class ShellWords {

    private ShellWords() {
    }

    /** {@code text} single-quoted (a quote inside as {@code '\''}): never expanded, never split. */
    static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
