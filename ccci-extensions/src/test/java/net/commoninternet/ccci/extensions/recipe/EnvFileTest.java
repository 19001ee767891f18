package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link EnvFile} reads what godotenv v1.5.1 (abra's parser) reads. The cases are godotenv's own:
 * its {@code fixtures/*.env} and the inputs of its {@code godotenv_test.go}, plus inputs real recipes
 * use ({@code COMPOSE_FILE} chains, modifiers); each expected map (or error) was produced by
 * running godotenv v1.5.1 itself (see {@code godotenv/PROVENANCE.md}).
 */
class EnvFileTest {

    record Case(String name, String input, Map<String, String> values, String error) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> godotenv() throws Exception {
        try (InputStream in = EnvFileTest.class.getResourceAsStream("/godotenv/v1.5.1-cases.json")) {
            return new ObjectMapper().readValue(in, new TypeReference<List<Case>>() { }).stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("godotenv")
    void readsWhatGodotenvReads(Case c) throws Exception {
        if (c.error() != null) {
            assertThatThrownBy(() -> EnvFile.parse(c.input(), "x.env")).as(c.input()).isInstanceOf(EnvFileException.class)
                    .hasMessageStartingWith("x.env line ");
        } else {
            assertThat(EnvFile.parse(c.input(), "x.env").values()).as(c.input()).isEqualTo(c.values());
        }
    }

    @Test
    void theGodotenvCasesAreAllThere() throws Exception {
        assertThat(godotenv().count()).isEqualTo(117 + 15);
        assertThat(godotenv().filter(c -> c.error() != null).count()).isEqualTo(9);
    }

    @Test
    void anErrorNamesTheFileTheLineAndTheFix() {
        assertThatThrownBy(() -> EnvFile.parse("A=1\n# ok\nOPTION-B=def\n", ".env.sample"))
                .hasMessage(".env.sample line 3: unexpected character \"-\" in the variable name \"OPTION-B=def\""
                        + " (names are letters, digits, _ and .): fix or comment out the line.");
        assertThatThrownBy(() -> EnvFile.parse("A=1\nJUSTAKEY\nB=2", ".env.sample"))
                .hasMessageContaining("line 2: unexpected character end of line (a line with no '=')");
        assertThatThrownBy(() -> EnvFile.parse("A=1\nB=\"open\nC=3", "s.env"))
                .hasMessage("s.env line 2: the quoted value of B is never closed (\"open): close the quote.");
    }

    @Test
    void aFileThatIsNotUtf8IsOneSentenceNamingTheLineAndTheFix(@TempDir Path dir) throws Exception {
        Path sample = dir.resolve(".env.sample");
        Files.write(sample, "TYPE=x\nDOMAIN=caf\u00e9.example.com\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> EnvFile.read(sample)).isInstanceOf(EnvFileException.class)
                .hasMessage(sample + " is not UTF-8 text (line 2 holds a byte that is not UTF-8): save it as UTF-8, as"
                        + " abra reads it.");
    }

    @Test
    void composeFileChainsAppendAndCommentedOverlaysAreIgnored() throws Exception {
        EnvFile sample = EnvFile.parse("""
                TYPE=guestbook
                COMPOSE_FILE="compose.yml"
                COMPOSE_FILE="$COMPOSE_FILE:compose.postgres.yml"
                #COMPOSE_FILE="$COMPOSE_FILE:compose.smtp.yml"
                """, ".env.sample");

        assertThat(sample.values()).containsEntry("COMPOSE_FILE", "compose.yml:compose.postgres.yml");
    }

    @Test
    void modifiersAreTheKeyValueWordsOfTheInlineComment() throws Exception {
        EnvFile sample = EnvFile.parse("""
                SECRET_DB_PASSWORD_VERSION=v1 # length=32
                SECRET_API_KEY_VERSION=v2 # length=64 charset=special,safespecial note
                SECRET_QUOTED_VERSION="v1" # length=12
                SECRET_PLAIN_VERSION=v1
                """, ".env.sample");

        assertThat(sample.values()).containsEntry("SECRET_DB_PASSWORD_VERSION", "v1")
                .containsEntry("SECRET_API_KEY_VERSION", "v2").containsEntry("SECRET_QUOTED_VERSION", "v1");
        assertThat(sample.modifiers("SECRET_DB_PASSWORD_VERSION")).isEqualTo(Map.of("length", "32"));
        assertThat(sample.modifiers("SECRET_API_KEY_VERSION")).isEqualTo(Map.of("length", "64", "charset", "special,safespecial"));
        assertThat(sample.modifiers("SECRET_QUOTED_VERSION")).isEqualTo(Map.of("length", "12"));
        assertThat(sample.modifiers("SECRET_PLAIN_VERSION")).isEmpty();
        assertThat(sample.modifiers("NOT_THERE")).isEmpty();
    }

    @Test
    void setEditsTheLastAssignmentInPlaceAndKeepsEverythingElse() throws Exception {
        String text = """
                # the app's domain
                export DOMAIN = example.com   # set by abra
                DOMAIN=first.example.com
                #DOMAIN=commented.example.com
                SECRET_DB_PASSWORD_VERSION=v1 # length=32
                """;
        EnvFile env = EnvFile.parse(text, "a.env").set("DOMAIN", "app.ci.example").set("SECRET_DB_PASSWORD_VERSION", "v2");

        assertThat(env.text()).isEqualTo("""
                # the app's domain
                export DOMAIN = example.com   # set by abra
                DOMAIN=app.ci.example
                #DOMAIN=commented.example.com
                SECRET_DB_PASSWORD_VERSION=v2 # length=32
                """);
        assertThat(env.values()).containsEntry("DOMAIN", "app.ci.example");
        assertThat(env.modifiers("SECRET_DB_PASSWORD_VERSION")).containsEntry("length", "32");
    }

    @Test
    void setAppendsAKeyThatIsNotThereAndEditsQuotedAndEmptyValues() throws Exception {
        EnvFile env = EnvFile.parse("A='x'\nB=\nC: \"y\"", "a.env").set("A", "1").set("B", "2").set("C", "3").set("D", "4");

        assertThat(env.text()).isEqualTo("A=1\nB=2\nC: 3\nD=4\n");
        assertThat(EnvFile.empty().set("K", "v").text()).isEqualTo("K=v\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "a b", "$HOME and ${X}", "quote \" inside", "it's", "back\\slash in", "#hash", "a # b",
            "line1\nline2", "tab\there", "ünïcödé", "ends with $", "x=y:z,w@h", "\\$X"})
    void everyValueSetIsReadBackUnchanged(String value) throws Exception {
        EnvFile env = EnvFile.parse("X=1\nKEY=old # length=3\nY=2\n", "a.env").set("KEY", value);

        assertThat(EnvFile.parse(env.text(), "again").values()).containsEntry("KEY", value).containsEntry("X", "1")
                .containsEntry("Y", "2");
        assertThat(env.modifiers("KEY")).containsEntry("length", "3");
    }

    @Test
    void aValueGodotenvCannotReadBackIsRefusedWithOneSentence() throws Exception {
        EnvFile env = EnvFile.parse("KEY=old\n", "a.env");

        assertThatThrownBy(() -> env.set("KEY", "ends in a backslash \\")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be written into a.env so that abra reads it back");
        assertThat(env.text()).isEqualTo("KEY=old\n");
    }

    @Test
    void crlfFilesKeepTheirLineEnds(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.env");
        Files.writeString(file, "A=1\r\nB='x'\r\n");

        EnvFile.read(file).set("B", "y z").write(file);

        assertThat(Files.readString(file)).isEqualTo("A=1\r\nB=\"y z\"\r\n");
        assertThat(EnvFile.read(file).values()).isEqualTo(Map.of("A", "1", "B", "y z"));
    }

    @Test
    void replaceTextIsAbraAppNewsDomainReplacement() throws Exception {
        EnvFile env = EnvFile.parse("DOMAIN=custom-html.example.com\n#EXTRA_DOMAINS=', `www.custom-html.example.com`'\n",
                ".env.sample").replaceText("custom-html.example.com", "cust-1.ci.example");

        assertThat(env.text()).isEqualTo("DOMAIN=cust-1.ci.example\n#EXTRA_DOMAINS=', `www.cust-1.ci.example`'\n");
    }
}
