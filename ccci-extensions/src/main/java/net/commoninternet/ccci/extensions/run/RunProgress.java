package net.commoninternet.ccci.extensions.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.commoninternet.ccci.spi.RunTimeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress a person can follow in the console: one line per phase per recipe as it starts and as
 * it ends, with its duration and the run's elapsed time, and, in a command of several recipes, a
 * running count after each run ({@code == progress: 3/12 done, 1 red (x), 2 running ==}).
 */
final class RunProgress {

    private static final Logger LOG = LoggerFactory.getLogger(RunProgress.class);

    private final int total;
    private final List<String> red = new ArrayList<>();
    private int done;
    private int running;

    RunProgress(int total) {
        this.total = total;
    }

    /** The lines of one run's phases. */
    RunTimeline.Listener of(String recipe) {
        return new RunTimeline.Listener() {
            @Override
            public void started(String phase, Duration at) {
                LOG.info(">> {} {} started at +{}", recipe, phase, clock(at));
            }

            @Override
            public void ended(RunTimeline.Phase phase) {
                LOG.info("<< {} {} {} {} (at +{})", recipe, phase.name(),
                        phase.outcome() == RunTimeline.Outcome.DONE ? "done in" : "FAILED after", seconds(phase.duration()),
                        clock(phase.start().plus(phase.duration())));
            }
        };
    }

    synchronized void started() {
        running++;
    }

    /** A run ended; in a command of several, the count so far. */
    void finished(String recipe, boolean failed) {
        String line;
        synchronized (this) {
            running--;
            done++;
            if (failed) {
                red.add(recipe);
            }
            line = "== progress: " + done + "/" + total + " done, " + red.size() + " red"
                    + (red.isEmpty() ? "" : " (" + String.join(", ", red) + ")") + ", " + running + " running ==";
        }
        if (total > 1) {
            LOG.info(line);
        }
    }

    synchronized List<String> red() {
        return List.copyOf(red);
    }

    /** {@code 12.3 s}. */
    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    /** {@code 1:02} (minutes:seconds). */
    static String clock(Duration at) {
        long seconds = at.toSeconds();
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
