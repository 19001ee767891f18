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
}
