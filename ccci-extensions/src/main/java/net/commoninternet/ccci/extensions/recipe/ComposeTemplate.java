package net.commoninternet.ccci.extensions.recipe;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One string of a compose file with its variables substituted, exactly as the docker CLI's
 * {@code cli/compose/template} package does it (the CLI {@code docker stack deploy} and abra use):
 * {@code $$} is a {@code $}; {@code $NAME} and {@code ${NAME}}, names of letters, digits and
 * {@code _} in any case; {@code ${NAME:-default}} (unset or empty), {@code ${NAME-default}} (unset),
 * {@code ${NAME:?message}} and {@code ${NAME?message}} (an error); any other {@code $} is an invalid
 * template. Its quirks are kept, since a recipe deploys with them: an unbraced name takes the
 * modifiers too ({@code $V-x} is {@code ${V-x}}), the functions are tried in the CLI's order
 * ({@code :-}, {@code -}, {@code :?}, {@code ?}: {@code ${X:?a-b}} is a default of {@code b} for the
 * variable {@code X:?a}), and a later substitution in the same string clears an earlier error.
 *
 * <p>The values come from the map given, never from a process's environment: a recipe's values
 * interpolate its compose without becoming any program's environment ({@link ComposeInterpolation}).
 */
final class ComposeTemplate {

    private static final String SUBST = "[_a-z][_a-z0-9]*(?::?[-?][^}]*)?";
    private static final Pattern PATTERN = Pattern.compile("\\$(?i:(?<escaped>\\$)|(?<named>" + SUBST + ")|\\{(?<braced>"
            + SUBST + ")\\}|(?<invalid>))");

    /** A template the CLI refuses ({@code InvalidTemplateError}), with the CLI's text. */
    static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Invalid(String template) {
            super(template);
        }
    }

    /** What one substitution function made of a name: whether it applied, its value, its error. */
    private record Applied(boolean applied, String value, Invalid error) {
        static final Applied NO = new Applied(false, "", null);
    }

    @FunctionalInterface
    private interface Function {
        Applied apply(String substitution, Map<String, String> env);
    }

    private static final List<Function> FUNCTIONS = List.of(
            (s, env) -> defaulted(s, env, ":-", true),
            (s, env) -> defaulted(s, env, "-", false),
            (s, env) -> required(s, env, ":?", true),
            (s, env) -> required(s, env, "?", false));

    private ComposeTemplate() {
    }

    /** {@code template} with its variables from {@code env}; throws {@link Invalid} where the CLI fails. */
    static String substitute(String template, Map<String, String> env) {
        Matcher m = PATTERN.matcher(template);
        StringBuilder out = new StringBuilder();
        Invalid error = null;
        while (m.find()) {
            String replacement;
            if (m.group("escaped") != null) {
                replacement = "$";
            } else {
                String substitution = m.group("named") != null ? m.group("named") : m.group("braced");
                if (substitution == null) {
                    error = new Invalid(template);
                    replacement = "";
                } else {
                    replacement = null;
                    for (Function function : FUNCTIONS) {
                        Applied applied = function.apply(substitution, env);
                        // as the CLI's closure: each function's error replaces the one before
                        error = applied.error();
                        if (error != null) {
                            replacement = "";
                            break;
                        }
                        if (applied.applied()) {
                            replacement = applied.value();
                            break;
                        }
                    }
                    if (replacement == null) {
                        replacement = env.getOrDefault(substitution, "");
                    }
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        if (error != null) {
            throw error;
        }
        return out.toString();
    }

    private static Applied defaulted(String substitution, Map<String, String> env, String separator, boolean orEmpty) {
        int at = substitution.indexOf(separator);
        if (at < 0) {
            return Applied.NO;
        }
        String value = env.get(substitution.substring(0, at));
        boolean fallBack = value == null || orEmpty && value.isEmpty();
        return new Applied(true, fallBack ? substitution.substring(at + separator.length()) : value, null);
    }

    private static Applied required(String substitution, Map<String, String> env, String separator, boolean nonEmpty) {
        int at = substitution.indexOf(separator);
        if (at < 0) {
            return Applied.NO;
        }
        String name = substitution.substring(0, at);
        String value = env.get(name);
        if (value == null || nonEmpty && value.isEmpty()) {
            return new Applied(true, "", new Invalid("required variable " + name + " is missing a value: "
                    + substitution.substring(at + separator.length())));
        }
        return new Applied(true, value, null);
    }
}
