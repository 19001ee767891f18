package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recipe versions follow SemVer 2.0.0: the cases are semver.org's own (the specification's
 * examples in items 2, 9, 10 and 11, and the valid and invalid strings of its FAQ's suggested
 * regular expression), plus the tag shapes Co-op Cloud recipes use.
 */
class RecipeVersionTest {

    private static RecipeVersion v(String text) {
        return RecipeVersion.parse(text).orElseThrow(() -> new AssertionError(text + " did not parse"));
    }

    /** semver.org item 11: "Example: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < ... < 1.0.0." */
    @Test
    void precedenceIsSemverOrgsExampleChain() {
        List<String> chain = List.of("1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
                "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0");
        List<RecipeVersion> shuffled = new ArrayList<>(chain.stream().map(RecipeVersionTest::v).toList());
        Collections.reverse(shuffled);
        Collections.sort(shuffled);

        assertThat(shuffled).extracting(RecipeVersion::text).containsExactlyElementsOf(chain);
        for (int i = 1; i < chain.size(); i++) {
            assertThat(v(chain.get(i - 1))).as("%s < %s", chain.get(i - 1), chain.get(i)).isLessThan(v(chain.get(i)));
        }
    }

    /** Items 2 and 11: numbers compare numerically ("1.9.0 -> 1.10.0 -> 1.11.0"; "1.0.0 < 2.0.0 < 2.1.0 < 2.1.1"). */
    @Test
    void numbersCompareNumerically() {
        assertThat(v("1.9.0")).isLessThan(v("1.10.0"));
        assertThat(v("1.10.0")).isLessThan(v("1.11.0"));
        assertThat(v("1.0.0")).isLessThan(v("2.0.0"));
        assertThat(v("2.0.0")).isLessThan(v("2.1.0"));
        assertThat(v("2.1.0")).isLessThan(v("2.1.1"));
        assertThat(v("1.0.0-alpha")).isLessThan(v("1.0.0"));
    }

    /** Item 10: "Build metadata MUST be ignored when determining version precedence." */
    @Test
    void theUpstreamPartIsBuildMetadataAndCarriesNoPrecedence() {
        assertThat(v("1.0.0+1.22.1").samePrecedence(v("1.0.0+1.21.0"))).isTrue();
        assertThat(v("1.0.0+20130313144700").samePrecedence(v("1.0.0"))).isTrue();
        assertThat(v("1.0.0+1.36.1")).isLessThan(v("1.1.0+1.36.0"));
        // the order is still total, so sorting is the same everywhere
        assertThat(v("1.0.0+a")).isNotEqualByComparingTo(v("1.0.0+b"));
    }

    /** Items 9 and 10's examples, the FAQ's valid strings, and Co-op Cloud's tag shapes. */
    @ParameterizedTest
    @ValueSource(strings = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0-x-y-z.--",
            "1.0.0-alpha+001", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.0.0+21AF26D3----117B344092BD",
            "0.0.4", "1.2.3", "10.20.30", "1.1.2-prerelease+meta", "1.1.2+meta", "1.1.2+meta-valid", "1.0.0-alpha.beta.1",
            "1.0.0-alpha0.valid", "1.0.0-alpha.0valid", "1.0.0-alpha-a.b-c-somethinglong+build.1-aef.1-its-okay",
            "1.0.0-rc.1+build.1", "2.0.0-rc.1+build.123", "10.2.3-DEV-SNAPSHOT", "1.2.3-SNAPSHOT-123", "2.0.0+build.1848",
            "2.0.1-alpha.1227", "1.0.0-alpha+beta", "1.2.3----RC-SNAPSHOT.12.9.1--.12+788", "1.2.3----R-S.12.9.1--.12+meta",
            "1.0.0+0.build.1-rc.10000aaa-kk-0.1", "1.0.0-0A.is.legal",
            "1.2.0+1.22.1", "0.4.1+v2.3.4-alpine", "2.0.0+2024-01-01", "v1.2.3", "v1.2.3+1.0", "99999999999.0.0"})
    void valid(String text) {
        assertThat(RecipeVersion.parse(text)).as(text).isPresent();
        assertThat(RecipeVersion.problem(text)).as(text).isEmpty();
    }

    /** The FAQ's invalid strings (and item 2's "MUST NOT contain leading zeroes"). */
    @ParameterizedTest
    @ValueSource(strings = {"1", "1.2", "1.2.3-0123", "1.2.3-0123.0123", "1.1.2+.123", "+invalid", "-invalid",
            "-invalid+invalid", "-invalid.01", "alpha", "alpha.beta", "alpha.beta.1", "alpha.1", "alpha+beta", "alpha_beta",
            "alpha.", "alpha..", "beta", "1.0.0-alpha_beta", "-alpha.", "1.0.0-alpha..", "1.0.0-alpha..1",
            "1.0.0-alpha...1", "01.1.1", "1.01.1", "1.1.01", "1.2.3.DEV", "1.2-SNAPSHOT", "1.2-RC-SNAPSHOT",
            "-1.0.3-gamma+b7718", "+justmeta", "9.8.7+meta+meta", "9.8.7-whatever+meta+meta", "latest", ""})
    void invalid(String text) {
        assertThat(RecipeVersion.parse(text)).as(text).isEmpty();
    }

    @Test
    void aLargeMajorIsOrderedAsANumber() {
        assertThat(v("99999999999.0.0")).isGreaterThan(v("9.0.0"));
        assertThat(v("99999999999.0.0").semver().majorVersion()).isEqualTo(99_999_999_999L);
    }

    /**
     * The FAQ's "99999999999999999999999.999999999.99999999999999999" is valid SemVer but beyond
     * 64 bits: it is no release ccci can order, and says so in one sentence naming the fix.
     */
    @Test
    void aVersionBeyondSixtyFourBitsIsOneSentenceNamingTheFix() {
        String huge = "99999999999999999999999.999999999.99999999999999999";

        assertThat(RecipeVersion.parse(huge)).isEmpty();
        assertThat(RecipeVersion.problem(huge)).contains("the tag " + huge + " looks like a release but a number in it is"
                + " larger than 9223372036854775807, so ccci cannot order it: retag the release as"
                + " <major>.<minor>.<patch>+<upstream>.");
        assertThat(RecipeVersion.problem("01.2.3")).get().asString().contains("not SemVer 2.0.0");
        assertThat(RecipeVersion.problem("latest")).isEmpty();
    }

    @Test
    void aLeadingVIsTheSameRelease() {
        assertThat(v("v1.2.3").samePrecedence(v("1.2.3"))).isTrue();
        assertThat(v("v1.2.3").text()).isEqualTo("v1.2.3");
        assertThat(v("2.0.0-rc.1").preRelease()).isTrue();
        assertThat(v("2.0.0").preRelease()).isFalse();
        assertThat(RecipeVersion.parse("x1.2.3")).isEqualTo(Optional.empty());
    }
}
