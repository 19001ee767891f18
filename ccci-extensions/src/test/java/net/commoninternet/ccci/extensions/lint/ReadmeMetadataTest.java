package net.commoninternet.ccci.extensions.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import net.commoninternet.ccci.extensions.lint.ReadmeMetadata.Claim;
import org.junit.jupiter.api.Test;

/** The metadata block in the shapes Co-op Cloud recipes' READMEs have it. */
class ReadmeMetadataTest {

    /** `-` bullets, blank lines around the list, a linked image, emoji scores (a wordpress-style README). */
    @Test
    void dashBulletsLinksAndEmojiScoresAreRead() {
        ReadmeMetadata metadata = ReadmeMetadata.parse("""
                # Wordpress

                Coöp Cloud + [Wordpress](https://wordpress.org) = 🥳

                <!-- metadata -->

                - **Category**: Apps
                - **Status**: ❶💚
                - **Image**: [`wordpress`](https://hub.docker.com/_/wordpress), ❶💚, upstream
                - **Healthcheck**: Yes
                - **Backups**: Yes
                - **Email**: ❶💚
                - **Tests**: ❷💛
                - **SSO**: No

                <!-- endmetadata -->

                ## Basic usage
                - **Not**: metadata
                """).orElseThrow();

        assertThat(metadata.fields()).isEqualTo(Map.of("Category", "Apps", "Status", "❶💚", "Image", "wordpress, ❶💚, upstream",
                "Healthcheck", "Yes", "Backups", "Yes", "Email", "❶💚", "Tests", "❷💛", "SSO", "No"));
        assertThat(metadata.claim(ReadmeMetadata.BACKUPS)).isEqualTo(Claim.YES);
        assertThat(metadata.claim(ReadmeMetadata.TESTS)).isEqualTo(Claim.YES);
        assertThat(metadata.claim(ReadmeMetadata.SSO)).isEqualTo(Claim.NO);
    }

    /** `*` bullets right after the comment and keys with nothing after their colon (a new recipe's README). */
    @Test
    void emptyScoresArePresentAndNotFilledIn() {
        ReadmeMetadata metadata = ReadmeMetadata.parse("""
                # bonfire

                <!-- metadata -->
                * **Category**: Apps
                * **Status**: 1, alpha
                * **Image**: [`bonfirenetworks/bonfire`](https://hub.docker.com/r/bonfirenetworks/bonfire/tags), 4, upstream
                * **Healthcheck**:
                * **Backups**:
                * **Email**: N/A
                * **Tests**:
                * **SSO**:
                <!-- endmetadata -->
                """).orElseThrow();

        assertThat(metadata.get(ReadmeMetadata.HEALTHCHECK)).contains("");
        assertThat(metadata.filledIn(ReadmeMetadata.HEALTHCHECK)).isFalse();
        assertThat(metadata.filledIn(ReadmeMetadata.IMAGE)).isTrue();
        assertThat(metadata.claim(ReadmeMetadata.BACKUPS)).isEqualTo(Claim.UNSAID);
        assertThat(metadata.claim(ReadmeMetadata.EMAIL)).isEqualTo(Claim.NOT_APPLICABLE);
        assertThat(metadata.get("Status")).contains("1, alpha");
    }

    @Test
    void aReadmeWithoutTheBlockHasNoMetadata() {
        assertThat(ReadmeMetadata.parse("# x\n\n* **Healthcheck**: Yes\n")).isEmpty();
        assertThat(ReadmeMetadata.parse("# x\n\n```\n<!-- metadata -->\n* **Healthcheck**: Yes\n```\n")).isEmpty();
    }
}
