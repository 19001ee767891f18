package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * abra's labels, read from parsed YAML in list or map form, as written ({@code ${STACK_NAME}})
 * or interpolated (the stack's own name); the older {@code app.version} when there is no
 * {@code version}.
 */
class RecipeLabelsTest {

    @Test
    void aCommentedOutVersionLabelNeverWins() {
        assertThat(UpgradePlan.versionLabel("""
                services:
                  app:
                    deploy:
                      labels:
                        #- "coop-cloud.${STACK_NAME}.version=9.9.9+commented"
                        - "coop-cloud.${STACK_NAME}.version=1.1.0+1.22.1"
                """)).contains("1.1.0+1.22.1");
        assertThat(UpgradePlan.versionLabel("""
                # - "coop-cloud.${STACK_NAME}.version=9.9.9+commented"
                services:
                  app:
                    image: nginx:1.22
                """)).isEmpty();
    }

    @Test
    void mapFormListFormAndTheOlderAppVersionForm() throws Exception {
        assertThat(UpgradePlan.versionLabel("""
                services:
                  app:
                    deploy:
                      labels:
                        coop-cloud.${STACK_NAME}.version: 2.0.0+3.1
                """)).contains("2.0.0+3.1");
        assertThat(UpgradePlan.versionLabel("""
                services:
                  db:
                    image: postgres:15
                  app:
                    deploy:
                      labels:
                        - "coop-cloud.${STACK_NAME}.app.version=0.3.0+1.0"
                """)).contains("0.3.0+1.0");
        // a version label wins over an app.version one, wherever they are
        assertThat(RecipeLabels.version(Map.of("coop-cloud.s.app.version", "1.0.0+a", "coop-cloud.s.version", "2.0.0+b"), "s"))
                .contains("2.0.0+b");
        assertThat(UpgradePlan.versionLabel("services: [unclosed")).isEmpty();
    }

    @Test
    void theStacksOwnNameAndTheUninterpolatedKeyAreBothRead() {
        assertThat(RecipeLabels.in(Map.of("coop-cloud.cust_ci.timeout", "120"), "cust_ci", "timeout")).contains("120");
        assertThat(RecipeLabels.in(Map.of("coop-cloud.${STACK_NAME}.timeout", "90"), "cust_ci", "timeout")).contains("90");
        assertThat(RecipeLabels.in(Map.of("coop-cloud.other_ci.timeout", "90"), "cust_ci", "timeout")).isEqualTo(Optional.empty());
        // the version label of a stack is never confused with its timeout label
        assertThat(RecipeLabels.version(Map.of("coop-cloud.cust_ci.timeout", "120"), "cust_ci")).isEmpty();
    }
}
