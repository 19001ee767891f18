package net.commoninternet.ccci.extensions.secrets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Masks what looks like a secret before a value reaches the results: a value under a
 * secret-looking name ({@code *PASSWORD*}, {@code *TOKEN*}, {@code *_KEY}, ...), credentials in
 * a URL ({@code scheme://user:secret@host}), and any of the app's generated secret values.
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
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), maskValues(v, secrets)));
            return out;
        }
        if (value instanceof List<?> list) {
            return new ArrayList<>(list.stream().map(v -> maskValues(v, secrets)).toList());
        }
        return value instanceof String ? mask(null, value, secrets) : value;
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
            String masked = URL_CREDENTIALS.matcher(text).replaceAll("$1" + MASK + "@");
            // longest first: a secret containing another is masked whole
            for (String secret : RedactedConsole.maskable(secrets).stream()
                    .sorted(Comparator.comparingInt(String::length).reversed()).toList()) {
                masked = masked.replace(secret, MASK);
            }
            return masked;
        }
        return value;
    }
}
