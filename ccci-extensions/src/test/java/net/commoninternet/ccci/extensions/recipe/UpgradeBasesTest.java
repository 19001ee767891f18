package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import org.junit.jupiter.api.Test;

/** Which releases {@code ccci.upgrade-from} chooses, the previous one always first, and a base that cannot be deployed kept as a skip. */
class UpgradeBasesTest {

    private static final List<RecipeVersion> ALL = versions("1.0.0+1", "1.1.0+1", "1.2.0-rc.1+1", "1.2.0+1", "2.0.0+2");
    private static final List<RecipeVersion> OLDER = ALL.subList(0, 4); // the head is 2.0.0+2
    private static final Optional<RecipeVersion> PREVIOUS = RecipeVersion.parse("1.2.0+1");

    private static List<RecipeVersion> versions(String... texts) {
        return List.of(texts).stream().map(t -> RecipeVersion.parse(t).orElseThrow()).toList();
    }

    private static List<String> chosen(String setting) {
        return UpgradeBases.choose(UpgradeFrom.parse(setting).orElseThrow(), PREVIOUS, OLDER, ALL).bases().stream()
                .map(b -> b.release() + b.skip().map(s -> " (skip)").orElse("")).toList();
    }

    @Test
    void previousIsTheUpgradePlansBaseAlone() {
        assertThat(chosen("previous")).containsExactly("1.2.0+1");
    }

    @Test
    void lastNIsTheNNewestStableReleasesOlderThanTheHeadPreReleasesAfterThem() {
        assertThat(chosen("last:3")).containsExactly("1.2.0+1", "1.1.0+1", "1.0.0+1");
        assertThat(chosen("last:4")).containsExactly("1.2.0+1", "1.1.0+1", "1.0.0+1", "1.2.0-rc.1+1");
        assertThat(chosen("last:20")).hasSize(4);
    }

    @Test
    void allIsEveryReleaseOlderThanTheHeadNewestFirst() {
        assertThat(chosen("all")).containsExactly("1.2.0+1", "1.2.0-rc.1+1", "1.1.0+1", "1.0.0+1");
    }

    @Test
    void aListedReleaseThatCannotBeDeployedStaysInTheMatrixAsASkipWithItsReason() {
        assertThat(chosen("1.0.0+1,9.9.9,2.0.0+2")).containsExactly("1.2.0+1", "1.0.0+1", "9.9.9 (skip)", "2.0.0+2 (skip)");
        UpgradeBases bases = UpgradeBases.choose(UpgradeFrom.parse("9.9.9,2.0.0+2").orElseThrow(), PREVIOUS, OLDER, ALL);
        assertThat(bases.bases().get(1).skip()).get().asString().startsWith("no release tag 9.9.9 in the recipe (its releases: 1.0.0+1,");
        assertThat(bases.bases().get(2).skip()).get().asString().contains("is not older than the head");
        assertThat(bases.others()).hasSize(2);
    }

    @Test
    void noPreviousReleaseNoBases() {
        assertThat(UpgradeBases.choose(UpgradeFrom.parse("all").orElseThrow(), Optional.empty(), List.of(), ALL).bases())
                .isEmpty();
    }
}
