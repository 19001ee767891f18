package net.commoninternet.ccci.engine;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import net.commoninternet.ccci.spi.RunContext;
import net.commoninternet.ccci.spi.RunExtension;
import net.commoninternet.ccci.spi.TierContext;

/**
 * Extensions that fail on purpose, for the tests of how the engine calls extensions: two of each
 * point, the first one called throwing. They do nothing until a test arms their point
 * ({@link #ARMED}), so the other tests' event lists stay as they are.
 */
final class ArmedExtensions {

    /** An extension point. */
    enum Point { BEFORE_RUN, AFTER_TIER, TEARDOWN }

    /** The points whose extensions act; a test arms them and clears them after. */
    static final Set<Point> ARMED = ConcurrentHashMap.newKeySet();
    /** What the armed extensions did, in the order they did it. */
    static final List<String> CALLS = new CopyOnWriteArrayList<>();

    private ArmedExtensions() {
    }

    private static void threw(String what, String recipe) {
        CALLS.add(what + " threw");
        throw new IllegalStateException(what + " of " + recipe + " broke");
    }

    /** Called first at teardown (teardown runs highest order first): throws. */
    public static final class FirstTeardown implements RunExtension.Teardown {
        @Override
        public int order() {
            return 2;
        }

        @Override
        public void teardown(RunContext run) {
            if (ARMED.contains(Point.TEARDOWN)) {
                threw("first teardown", run.recipe());
            }
        }
    }

    /** Called second at teardown: records that it ran. */
    public static final class SecondTeardown implements RunExtension.Teardown {
        @Override
        public int order() {
            return 1;
        }

        @Override
        public void teardown(RunContext run) {
            if (ARMED.contains(Point.TEARDOWN)) {
                CALLS.add("second teardown ran");
            }
        }
    }

    /** Called first before the run: throws. */
    public static final class FirstBeforeRun implements RunExtension.BeforeRun {
        @Override
        public int order() {
            return 1;
        }

        @Override
        public void beforeRun(RunContext run) {
            if (ARMED.contains(Point.BEFORE_RUN)) {
                threw("first before-run", run.recipe());
            }
        }
    }

    /** Called second before the run: records that it ran. */
    public static final class SecondBeforeRun implements RunExtension.BeforeRun {
        @Override
        public int order() {
            return 2;
        }

        @Override
        public void beforeRun(RunContext run) {
            if (ARMED.contains(Point.BEFORE_RUN)) {
                CALLS.add("second before-run ran");
            }
        }
    }

    /** Called before {@link RecordingTiers.AfterTierRecorder} after each tier: throws. */
    public static final class FirstAfterTier implements RunExtension.AfterTier {
        @Override
        public int order() {
            return -1;
        }

        @Override
        public void afterTier(TierContext tier, Throwable failure) {
            if (ARMED.contains(Point.AFTER_TIER)) {
                threw("first after-" + tier.tier().id(), tier.recipe());
            }
        }
    }
}
