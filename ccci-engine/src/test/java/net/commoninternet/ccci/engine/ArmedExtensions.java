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
    enum Point { BEFORE_RUN, BEFORE_CHECKS, BEFORE_CHECKS_THROWS, AFTER_TIER, TEARDOWN }

    /** The points whose extensions act; a test arms them and clears them after. */
    static final Set<Point> ARMED = ConcurrentHashMap.newKeySet();
    /** What the armed extensions did, in the order they did it. */
    static final List<String> CALLS = new CopyOnWriteArrayList<>();

    private ArmedExtensions() {
    }

    /** What an extension of {@code point} does when its point is armed: throw, or say it ran. */
    private static void act(Point point, String who, boolean throwing, String recipe) {
        if (!ARMED.contains(point)) {
            return;
        }
        CALLS.add(who + (throwing ? " threw" : " ran"));
        if (throwing) {
            throw new IllegalStateException(who + " of " + recipe + " broke");
        }
    }

    /** Called first at teardown (teardown runs highest order first): throws. */
    public static final class FirstTeardown implements RunExtension.Teardown {
        @Override
        public int order() {
            return 2;
        }

        @Override
        public void teardown(RunContext run) {
            act(Point.TEARDOWN, "first teardown", true, run.recipe());
        }
    }

    /** Called second at teardown. */
    public static final class SecondTeardown implements RunExtension.Teardown {
        @Override
        public int order() {
            return 1;
        }

        @Override
        public void teardown(RunContext run) {
            act(Point.TEARDOWN, "second teardown", false, run.recipe());
        }
    }

    /** Called first before the run (lowest order first): throws. */
    public static final class FirstBeforeRun implements RunExtension.BeforeRun {
        @Override
        public int order() {
            return 1;
        }

        @Override
        public void beforeRun(RunContext run) {
            act(Point.BEFORE_RUN, "first before-run", true, run.recipe());
        }
    }

    /** Called second before the run. */
    public static final class SecondBeforeRun implements RunExtension.BeforeRun {
        @Override
        public int order() {
            return 2;
        }

        @Override
        public void beforeRun(RunContext run) {
            act(Point.BEFORE_RUN, "second before-run", false, run.recipe());
        }
    }

    /**
     * Says when it is called, into {@link RecordingLifecycle#EVENTS} beside the tiers' own events
     * ({@link Point#BEFORE_CHECKS}), or throws ({@link Point#BEFORE_CHECKS_THROWS}).
     */
    public static final class BeforeChecksRecorder implements RunExtension.BeforeChecks {
        @Override
        public void beforeChecks(TierContext tier) {
            if (ARMED.contains(Point.BEFORE_CHECKS)) {
                RecordingLifecycle.EVENTS.add("before checks " + tier.tier().id());
            }
            act(Point.BEFORE_CHECKS_THROWS, "before-checks of " + tier.tier().id(), true, tier.recipe());
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
            act(Point.AFTER_TIER, "first after-" + tier.tier().id(), true, tier.recipe());
        }
    }
}
