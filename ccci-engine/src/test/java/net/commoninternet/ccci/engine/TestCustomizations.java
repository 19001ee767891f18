package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.spi.AfterOperation;
import net.commoninternet.ccci.spi.Functional;
import net.commoninternet.ccci.spi.LiveApp;
import net.commoninternet.ccci.spi.RecipeCustomization;
import net.commoninternet.ccci.spi.Tier;

/** Customizations the engine tests discover through ServiceLoader (recipes "tuned" and "mistyped"). */
final class TestCustomizations {

    private TestCustomizations() {
    }

    /** A valid customization: keys, an intentional skip, an install assertion, two functional tests. */
    public static final class Tuned implements RecipeCustomization {
        @Override
        public String recipe() {
            return "tuned";
        }

        @Override
        public Map<String, Object> keys() {
            return Map.of("HEALTH_PATH", "/health", "HEALTH_OK", List.of(200, 204), "EXPECTED_NA",
                    Map.of("backup", "the app keeps no data"));
        }

        @AfterOperation(Tier.INSTALL)
        void titleNamesTheDomain(LiveApp app) throws Exception {
            RecordingLifecycle.EVENTS.add("recipe check on " + app.domain() + " with " + app.keys().healthPath());
        }

        @Functional
        void loginWorks(LiveApp app) {
            RecordingLifecycle.EVENTS.add("functional loginWorks");
        }

        @Functional
        void searchFindsNothing(LiveApp app) {
            throw new AssertionError("search found something");
        }
    }

    /** A mistyped key and a method of the wrong shape: discovery must say so, once each. */
    public static final class Mistyped implements RecipeCustomization {
        @Override
        public String recipe() {
            return "mistyped";
        }

        @Override
        public Map<String, Object> keys() {
            return Map.of("HEALT_PATH", "/", "DEPLOY_TIMEOUT", "ten minutes");
        }

        @Functional
        void takesNothing() {
        }
    }
}
