package net.commoninternet.ccci.extensions.driver.swarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The modifiers of a SECRET_*_VERSION line decide a generated secret's length and alphabet. */
class SecretHintsTest {

    private final SecureRandom random = new SecureRandom();

    @Test
    void lengthAndCharsetAreHonouredAndTheDefaultIs32LettersAndDigits() {
        assertThat(SecretHints.of("SECRET_A_VERSION", Map.of(), "s").generate(random)).hasSize(32).matches("[A-Za-z0-9]+");
        assertThat(SecretHints.of("SECRET_A_VERSION", Map.of("length", "48"), "s").generate(random)).hasSize(48);
        String special = SecretHints.of("SECRET_A_VERSION", Map.of("length", "400", "charset", "default,special"), "s")
                .generate(random);
        assertThat(special).hasSize(400).matches("[A-Za-z0-9!#%&()*+,\\-./:;<=>?@\\[\\]^_{|}~]+")
                .containsPattern("[^A-Za-z0-9]");
        assertThat(SecretHints.of("SECRET_A_VERSION", Map.of("charset", "safespecial"), "s").generate(random)).matches("[-_.~]{32}");
        // a modifier ccci has no use for is ignored, as abra ignores those it does not know
        assertThat(SecretHints.of("SECRET_A_VERSION", Map.of("generate", "false", "length", "8"), "s").length()).isEqualTo(8);
    }

    @Test
    void aBadLengthOrAlphabetIsOneSentenceNamingTheLine() {
        assertThatThrownBy(() -> SecretHints.of("SECRET_A_VERSION", Map.of("length", "0"), ".env.sample of x"))
                .hasMessage("the modifier length=0 of SECRET_A_VERSION in .env.sample of x is not a number of characters:"
                        + " write it as SECRET_A_VERSION=v1 # length=32.");
        assertThatThrownBy(() -> SecretHints.of("SECRET_A_VERSION", Map.of("charset", "default,emoji"), ".env.sample of x"))
                .hasMessage("the modifier charset=default,emoji of SECRET_A_VERSION in .env.sample of x names an alphabet ccci"
                        + " does not know (emoji): use a comma list of default, special, safespecial.");
    }
}
