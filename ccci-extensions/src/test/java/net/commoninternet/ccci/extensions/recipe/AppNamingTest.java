package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every run app's domain is one the janitor recognises, and no warm app's ever is. */
class AppNamingTest {

    @Test
    void everyRecipeNameGivesADomainTheJanitorRecognises() {
        for (String recipe : List.of("my-app", "a-b", "a", "custom-html", "guestbook", "n-o-t-e-s", "warm", "warmup",
                "war-m", "x-")) {
            String domain = AppNaming.domain(recipe, 0, "main", AppNaming.DEFAULT_SUFFIX);
            assertThat(AppNaming.isRunApp(domain, AppNaming.DEFAULT_SUFFIX)).as(recipe + " -> " + domain).isTrue();
        }
        // unchanged for names whose first four letters have no '-': their domains stay the same on every host
        assertThat(AppNaming.domain("custom-html", 0, "main", AppNaming.DEFAULT_SUFFIX)).startsWith("cust-");
        assertThat(AppNaming.domain("my-app", 0, "main", AppNaming.DEFAULT_SUFFIX)).startsWith("myap-");
    }

    @Test
    void aWarmAppNeverMatchesTheRunAppPatternWhateverFollows() {
        for (String warm : List.of("warm-abc123.ci.commoninternet.net", "warm-keycloak.ci.commoninternet.net",
                "warm-000000.ci.commoninternet.net")) {
            assertThat(AppNaming.isRunApp(warm, AppNaming.DEFAULT_SUFFIX)).as(warm).isFalse();
        }
        assertThat(AppNaming.isRunApp("cust-abc123.ci.commoninternet.net", AppNaming.DEFAULT_SUFFIX)).isTrue();
    }

    /** Two namespaces never see each other's run apps, whichever suffix is the longer one. */
    @Test
    void runAppsOfTwoDomainSuffixesAreDisjoint() {
        List<String> suffixes = List.of(AppNaming.DEFAULT_SUFFIX, "f1.ci.commoninternet.net", "f2.ci.commoninternet.net",
                "commoninternet.net", "ci.example.org");
        for (String made : suffixes) {
            String domain = AppNaming.domain("custom-html", 0, "main", made);
            for (String judged : suffixes) {
                assertThat(AppNaming.runApps(judged).matcher(domain).matches()).as(domain + " judged in " + judged)
                        .isEqualTo(made.equals(judged));
            }
        }
    }
}
