package net.commoninternet.ccci.extensions.secrets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Masks what looks like a secret before a value reaches the results: a value under a
 * secret-looking name ({@code *PASSWORD*}, {@code *TOKEN*}, {@code *_KEY}, ...), credentials in
 * a URL ({@code scheme://user:secret@host}), and any of the app's generated secret values, in
 * the forms they are commonly printed in ({@link SecretForms}: encoded, reversed, split; a best
 * effort).
 */
@API(status = API.Status.INTERNAL)
public final class SecretMasking {

    public static final String MASK = "********";
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(pass|secret|token|(^|_)key($|_)|private|credential|auth|salt|cookie|api_?key).*");
    private static final Pattern URL_CREDENTIALS = Pattern.compile("(://[^/:@\\s]+:)[^@/\\s]+@");

    private SecretMasking() {
    }

    static boolean secretLooking(String name) {
        return SECRET_NAME.matcher(name).matches();
    }

    /**
     * A copy of {@code value} with the secret values and URL credentials in its text masked, entry
     * by entry, whatever the names (for what a report shows: its names are ccci's own, not secrets).
     */
    public static Object maskValues(Object value, Collection<String> secrets) {
        SecretForms forms = formsOf(secrets);
        return eachString(value, text -> maskText(text, forms));
    }

    /**
     * A copy of {@code value} as every sink of the run's results carries it: each string masked
     * ({@link #maskValues}) and its controls made visible ({@link UntrustedText#visible}), its lines kept.
     */
    public static Object asData(Object value, Collection<String> secrets) {
        SecretForms forms = formsOf(secrets);
        return eachString(value, text -> UntrustedText.visible(maskText(text, forms)));
    }

    private static Object eachString(Object value, java.util.function.UnaryOperator<String> each) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), eachString(v, each)));
            return out;
        }
        if (value instanceof List<?> list) {
            return new ArrayList<>(list.stream().map(v -> eachString(v, each)).toList());
        }
        return value instanceof String text ? each.apply(text) : value;
    }

    private static String maskText(String text, SecretForms forms) {
        return forms.mask(URL_CREDENTIALS.matcher(text).replaceAll("$1" + MASK + "@"));
    }

    /** The last secrets asked for and their forms: a writer masks many strings with the same few values. */
    private static volatile Object[] lastForms = {List.of(), SecretForms.NONE};

    /** The forms of {@code secrets}' maskable values ({@link RedactedConsole#maskable}), built once per set of values. */
    static SecretForms formsOf(Collection<String> secrets) {
        Object[] last = lastForms;
        List<String> key = new ArrayList<>(secrets);
        if (last[0].equals(key)) {
            return (SecretForms) last[1];
        }
        SecretForms forms = SecretForms.of(RedactedConsole.maskable(secrets));
        lastForms = new Object[] {key, forms};
        return forms;
    }

    /** {@code value} with secrets masked; maps and lists are masked entry by entry. */
    public static Object mask(String name, Object value, Collection<String> secrets) {
        if (value == null) {
            return null;
        }
        if (name != null && secretLooking(name) && !(value instanceof Map<?, ?>)) {
            return MASK;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), mask(String.valueOf(k), v, secrets)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> mask(null, v, secrets)).toList();
        }
        if (value instanceof String text) {
            return maskText(text, formsOf(secrets)); // longest first: a secret containing another is masked whole
        }
        return value;
    }
}
