package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.Map;
import net.commoninternet.ccci.api.AfterOperation;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;

/**
 * Customizations the engine tests discover through ServiceLoader (recipes "tuned", "mistyped",
 * "hooked", "hookfails", "badhook", "unacted" and "depends").
 */
public final class TestCustomizations {

    private TestCustomizations() {
    }

    /** Functional tests with tags of what they need, and an install assertion with one. */
    public static final class Tagged implements RecipeCustomization {
        @Override
        public String recipe() {
            return "tagged";
        }

        @AfterOperation(value = Tier.INSTALL, tags = "needs-browser")
        void pageLooksRight(LiveApp app) {
            RecordingLifecycle.EVENTS.add("recipe check pageLooksRight");
        }

        @Functional(tags = {"needs-browser", "slow"})
        void clicksThrough(LiveApp app) {
            RecordingLifecycle.EVENTS.add("functional clicksThrough");
        }

        @Functional
        void answers(LiveApp app) {
            RecordingLifecycle.EVENTS.add("functional answers");
        }
    }

    /**
     * Functional tests of an app that answers wrong one time in two, and of one that is always wrong:
     * the tries each check saw, counted over the JVM ({@link #TRIES}).
     */
    public static final class Flaky implements RecipeCustomization {
        public static final Map<String, java.util.concurrent.atomic.AtomicInteger> TRIES = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public String recipe() {
            return "flaky";
        }

        private static int tried(String check) {
            return TRIES.computeIfAbsent(check, c -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        }

        @Functional
        void failsOneTimeInTwo(LiveApp app) {
            int tried = tried("failsOneTimeInTwo");
            RecordingLifecycle.EVENTS.add("functional failsOneTimeInTwo " + tried);
            if (tried % 2 == 1) {
                throw new AssertionError("GET / answered 502 (try " + tried + ")");
            }
        }

        @Functional
        void alwaysFails(LiveApp app) {
            int tried = tried("alwaysFails");
            RecordingLifecycle.EVENTS.add("functional alwaysFails " + tried);
            throw new AssertionError("GET / answered 500 (try " + tried + ")");
        }

        @Functional
        void skipsOnce(LiveApp app) {
            tried("skipsOnce");
            throw net.commoninternet.ccci.spi.Skipped.structural("nothing to judge here");
        }
    }

    /** Tags no filter could read or that would name a tier. */
    public static final class BadlyTagged implements RecipeCustomization {
        @Override
        public String recipe() {
            return "badly-tagged";
        }

        @Functional(tags = {"needs browser", "upgrade"})
        void clicksThrough(LiveApp app) {
        }
    }

    /** A backup assertion of the recipe's own, between the tier's generic checks and its last ones. */
    public static final class Ordered implements RecipeCustomization {
        @Override
        public String recipe() {
            return "ordered";
        }

        @AfterOperation(Tier.BACKUP)
        void backupKept(LiveApp app) {
            RecordingLifecycle.EVENTS.add("recipe check backupKept");
        }
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

    /** Pre-operation hooks for INSTALL (run by the lifecycle) and BACKUP (run by the engine). */
    public static final class Hooked implements RecipeCustomization {
        @Override
        public String recipe() {
            return "hooked";
        }

        @BeforeOperation(Tier.INSTALL)
        void beforeInstall(HookContext context) throws Exception {
            RecordingLifecycle.EVENTS.add("hook " + context.op().id() + ", live app " + context.app().isPresent());
            context.setEnv("GREETING", "hello");
        }

        @BeforeOperation(Tier.BACKUP)
        void beforeBackup(HookContext context) {
            RecordingLifecycle.EVENTS.add("hook " + context.op().id() + " on " + context.domain() + ", live app "
                    + context.app().isPresent());
        }
    }

    /** A BACKUP hook that throws: the tier fails and its operation must not run. */
    public static final class HookFails implements RecipeCustomization {
        @Override
        public String recipe() {
            return "hookfails";
        }

        @BeforeOperation(Tier.BACKUP)
        void beforeBackup(HookContext context) {
            throw new IllegalStateException("backup hook broke");
        }
    }

    /** Hooks of the wrong shape: no context parameter, and static. */
    public static final class BadHook implements RecipeCustomization {
        @Override
        public String recipe() {
            return "badhook";
        }

        @BeforeOperation(Tier.BACKUP)
        void noContext() {
            RecordingLifecycle.EVENTS.add("hook noContext");
        }

        @BeforeOperation(Tier.RESTORE)
        static void staticHook(HookContext context) {
            RecordingLifecycle.EVENTS.add("hook staticHook");
        }
    }

    /** Keys this ccci records but does not act on. */
    public static final class Unacted implements RecipeCustomization {
        @Override
        public String recipe() {
            return "unacted";
        }

        @Override
        public Map<String, Object> keys() {
            return Map.of("SCREENSHOT", "/", "WARM_CANONICAL", true);
        }
    }

    /** Cold dependencies, which this ccci cannot deploy. */
    public static final class Depends implements RecipeCustomization {
        @Override
        public String recipe() {
            return "depends";
        }

        @Override
        public Map<String, Object> keys() {
            return Map.of("DEPS", List.of("mariadb"));
        }
    }
}
