package net.commoninternet.ccci.extensions.secrets;

import static net.commoninternet.ccci.extensions.secrets.SecretMasking.MASK;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretMaskingTest {

    @Test
    void namesThatLookSecretAreRecognisedAndOrdinaryOnesAreNot() {
        for (String name : List.of("DB_PASSWORD", "SMTP_PASS", "client_secret", "API_TOKEN", "SECRET_KEY_BASE", "KEY",
                "SIGNING_KEY", "PRIVATE_KEY_FILE", "AWS_CREDENTIALS", "OAUTH_CLIENT", "PASSWORD_SALT", "SESSION_COOKIE",
                "apikey", "api_key")) {
            assertThat(SecretMasking.secretLooking(name)).as(name).isTrue();
        }
        for (String name : List.of("DOMAIN", "HEALTH_PATH", "COMPOSE_FILE", "SMTP_HOST", "KEYCLOAK_URL", "MONKEY", "keys")) {
            assertThat(SecretMasking.secretLooking(name)).as(name).isFalse();
        }
    }

    @Test
    void aValueUnderASecretLookingNameIsMaskedWhateverItIs() {
        assertThat(SecretMasking.mask("DB_PASSWORD", "hunter2", List.of())).isEqualTo(MASK);
        assertThat(SecretMasking.mask("API_TOKEN", 12345, List.of())).isEqualTo(MASK);
        assertThat(SecretMasking.mask("DOMAIN", "demo.example.org", List.of())).isEqualTo("demo.example.org");
        assertThat(SecretMasking.mask("DB_PASSWORD", null, List.of())).isNull();
    }

    @Test
    void credentialsInAUrlAreMaskedAndTheRestOfTheUrlKept() {
        assertThat(SecretMasking.mask("DATABASE_URL", "postgres://app:s3cr3t@db:5432/app", List.of()))
                .isEqualTo("postgres://app:" + MASK + "@db:5432/app");
        assertThat(SecretMasking.mask(null, "mail via smtp://relay:pw0rd@mx.example.org and https://x.org/a:b@c",
                List.of())).isEqualTo("mail via smtp://relay:" + MASK + "@mx.example.org and https://x.org/a:b@c");
        assertThat(SecretMasking.mask("URL", "https://user@host.example.org/", List.of()))
                .isEqualTo("https://user@host.example.org/");
    }

    @Test
    void generatedSecretValuesAreMaskedWhereverTheyAppearInAString() {
        List<String> secrets = List.of("Zq8vK2pLm9", "");

        assertThat(SecretMasking.mask("GREETING", "pw=Zq8vK2pLm9; again Zq8vK2pLm9.", secrets))
                .isEqualTo("pw=" + MASK + "; again " + MASK + ".");
        assertThat(SecretMasking.mask(null, "nothing secret", secrets)).isEqualTo("nothing secret");
    }

    @Test
    void mapsAndListsAreMaskedEntryByEntryAtAnyDepth() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("SMTP_PASSWORD", "hunter2");
        env.put("SMTP_HOST", "mail.example.org");
        env.put("NOTE", "generated Zq8vK2pLm9");
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("EXTRA_ENV", env);
        keys.put("HEALTH_OK", List.of(200, 204));
        keys.put("urls", List.of("https://a:b-secret@x.org/", Map.of("ADMIN_PASS", "p", "OK", "Zq8vK2pLm9")));
        keys.put("AUTH", Map.of("METHOD", "oidc", "CLIENT_SECRET", "c"));

        Object masked = SecretMasking.mask(null, keys, List.of("Zq8vK2pLm9"));

        assertThat(masked).isEqualTo(Map.of(
                "EXTRA_ENV", Map.of("SMTP_PASSWORD", MASK, "SMTP_HOST", "mail.example.org", "NOTE", "generated " + MASK),
                "HEALTH_OK", List.of(200, 204),
                "urls", List.of("https://a:" + MASK + "@x.org/", Map.of("ADMIN_PASS", MASK, "OK", MASK)),
                "AUTH", Map.of("METHOD", "oidc", "CLIENT_SECRET", MASK)));
        assertThat(keys.get("EXTRA_ENV")).isSameAs(env);
        assertThat(env).containsEntry("SMTP_PASSWORD", "hunter2");
    }

    /** The console and the service logs are masked line by line: a PEM key is masked line by line too. */
    @Test
    void aMultiLineSecretIsMaskedLineByLine() {
        String pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\r\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n";

        assertThat(SecretMasking.mask(null, "db: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", List.of(pem))).isEqualTo("db: " + MASK);
        assertThat(SecretMasking.mask(null, "  BKcwggSjAgEAAoIBAQC7 tail", List.of(pem))).isEqualTo("  " + MASK + " tail");
        assertThat(RedactedConsole.maskable(List.of(pem, "abc"))).contains(pem, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
                "BKcwggSjAgEAAoIBAQC7").doesNotContain("abc", "");
    }

    private static final String GENERATED = "Zq8vK2pLm9xWc4RtY7uB1nH5jG3fD6sA"; // 32 characters, as ccci generates them

    private static String reversed(String text) {
        return new StringBuilder(text).reverse().toString();
    }

    /** Every run of {@link SecretForms#WINDOW} characters of {@code form} still in {@code text}: what escaped the mask. */
    private static List<String> survivors(String text, String form) {
        String compact = form.replaceAll("\\s", "");
        List<String> left = new java.util.ArrayList<>();
        for (int i = 0; i + SecretForms.WINDOW <= compact.length(); i++) {
            if (text.replaceAll("\\s", "").contains(compact.substring(i, i + SecretForms.WINDOW))) {
                left.add(compact.substring(i, i + SecretForms.WINDOW));
            }
        }
        return left;
    }

    /**
     * The generated secret as a hook can print it: encoded (hex, percent, URL form, base64 standard
     * and URL-safe at each alignment inside a longer text), reversed, both, and split by whitespace,
     * invisible characters or over lines (masked line by line, as the console and the service logs
     * are). Each is masked; what is around it is kept.
     */
    @Test
    void aSecretIsMaskedInItsCommonEncodingsReversedAndSplit() {
        String special = "Kp3+vX9/Lm2=Qw8&Zr5!";
        List<String> secrets = List.of(GENERATED, special);
        java.util.function.Function<byte[], String> b64 = java.util.Base64.getEncoder()::encodeToString;
        byte[] bytes = GENERATED.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Map<String, String> printed = new LinkedHashMap<>();
        printed.put("plain", GENERATED);
        printed.put("reversed", reversed(GENERATED));
        printed.put("hex", java.util.HexFormat.of().formatHex(bytes));
        printed.put("HEX", java.util.HexFormat.of().withUpperCase().formatHex(bytes));
        printed.put("percent-encoded", java.util.HexFormat.ofDelimiter("%").withUpperCase().formatHex(bytes));
        printed.put("URL form", java.net.URLEncoder.encode(special, java.nio.charset.StandardCharsets.UTF_8));
        for (String lead : List.of("", "a", "ab")) {
            byte[] around = (lead + GENERATED + "!?").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            printed.put("base64 after " + lead.length(), b64.apply(around));
            printed.put("URL-safe base64 after " + lead.length(), java.util.Base64.getUrlEncoder().encodeToString(
                    (lead + special).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        printed.put("base64 of the reversed", b64.apply(reversed(GENERATED).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        printed.put("base64, reversed", reversed(b64.apply(bytes)));
        printed.put("hex of the reversed", java.util.HexFormat.of().formatHex(reversed(GENERATED).getBytes(
                java.nio.charset.StandardCharsets.UTF_8)));
        printed.put("split by spaces", GENERATED.replaceAll("(.{4})", "$1 "));
        printed.put("split by zero-width spaces and tabs", GENERATED.replaceAll("(.{3})", "$1\u200b").replaceAll("(.{7})", "$1\t"));
        String attack = b64.apply(reversed(GENERATED).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        printed.put("reversed, base64'd and split over lines", attack.substring(0, 20) + "\n" + attack.substring(20));

        for (Map.Entry<String, String> form : printed.entrySet()) {
            String text = "the hook printed " + form.getValue() + " and went on";
            String masked = String.join("\n", text.lines().map(l -> (String) SecretMasking.mask(null, l, secrets)).toList());
            assertThat(masked).as(form.getKey()).contains(MASK).startsWith("the hook printed ").endsWith(" and went on");
            assertThat(survivors(masked, form.getValue())).as("%s: %s", form.getKey(), masked).isEmpty();
        }
    }

    /** The limit, as docs/security.md says: a best effort; a piece shorter than the window is not recognised, ordinary text is kept. */
    @Test
    void ordinaryTextIsKeptAndAPieceShorterThanTheWindowIsNotRecognised() {
        List<String> secrets = List.of(GENERATED);
        for (String ordinary : List.of("12:00:00.000 INFO  [custom-html] SwarmPhases - == tearing down demo-abc.ci.commoninternet.net ==",
                "commit 3f9a1c2e4b5d6f708192a3b4c5d6e7f809a1b2c3, tag 1.2.0+2.4.1",
                "aGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgc2VjcmV0Cg==", "%2Fsrv%2Findex.html?q=a%20b")) {
            assertThat(SecretMasking.mask(null, ordinary, secrets)).isEqualTo(ordinary);
        }
        String piece = GENERATED.substring(3, 3 + SecretForms.WINDOW - 1);
        assertThat(SecretMasking.mask(null, "a piece: " + piece, secrets)).isEqualTo("a piece: " + piece);
    }
}
