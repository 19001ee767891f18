package net.commoninternet.ccci.extensions.driver.swarm;

import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a secret is generated, from the modifiers of its {@code SECRET_<NAME>_VERSION} line in the
 * env file, as abra reads them: {@code # length=N} is the number of characters, {@code charset=}
 * a comma list of the alphabets to draw from. Without a length ccci generates 32 characters
 * (abra generates a passphrase of words, as recalled from its source: not verified here). Other
 * modifiers are not ccci's business and are ignored.
 *
 * <p>The alphabets: {@code default} letters and digits; {@code special} punctuation that needs
 * no quoting in YAML, env files or URLs' user info when percent-encoded
 * ({@code !#%&()*+,-./:;<=>?@[]^_{|}~}); {@code safespecial} only {@code -_.~} (safe unencoded in
 * a URL). The names follow abra's; their exact sets in abra are not verified here.
 */
record SecretHints(int length, String alphabet) {

    static final int DEFAULT_LENGTH = 32;
    static final Map<String, String> ALPHABETS;

    static {
        Map<String, String> alphabets = new LinkedHashMap<>();
        alphabets.put("default", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
        alphabets.put("special", "!#%&()*+,-./:;<=>?@[]^_{|}~");
        alphabets.put("safespecial", "-_.~");
        ALPHABETS = Collections.unmodifiableMap(alphabets);
    }

    /**
     * The hints of one secret; a length that is not a positive number or an unknown alphabet is one
     * sentence naming the env line and the fix.
     *
     * @param versionKey {@code SECRET_<NAME>_VERSION}
     * @param where the file the line is in (for the message)
     */
    static SecretHints of(String versionKey, Map<String, String> modifiers, String where) {
        int length = DEFAULT_LENGTH;
        String given = modifiers.get("length");
        if (given != null) {
            try {
                length = Integer.parseInt(given);
            } catch (NumberFormatException e) {
                length = -1;
            }
            if (length < 1 || length > 4096) {
                throw new IllegalArgumentException("the modifier length=" + given + " of " + versionKey + " in " + where
                        + " is not a number of characters: write it as " + versionKey + "=v1 # length=32.");
            }
        }
        Set<Character> chars = new TreeSet<>();
        for (String name : modifiers.getOrDefault("charset", "default").split(",")) {
            String alphabet = ALPHABETS.get(name.strip());
            if (alphabet == null) {
                throw new IllegalArgumentException("the modifier charset=" + modifiers.get("charset") + " of " + versionKey
                        + " in " + where + " names an alphabet ccci does not know (" + name.strip() + "): use a comma"
                        + " list of " + String.join(", ", ALPHABETS.keySet()) + ".");
            }
            alphabet.chars().forEach(c -> chars.add((char) c));
        }
        StringBuilder alphabet = new StringBuilder();
        chars.forEach(alphabet::append);
        return new SecretHints(length, alphabet.toString());
    }

    String generate(SecureRandom random) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }
}
